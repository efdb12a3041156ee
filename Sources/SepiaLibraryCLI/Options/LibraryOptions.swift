import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary
import SepiaObjectStore

/// Which library a command works on.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library folder (default: $SEPIA_LIBRARY, else $XDG_DATA_HOME/sepia/library, else ~/.local/share/sepia/library).",
            valueName: "dir"),
        completion: .directory)
    var library: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep originals and edits in S3-compatible object storage instead of the library folder: "
                + "s3://BUCKET[/PREFIX]?endpoint=URL&region=REGION (default: $SEPIA_STORAGE). Credentials come from "
                + "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or --storage-credentials.",
            valueName: "s3-url"))
    var storage: String?

    @Option(
        name: .customLong("storage-credentials"),
        help: ArgumentHelp(
            "A file setting AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for --storage (never pass keys on the command line).",
            valueName: "file"),
        completion: .file())
    var storageCredentials: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the database in PostgreSQL instead of the library folder: postgres://USER@HOST[:PORT]/DATABASE[?schema=NAME] "
                + "(default: $SEPIA_DATABASE). The same URL for `sepia serve` and the other commands: they work on the owner's "
                + "library of that deployment. The password comes from PGPASSWORD or --database-credentials.",
            valueName: "postgres-url"))
    var database: String?

    @Option(
        name: .customLong("database-credentials"),
        help: ArgumentHelp("A file whose first line is the PostgreSQL password for --database.", valueName: "file"),
        completion: .file())
    var databaseCredentials: String?

    /// The folder chosen.
    var path: String {
        if let library { return library }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SEPIA_LIBRARY"], !path.isEmpty { return path }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/sepia/library"
    }

    /// The object storage chosen, with its credentials, or nil for the library folder.
    func objectStorage() throws -> S3Client? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = storage ?? environment["SEPIA_STORAGE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        let location = try S3Location(parsing: text)
        let credentials: S3Credentials
        if let file = storageCredentials {
            credentials = try S3Credentials.fromFile(file)
        } else if let fromEnvironment = S3Credentials.fromEnvironment() {
            credentials = fromEnvironment
        } else {
            throw S3Error(
                .configuration, "--storage needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass --storage-credentials FILE")
        }
        return S3Client(location: location, credentials: credentials)
    }

    /// The PostgreSQL deployment chosen (its accounts' schema), or nil for SQLite in the library folder.
    func postgreSQL() throws -> PostgresLocation? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = database ?? environment["SEPIA_DATABASE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        var password: String?
        if let file = databaseCredentials {
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read --database-credentials \(file)")
            }
            password = contents.split(whereSeparator: \.isNewline).first.map(String.init)
        }
        return try PostgresLocation(parsing: text, password: password)
    }

    /// How to open the library: where its database and files are.
    func configuration() throws -> LibraryConfiguration {
        var configuration = LibraryConfiguration()
        // The owner's library, where `sepia serve` keeps it: its files under `libraries/owner/` of the bucket,
        // its tables in the deployment's `<schema>_owner`.
        if let client = try objectStorage() { configuration.storage = .objectStorage(client.appending("libraries/owner/")) }
        configuration.storagePathAdded = "libraries/owner/"
        if let deployment = try postgreSQL() {
            configuration.database = .postgreSQL(try deployment.schema(deployment.schema + "_owner"))
        }
        return configuration
    }

    /// Opens the library, printing what opening it cleaned up; `retention`, when given, is how long it keeps
    /// deleted photos in Recently Deleted.
    func open(quiet: Bool = false, retention: Duration? = nil) throws -> PhotoLibrary {
        var configuration = try configuration()
        if let retention { configuration.recentlyDeletedRetention = retention }
        let library = try PhotoLibrary.open(at: path, configuration: configuration)
        let report = library.openingReport
        if !quiet && (!report.removedOrphans.isEmpty || report.removedTemporaryFiles > 0) {
            Terminal.warning(
                "removed \(report.removedOrphans.count) stored files and \(report.removedTemporaryFiles) temporary files left by an interrupted process"
            )
            for orphan in report.removedOrphans.prefix(20) { Terminal.printError("  removed \(orphan)") }
        }
        return library
    }

    /// Opens the library, runs `body` with it, and closes it.
    func withLibrary<T>(quiet: Bool = false, _ body: (PhotoLibrary) async throws -> T) async throws -> T {
        let library = try open(quiet: quiet)
        defer { library.close() }
        return try await body(library)
    }
}

extension PhotoLibrary {
    /// The assets that command-line references (identifiers or unique prefixes) name, in order.
    func assets(matching references: [String]) throws(LibraryError) -> [Asset] {
        try references.map { (reference) throws(LibraryError) in try asset(matching: reference) }
    }
}
