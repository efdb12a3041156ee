import ArgumentParser
import Foundation
import SepiaCodecs
import SepiaCommandLine
import SepiaLibrary

/// `sepia export ASSET… --out-dir DIR [--original]`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy photos out of the library: their current version, or the originals.",
        discussion: """
            An edited photo exports as its rendered JPEG (NAME.jpg); an unedited one, or any photo with \
            --original, as its original file, byte for byte, metadata included. Names that are taken get the \
            photo's short identifier appended. --album exports a whole album, --all the whole library.
            """)

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String] = []

    @Option(name: .long, help: "The folder to write to (created if needed).", completion: .directory)
    var outDir: String

    @Flag(name: .long, help: "Export the original files, ignoring edits.")
    var original = false

    @Option(name: .long, help: "Export every photo of this album.")
    var album: String?

    @Flag(name: .long, help: "Export every photo of the library.")
    var all = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if assets.isEmpty && album == nil && !all { throw ValidationError("name photos, or use --album NAME or --all") }
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            var targets = try photos.assets(matching: assets)
            if let album { targets += try photos.fetchAssets(in: try photos.album(album)).allObjects() }
            if all { targets += try photos.fetchAssets(FetchOptions(includeHiddenAssets: true)).allObjects() }
            do {
                try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
            } catch {
                Terminal.error("cannot create the output folder \(outDir): \(error.localizedDescription)")
                throw ReportedFailure(code: ExitStatus.cannotCreate)
            }
            var used = Set<String>()
            let bar = ProgressBar(total: targets.count, label: "Exporting")
            for asset in targets {
                let source = try await original ? photos.originalPath(of: asset) : photos.currentPath(of: asset)
                let edited = !original && asset.hasAdjustments
                var name = asset.originalFilename
                if edited { name = (name as NSString).deletingPathExtension + ".jpg" }
                var path = (outDir as NSString).appendingPathComponent(name)
                if used.contains(path) || FileManager.default.fileExists(atPath: path) {
                    let base = (name as NSString).deletingPathExtension
                    let ext = (name as NSString).pathExtension
                    path = (outDir as NSString).appendingPathComponent("\(base)-\(asset.id.prefix(8))" + (ext.isEmpty ? "" : "." + ext))
                }
                used.insert(path)
                let bytes = try EncodedBytes.read(contentsOf: source, maximumBytes: Int.max)
                try writeOutput(bytes.withUnsafeBytes { Array($0) }, to: path)
                bar.advance(name)
            }
            bar.finish()
            Terminal.print("exported \(targets.count) photo\(targets.count == 1 ? "" : "s") to \(outDir)")
        }
    }
}
