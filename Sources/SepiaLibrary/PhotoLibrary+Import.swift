public import Foundation
public import SepiaCodecs
public import SepiaImage
import SepiaRAW

extension PhotoLibrary {
    /// Prepares the image file at `path` to join the library: reads it (within the limits), checks it
    /// decodes, hashes it, refuses it if the library already has it, renders its thumbnail and preview, and
    /// stores the original durably. Commit it with ``ChangeRequests/createAsset(from:)-(PreparedAsset)``.
    ///
    /// - Throws: ``LibraryError/Code/duplicate`` (with the existing asset in ``LibraryError/relatedID``, which
    ///   may be in Recently Deleted: recover it rather than import it again — ``AssetImporter`` does),
    ///   ``LibraryError/Code/unreadableImage`` for files that are not decodable images, or file-system errors.
    ///
    /// - Parameters:
    ///   - path: The image file.
    ///   - filename: The name to keep as ``Asset/originalFilename``; by default the file's own name. An upload
    ///     written to a temporary file passes the name it was uploaded with.
    ///   - fileDate: The date used when the photo has no capture date; by default the file's modification
    ///     time.
    ///   - context: The context that renders the renditions; by default the library's ``renderContext``. An
    ///     importer preparing several files at once gives each its own (``AssetImporter`` does).
    ///   - deferringPreview: Renders only the thumbnail (straight from the decoder, which shrinks as it reads,
    ///     so the whole file is still checked) and leaves the preview to ``prepareStandardRenditions(ofAsset:)``
    ///     later: what a server does with uploads, whose previews its job queue makes.
    public func prepareAsset(
        fileAt path: String, filename: String? = nil, fileDate: Date? = nil, renderingWith context: RenderContext? = nil,
        deferringPreview: Bool = false
    ) async throws(LibraryError)
        -> PreparedAsset
    {
        // The file is sniffed once, here: its opener reads it without sniffing again. A file that cannot be
        // sniffed is read below, whose error says why.
        try await prepareAsset(
            sniffed: try? MediaFile.sniff(path: path), fileAt: path, filename: filename, fileDate: fileDate, renderingWith: context,
            deferringPreview: deferringPreview)
    }

    /// Prepares the file at `path`, whose first bytes were sniffed already (`sniffed`; nil when they could not
    /// be), as ``prepareAsset(fileAt:filename:fileDate:renderingWith:deferringPreview:)`` does, without sniffing
    /// it again: what an importer that sniffed the file to choose it, or an upload judged by its first bytes as
    /// they arrived (``MediaFile/identify(path:head:sniffed:byteCount:)``), hands over.
    public func prepareAsset(
        sniffed: MediaFile?, fileAt path: String, filename: String? = nil, fileDate: Date? = nil, renderingWith context: RenderContext? = nil,
        deferringPreview: Bool = false
    ) async throws(LibraryError) -> PreparedAsset {
        // A video is read where it is, never whole into memory.
        if let sniffed, let opener = mediaOpeners.openers(claiming: sniffed).first, opener.readsInPlace {
            return try await prepareVideo(
                sniffed, opener: opener, filename: filename, fileDate: fileDate, renderingWith: context, deferringPreview: deferringPreview)
        }
        let bytes: EncodedBytes
        do {
            bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: configuration.decodeOptions.maximumFileBytes)
        } catch {
            if error.code == .fileSystem { throw LibraryError(.fileSystem, error.reason, subject: path) }
            throw LibraryError.unreadable(error, file: path)
        }
        var info = stat()
        let modified = stat(path, &info) == 0 ? Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)) : Date()
        return try await prepare(
            bytes, filename: Self.safeFilename(filename ?? (path as NSString).lastPathComponent), fileDate: fileDate ?? modified,
            origin: .file(path), displayName: filename ?? path, context: context, deferringPreview: deferringPreview,
            sniffed: sniffed.map { file -> ImageFormat? in file.format })
    }

    /// A new path in the library's folder for files being written (`tmp/`, on the same file system as the
    /// library, emptied when the library opens alone): where an upload is streamed before it is imported.
    public func temporaryFilePath(suffix: String = "") -> String {
        folder.temporaryFile(suffix: suffix)
    }

    /// Prepares an image from its encoded bytes (an upload); see ``prepareAsset(fileAt:)``.
    public func prepareAsset(data: Data, filename: String, fileDate: Date? = nil) async throws(LibraryError) -> PreparedAsset {
        let bytes = EncodedBytes(data: data)
        return try await prepare(
            bytes, filename: Self.safeFilename(filename), fileDate: fileDate ?? Date(), origin: .bytes(bytes), displayName: filename)
    }

    func prepare(
        _ bytes: EncodedBytes, filename: String, fileDate: Date, origin: PreparedAsset.Origin, displayName: String,
        id: String = ChangeRequests.newIdentifier(), context: RenderContext? = nil, deferringPreview: Bool = false,
        sniffed: ImageFormat?? = nil
    ) async throws(LibraryError) -> PreparedAsset {
        let renditions = context.map { RenditionRenderer(context: $0, quality: renderer.quality) } ?? renderer
        let file: any EncodedImage
        do {
            // What the file's first bytes said, when they were sniffed already: a TIFF's IFDs and a file no
            // signature names are judged on the whole file, without sniffing it again.
            let format =
                sniffed.map { ImageFormat.identify(bytes, sniffed: $0, fileName: filename) } ?? ImageFormat.identify(bytes, fileName: filename)
            let openers = mediaOpeners
            if let format, let opener = openers.opener(for: format), !opener.readsInPlace {
                file = try openers.open(bytes, format: format, fileName: filename).still
            } else {
                // What no opener reads here: the decoders say why.
                file = try PhotoDecoding.open(bytes, options: configuration.decodeOptions, fileName: filename)
            }
        } catch {
            throw LibraryError.unreadable(error, file: displayName)
        }
        let hash = ContentHash.of(bytes)
        let sweep = try store.latestSweep()
        if let existing = try store.asset(contentHash: hash) { throw LibraryError.duplicate(of: existing, file: displayName) }
        // Rendering decodes the whole image: damaged data fails here, before anything is stored.
        do {
            if deferringPreview {
                try await renditions.storeThumbnail(of: file.image, assetID: id, version: "original", in: imageStore)
            } else {
                try await renditions.storeStandardRenditions(of: file.image, assetID: id, version: "original", in: imageStore)
            }
        } catch {
            imageStore.removeImages(forAsset: id)
            if let codec = error as? CodecError { throw LibraryError.unreadable(codec, file: displayName) }
            if let library = error as? LibraryError { throw library }
            throw LibraryError(.unreadableImage, "cannot render the image: \(error)", subject: displayName)
        }
        let stored = StoredFile(kind: .original, hash: hash, format: file.format)
        do {
            try await blobs.store(bytes, as: stored)
        } catch {
            imageStore.removeImages(forAsset: id)
            throw error
        }
        let now = Date()
        let metadata = file.metadata
        let size = file.displaySize
        var asset = Asset(
            id: id, mediaType: .image, pixelWidth: size.width, pixelHeight: size.height, creationDate: fileDate,
            creationDateOffset: TimeZone.current.secondsFromGMT(for: fileDate), creationDateSource: .file,
            modificationDate: now, addedDate: now, location: metadata.location, isFavorite: false, isHidden: false,
            originalFilename: filename, contentHash: hash, originalFormat: file.format, originalByteCount: bytes.count,
            originalOrientation: metadata.exifOrientation ?? 1, originalWidth: size.width, originalHeight: size.height,
            cameraMake: metadata.cameraMake, cameraModel: metadata.cameraModel, currentAdjustmentID: nil, revision: 1,
            contentIdentifier: metadata.contentIdentifier, rowID: 0)
        if let capture = metadata.captureDate {
            asset.creationDate = capture.date
            asset.creationDateOffset = capture.utcOffsetSeconds
            asset.creationDateSource =
                switch capture.origin {
                case .exifOriginal, .xmp, .iptc, .quickTime, .containerCreation: .capture
                case .exifDigitized: .digitized
                case .gps: .gps
                case .exifModified: .modified
                }
        }
        let resource = AssetResource(
            assetLocalIdentifier: id, type: .photo, originalFilename: filename, contentHash: hash, format: file.format, byteCount: bytes.count,
            pixelWidth: size.width, pixelHeight: size.height)
        return PreparedAsset(asset: asset, resource: resource, embeddedXMP: metadata.embeddedXMP, origin: origin, sweep: sweep)
    }

    /// Writes a prepared original again (a concurrent clean-up removed it before the commit).
    func restoreOriginal(of prepared: PreparedAsset) async throws(LibraryError) {
        if readsInPlace(prepared.file.format), case .file(let path) = prepared.origin {
            return try await storeCopy(of: path, as: prepared.file)
        }
        let bytes: EncodedBytes
        switch prepared.origin {
        case .bytes(let kept):
            bytes = kept
        case .file(let path):
            do {
                bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: configuration.decodeOptions.maximumFileBytes)
            } catch {
                throw LibraryError(.fileSystem, error.reason, subject: path)
            }
            guard ContentHash.of(bytes) == prepared.file.hash else {
                throw LibraryError(.fileSystem, "the file changed while it was imported; import it again", subject: path)
            }
        }
        try await blobs.store(bytes, as: prepared.file)
    }

    /// A file name safe to keep and show: ``FileName/displayable(_:fallback:)``.
    static func safeFilename(_ name: String) -> String {
        FileName.displayable(name, fallback: "photo")
    }

    /// Makes sure the standard renditions of an asset's current version (the preview and the thumbnail) are
    /// stored, rendering those that no tier has: the work a server's job queue does after an upload. Returns
    /// whether anything was rendered; an asset that is gone needs nothing.
    @discardableResult
    public func prepareStandardRenditions(ofAsset assetID: String) async throws -> Bool {
        guard let asset = try store.assets(ids: [assetID]).first else { return false }
        let version = asset.contentVersion
        let keys = [RenditionRenderer.preview, RenditionRenderer.thumbnail].map {
            RenditionKey(assetID: assetID, version: version, size: $0, mode: .aspectFit)
        }
        var missing = false
        for key in keys where await imageStore.anyRendition(for: key) == nil { missing = true }
        guard missing else { return false }
        let image = try await ImageManager(library: self).fullImage(asset, version: version)
        // What another process stored first stays: a rendition is never rewritten.
        try await renderer.storeStandardRenditions(of: image, assetID: assetID, version: version, in: imageStore, missingOnly: true)
        return true
    }
}
