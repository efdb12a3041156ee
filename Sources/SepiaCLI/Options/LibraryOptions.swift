import ArgumentParser
import Foundation
import SepiaLibrary

/// Which library a command works on.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library folder (default: $SEPIA_LIBRARY, else $XDG_DATA_HOME/sepia/library, else ~/.local/share/sepia/library).",
            valueName: "dir"),
        completion: .directory)
    var library: String?

    /// The folder chosen.
    var path: String {
        if let library { return library }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SEPIA_LIBRARY"], !path.isEmpty { return path }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/sepia/library"
    }

    /// Opens the library, printing what opening it cleaned up.
    func open(quiet: Bool = false) throws -> PhotoLibrary {
        let library = try PhotoLibrary.open(at: path)
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
