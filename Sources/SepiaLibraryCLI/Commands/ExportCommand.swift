import ArgumentParser
import Foundation
import SepiaCodecs
import SepiaCommandLine
import SepiaLibrary
import SepiaXMP

/// `sepia export ASSET… --out-dir DIR [--original]`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy photos and videos out of the library: their current version, or the originals.",
        discussion: """
            An edited photo exports as its rendered JPEG (NAME.jpg); an unedited one, or any photo with \
            --original, as its original file, byte for byte, metadata included. A capture date, time zone or \
            location changed in the library is written into the exported JPEG's EXIF (DateTimeOriginal, \
            OffsetTimeOriginal, GPS), the other tags kept; --original leaves the file as it came. A Live Photo's movie goes with \
            its still (edited or not), and a video exports as its original file. Names that are taken get the \
            item's short identifier appended, the same for every file of one item. --album exports a whole \
            album, --all the whole library. Files are copied a megabyte at a time and written atomically. Beside \
            each photo goes its XMP sidecar, NAME.ext.xmp, with the capture date and zone, the location and the \
            edit recipe (in Sepia's namespace), in the fields digiKam and Lightroom read; --no-sidecars leaves \
            them out.
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

    @Flag(name: .long, help: "Do not write an XMP sidecar (NAME.ext.xmp) beside each photo.")
    var noSidecars = false

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
            var files = 0
            var sidecars = 0
            for asset in targets {
                // The photo or video as it shows (its edit's JPEG, unless --original), then the asset's other
                // originals: a Live Photo's movie goes with its still, whether or not the still was edited.
                let edited = !original && asset.hasAdjustments
                var parts: [(source: String, name: String)] = []
                let main = try await original ? photos.originalPath(of: asset) : photos.currentPath(of: asset)
                parts.append((main, edited ? (asset.originalFilename as NSString).deletingPathExtension + ".jpg" : asset.originalFilename))
                for resource in try photos.resources(for: asset) where resource.type.isOriginal && resource.contentHash != asset.contentHash {
                    parts.append((try await photos.path(of: resource), resource.originalFilename))
                }
                // Every part of one asset gets the same suffix when a name is taken, so a pair stays a pair.
                let taken = parts.contains {
                    used.contains(Self.path(outDir, $0.name)) || FileManager.default.fileExists(atPath: Self.path(outDir, $0.name))
                }
                // The current version carries the edited capture date and place in its EXIF; --original
                // exports the file as it came.
                let exif = original ? EXIFCaptureEdits() : asset.exportEXIFEdits(rendered: edited)
                if !exif.isEmpty && !edited && asset.originalFormat != .jpeg {
                    Terminal.printError(
                        "\(asset.originalFilename): its edited date or place is not written into a \(asset.originalFormat.rawValue.uppercased()) file; the file is exported as it came"
                    )
                }
                for (index, part) in parts.enumerated() {
                    let path = Self.path(outDir, part.name, suffix: taken ? "-" + asset.id.prefix(8) : "")
                    used.insert(path)
                    do {
                        if index == 0, !exif.isEmpty, edited || asset.originalFormat == .jpeg {
                            let bytes = try Data(contentsOf: URL(fileURLWithPath: part.source))
                            try AtomicFile.write(try EXIFWriter.applying(exif, toJPEG: Array(bytes)), to: path)
                        } else {
                            try AtomicFile.copy(from: part.source, to: path)
                        }
                        if index == 0 && !noSidecars && asset.mediaType == .image {
                            // A sidecar already there (another tool's) is updated, keeping what it says beyond Sepia's fields.
                            sidecars += 1
                            _ = try XMPSidecar.write(try photos.sidecarMetadata(for: asset, rendered: edited), forPhotoAt: path)
                        }
                    } catch {
                        Terminal.error("\(error)")
                        throw ReportedFailure(code: ExitStatus.cannotCreate)
                    }
                    files += 1
                }
                bar.advance(parts[0].name)
            }
            bar.finish()
            let extra = files - targets.count
            Terminal.print(
                "exported \(targets.count) item\(targets.count == 1 ? "" : "s") to \(outDir)"
                    + (extra > 0 ? " (\(files) files: Live Photos' movies go with their stills)" : "")
                    + (sidecars > 0 ? ", with \(sidecars) XMP sidecar\(sidecars == 1 ? "" : "s")" : ""))
        }
    }

    /// `name` in `folder`, with `suffix` before its extension.
    static func path(_ folder: String, _ name: String, suffix: String = "") -> String {
        // The name is the one the photo came with: made safe to write (no path, no control or direction character).
        let (stem, ext) = FileName.split(FileName.safe(name, fallback: "photo"))
        return (folder as NSString).appendingPathComponent(stem + suffix + ext)
    }
}
