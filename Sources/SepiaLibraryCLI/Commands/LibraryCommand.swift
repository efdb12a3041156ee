import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia library …`: moving a library between backends.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Move a library to another backend.",
        subcommands: [MigrateCommand.self])
}

/// `sepia library migrate --from DIR --to postgres://… [--storage s3://…] [--library DIR]`.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy an embedded library into PostgreSQL (and object storage) for several servers.",
        discussion: """
            Copies the library in --from (library.sqlite and its files) into the deployment --to names, as the \
            owner's library that `sepia serve --database` with the same URL serves. With --storage the originals \
            and edits go to the bucket; without it they stay in the library folder, which the servers must then \
            share. The source is only read.

            Files go first, then every row in one transaction. If it is interrupted, run it again: stored files \
            are skipped and the rows either all arrived or none did. It ends by comparing row counts and reading \
            every file back to verify its SHA-256; it exits with 65 and lists the problems when they differ.
            """)

    @Option(name: .long, help: ArgumentHelp("The embedded library to copy.", valueName: "dir"), completion: .directory)
    var from: String

    @Option(
        name: .long,
        help: ArgumentHelp("The deployment's database: postgres://USER@HOST[:PORT]/DATABASE[?schema=NAME].", valueName: "postgres-url"))
    var to: String

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if library.database != nil {
            throw ValidationError("--to names the destination database; --database is not used by migrate")
        }
    }

    func run() async throws {
        try await reportingErrors {
            var options = library
            options.database = to
            let configuration = try options.configuration()
            // The destination's folder on this machine: --library if given, else the source folder (its
            // files stay where they are when no --storage is given).
            let folder = library.library ?? from
            var bar: ProgressBar?
            let interactive = Terminal.isInteractive && !json
            let report = try await PhotoLibrary.migrate(from: from, to: folder, configuration: configuration) { done, count in
                if bar == nil { bar = ProgressBar(total: count, label: "Copying files", enabled: interactive) }
                if done > 0 { bar?.advance("\(done)/\(count)") }
            }
            bar?.finish()
            if json {
                Terminal.print(JSONLine.encode(report))
            } else {
                let rows = report.rows.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                Terminal.print("rows: \(rows)\(report.resumed ? " (copied by an earlier run)" : "")")
                Terminal.print("files: \(report.filesCopied) copied, \(report.filesAlreadyThere) already there")
                for note in report.check.notes { Terminal.print("note: \(note)") }
                for problem in report.check.problems { Terminal.print("problem: \(problem)") }
                let verified = String(format: "%.1f MB verified", Double(report.check.bytesVerified) / 1e6)
                Terminal.print(
                    report.check.isSound
                        ? "ok: \(report.check.media), \(report.check.files) files, \(verified)"
                        : "NOT DONE: \(report.check.problems.count) problems; fix them and run it again")
            }
            if !report.check.isSound { throw ReportedFailure(code: ExitStatus.dataError) }
        }
    }
}
