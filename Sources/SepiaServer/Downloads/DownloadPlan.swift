import Foundation
import SepiaCodecs
import SepiaLibrary

/// What a ZIP download holds, settled before its first byte: the files of each item, in the order the items
/// were asked for, with their names in the archive, their sizes and dates, and so the archive's exact length.
///
/// - `original`: every original file of an item (PhotoKit's resources that are not renders): the photo or
///   video, and its companions — a Live Photo's movie, a RAW+JPEG pair's other file, a recording.
/// - `current`: the item as it shows — an edited photo's render (`NAME.jpg`), else its original file — and its
///   companions, as `sepia export` writes them.
///
/// Each item that the library knows more of than its file says (``hasLibraryMetadata(_:)``) is followed by its
/// XMP sidecar (`NAME.ext.xmp`, named after the item's first file, as `sepia export` writes it): its title,
/// caption, keywords, rating, date with its zone, location and edit recipe, for digiKam, Lightroom or darktable to
/// read, and for Sepia to import again (beside a render, the recipe is marked as applied). A download made with
/// `sidecars: false` (a share link that hides metadata) has none.
///
/// Sizes come from the library's database (an original's size is part of its content address); a render's from
/// its file, found on disk (with object storage, fetched into the server's local copy) while the plan is made.
struct DownloadPlan: Sendable {
    /// Which version of each item a download holds.
    enum Version: String, Sendable, CaseIterable {
        case original, current
    }

    /// One file of the archive and where to read it.
    struct File: Sendable {
        var entry: ZipStream.Entry
        var source: Source
    }

    /// Where a file's bytes are.
    enum Source: Sendable {
        /// A stored original: its path is asked of the library when the file is reached (with object storage,
        /// that downloads it into the local copy then, not before the answer starts).
        case resource(AssetResource)
        /// A file whose path is already known (an edit's render, whose size had to be read).
        case path(String)
        /// Bytes made for the download (an XMP sidecar, a few kilobytes).
        case bytes([UInt8])
    }

    /// The files, in the archive's order.
    let files: [File]
    /// How many items they come from.
    let itemCount: Int
    /// The ZIP64 thresholds the archive is laid out with.
    let limits: ZipStream.Limits
    /// The archive's exact length in bytes.
    let length: UInt64

    /// The plan for `assets` in `version`, read from `library`.
    /// - Throws: ``LibraryError`` when the library cannot be read, or an edit's render is missing.
    static func make(
        for assets: [Asset], version: Version, library: PhotoLibrary, sidecars: Bool = true, limits: ZipStream.Limits = .format
    ) async throws -> DownloadPlan {
        let stored = try library.storedResources(of: assets)
        var names = ZipNames()
        var files: [File] = []
        files.reserveCapacity(assets.count)
        for asset in assets {
            var parts = originals(of: asset, stored: stored[asset.id] ?? [])
            let rendered = version == .current && asset.hasAdjustments
            if rendered {
                let render = try await renderFile(of: asset, library: library)
                parts[0] = (render.name, render.size, .path(render.path))
            }
            let stem = "item-" + asset.id.prefix(8)
            let claimed = names.claim(parts.map(\.name), fallback: stem + "." + asset.originalFormat.fileExtension)
            let modified = ZipTimestamp(asset.creationDate, secondsFromGMT: asset.creationDateOffset)
            for (part, name) in zip(parts, claimed) {
                files.append(File(entry: ZipStream.Entry(name: name, size: part.size, modified: modified), source: part.source))
            }
            if sidecars, Self.hasLibraryMetadata(asset), let packet = try library.sidecarPacket(for: asset, rendered: rendered) {
                let name = names.claim([claimed[0] + ".xmp"], fallback: stem + ".xmp")[0]
                files.append(File(entry: ZipStream.Entry(name: name, size: UInt64(packet.count), modified: modified), source: .bytes(packet)))
            }
        }
        return DownloadPlan(files: files, itemCount: assets.count, limits: limits, length: ZipStream.length(of: files.map(\.entry), limits: limits))
    }

    /// Whether the library knows something of `asset` that its file does not say: a title, caption, keywords or
    /// rating, an edited date or place, or an edit. Only such items get a sidecar: one that repeated the file's own
    /// date would add a file per photo and say nothing.
    static func hasLibraryMetadata(_ asset: Asset) -> Bool {
        asset.userMetadata != UserMetadata() || asset.isCreationDateEdited || asset.isLocationEdited || asset.hasAdjustments
    }

    /// An asset's original files, the one its content hash names first (the photo or video), then the others in
    /// the order of their types.
    private static func originals(of asset: Asset, stored: [AssetResource]) -> [(name: String, size: UInt64, source: Source)] {
        var originals = stored.filter(\.type.isOriginal)
        if let main = originals.firstIndex(where: { $0.contentHash == asset.contentHash }), main != 0 {
            originals.insert(originals.remove(at: main), at: 0)
        }
        if originals.first?.contentHash != asset.contentHash {
            // A library whose rows predate resources: the asset's own columns name its original.
            let main = AssetResource(
                assetLocalIdentifier: asset.id, type: asset.mediaType == .video ? .video : .photo, originalFilename: asset.originalFilename,
                contentHash: asset.contentHash, format: asset.originalFormat, byteCount: asset.originalByteCount, pixelWidth: asset.originalWidth,
                pixelHeight: asset.originalHeight, duration: asset.duration)
            originals.insert(main, at: 0)
        }
        return originals.map { ($0.originalFilename, UInt64(max(0, $0.byteCount)), .resource($0)) }
    }

    /// An edited asset's render: its name (the original's stem, `.jpg`), where it is on this machine and its size.
    private static func renderFile(of asset: Asset, library: PhotoLibrary) async throws -> (name: String, path: String, size: UInt64) {
        let stem = (asset.originalFilename as NSString).deletingPathExtension
        let name = (stem.isEmpty ? "photo" : stem) + ".jpg"
        guard let adjustment = try library.currentAdjustment(of: asset), let hash = adjustment.renderedContentHash else {
            throw LibraryError(.notFound, "the current edit of '\(asset.originalFilename)' has no render; run `sepia check`", subject: asset.id)
        }
        let render = AssetResource(
            assetLocalIdentifier: asset.id, type: .fullSizePhoto, originalFilename: name, contentHash: hash, format: .jpeg, byteCount: 0,
            pixelWidth: adjustment.renderedWidth, pixelHeight: adjustment.renderedHeight)
        let path = try await library.path(of: render)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber else {
            throw LibraryError(.fileSystem, "the render of '\(asset.originalFilename)' is missing from the library; run `sepia check`", subject: path)
        }
        return (name, path, size.uint64Value)
    }
}
