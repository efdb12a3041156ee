import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary
import Synchronization

/// `sepia import PATH… [--library DIR] [--album NAME] [--json]`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add photos and videos to the library: files and folders, recursively.",
        discussion: """
            Every file is checked, hashed and stored under its SHA-256; a 1440 px preview and a 256 px thumbnail \
            are made at once (of a video, from its poster frame). A Live Photo's still and movie become one item, \
            whichever comes first, when they carry the same content identifier (or, without one, the same base \
            name and capture time to the second). Files already in the library (same content) are reported as \
            duplicates; files that are not photos or videos Sepia reads, or are damaged, are skipped with the \
            reason. A file imported before \
            from the same path and unchanged since is not read again, so re-running an import is cheap. \
            Imports commit in batches: interrupting one keeps what was committed. With --json, one JSON object \
            per file is printed as its outcome is final, then a summary object. Exits with 74 if any file could \
            not be read or stored.
            """)

    @Argument(help: "Photo and video files, or folders.", completion: .file())
    var paths: [String]

    @Option(name: .long, help: "Also add the photos to this album (created if needed).")
    var album: String?

    @Flag(name: .long, help: "Print one JSON object per file (JSON Lines), then a summary.")
    var json = false

    @Option(name: .long, help: "Files prepared at once (default: one per core).")
    var jobs: Int?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder") }
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be between 1 and 64") }
        if let album, album.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--album needs a title") }
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open(quiet: json)
            defer { photos.close() }
            let importer = AssetImporter(
                library: photos, albumTitle: album, concurrency: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            let json = self.json
            let bar = Mutex<ProgressBar?>(nil)
            let notable = Mutex<[ImportItemResult]>([])
            let sidecars = Mutex(0)
            let summary = try await importer.importFiles(paths) { result, progress in
                if json {
                    Terminal.print(JSONLine.encode(result))
                } else {
                    bar.withLock { bar in
                        if bar == nil { bar = ProgressBar(total: progress.total, label: "Importing") }
                        bar?.advance((result.path as NSString).lastPathComponent)
                    }
                    if result.sidecar != nil { sidecars.withLock { $0 += 1 } }
                    if [.skipped, .failed, .duplicate, .recovered].contains(result.status) || result.warnings != nil {
                        notable.withLock { $0.append(result) }
                    }
                }
            }
            bar.withLock { $0?.finish() }
            if json {
                Terminal.print(JSONLine.encode(["summary": summary]))
            } else {
                for result in notable.withLock({ $0 }) {
                    let name = result.path
                    switch result.status {
                    case .duplicate: Terminal.printError("duplicate  \(name): already in the library as \(result.assetID ?? "?")")
                    case .recovered:
                        Terminal.printError("recovered  \(name): was in Recently Deleted as \(result.assetID ?? "?"), now back in its albums")
                    case .skipped: Terminal.printError("skipped    \(name): \(result.reason ?? "")")
                    case .failed: Terminal.printError("failed     \(name): \(result.reason ?? "")")
                    default: break
                    }
                    for warning in result.warnings ?? [] { Terminal.printError("warning    \(name): \(warning)") }
                }
                var parts = ["\(summary.imported) imported"]
                if summary.paired > 0 { parts.append("\(summary.paired) joined their Live Photo or RAW+JPEG pair") }
                if summary.alreadyImported > 0 { parts.append("\(summary.alreadyImported) already in the library") }
                if summary.duplicates > 0 { parts.append("\(summary.duplicates) duplicates") }
                if summary.recovered > 0 { parts.append("\(summary.recovered) recovered from Recently Deleted") }
                let read = sidecars.withLock { $0 }
                if read > 0 { parts.append(read == 1 ? "1 with its XMP sidecar" : "\(read) with their XMP sidecars") }
                if summary.skipped > 0 { parts.append("\(summary.skipped) skipped") }
                if summary.failed > 0 { parts.append("\(summary.failed) failed") }
                let rate =
                    summary.seconds > 0 && summary.imported > 0 ? String(format: ", %.1f items/s", Double(summary.imported) / summary.seconds) : ""
                Terminal.print(parts.joined(separator: ", ") + String(format: " in %.1f s", summary.seconds) + rate)
            }
            if summary.failed > 0 { throw ReportedFailure(code: ExitStatus.ioError) }
        }
    }
}

/// One JSON object per line, keys sorted.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
