import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia check [--quick] [--sweep] [--json]`.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the library's integrity.",
        discussion: """
            Checks the database, that every original and rendered edit exists and has the SHA-256 it is stored \
            under, and that no stored file lacks a row. Opening the library first removes what an interrupted \
            process left behind, and says so. Exits with 65 and lists the problems when the library is not sound.

            With --storage (object storage shared by several servers), objects no row names are problems once \
            they are an hour old; --sweep removes them first (servers also do it every hour).
            """)

    @Flag(name: .long, help: "Check that files exist, without reading them to verify their hashes.")
    var quick = false

    @Flag(name: .long, help: "With --storage: first remove objects no row names that are more than an hour old.")
    var sweep = false

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open(quiet: true)
            defer { photos.close() }
            if sweep {
                let swept = try await photos.sweepStorage()
                if !json { Terminal.print("swept: removed \(swept.removed.count) of \(swept.examined) objects older than an hour") }
            }
            let report = try await photos.check(verifyingHashes: !quick)
            if json {
                Terminal.print(JSONLine.encode(report))
            } else {
                for note in report.notes { Terminal.print("note: \(note)") }
                for problem in report.problems { Terminal.print("problem: \(problem)") }
                let verified = quick ? "" : String(format: ", %.1f MB verified", Double(report.bytesVerified) / 1e6)
                Terminal.print(
                    (report.isSound ? "ok: " : "NOT SOUND: ") + "\(report.media), \(report.files) files\(verified)"
                        + (report.isSound ? "" : ", \(report.problems.count) problems"))
            }
            if !report.isSound { throw ReportedFailure(code: ExitStatus.dataError) }
        }
    }
}
