import Foundation
import SepiaCodecs
import SepiaImage

#if canImport(Glibc)
import Glibc
#endif

extension PhotoLibrary {
    /// Prepares the video `file` (sniffed once by ``prepareAsset(fileAt:filename:fileDate:renderingWith:deferringPreview:)``)
    /// to join the library, as a photo is prepared: its `opener` probes it within ``LibraryConfiguration/videoOptions``
    /// (a hostile file is refused here, before anything is stored) and judges whether browsers need a playable
    /// version of it, which the resource keeps; it is hashed while read from disk a megabyte at a time, refused if
    /// the library has it, its poster frame's thumbnail (and preview) rendered, and the file stored — linked or
    /// copied into the library, never read into memory, so a clip of gigabytes costs megabytes.
    ///
    /// A Live Photo's movie (one with an Apple content identifier) joins its still when the commit finds it in
    /// the library; otherwise it is a video of its own, until its still arrives.
    func prepareVideo(
        _ file: MediaFile, opener: any MediaOpener, filename: String?, fileDate: Date?, renderingWith context: RenderContext?,
        deferringPreview: Bool
    ) async throws(LibraryError) -> PreparedAsset {
        let path = file.path
        let displayName = filename ?? path
        let name = Self.safeFilename(filename ?? (path as NSString).lastPathComponent)
        let video: OpenedMedia
        do {
            video = try opener.open(file)
        } catch {
            if error.code == .fileSystem { throw LibraryError(.fileSystem, error.reason, subject: path) }
            throw LibraryError.unreadable(error, file: displayName)
        }
        let hash = try ContentHash.ofFile(path)
        let sweep = try store.latestSweep()
        if let existing = try store.asset(contentHash: hash) { throw LibraryError.duplicate(of: existing, file: displayName) }
        let id = ChangeRequests.newIdentifier()
        let renditions = context.map { RenditionRenderer(context: $0, quality: renderer.quality) } ?? renderer
        // The poster frame decodes here: a video whose frames cannot be decoded fails before anything is stored.
        do {
            if deferringPreview {
                try await renditions.storeThumbnail(of: video.still.image, assetID: id, version: "original", in: imageStore)
            } else {
                try await renditions.storeStandardRenditions(of: video.still.image, assetID: id, version: "original", in: imageStore)
            }
        } catch {
            imageStore.removeImages(forAsset: id)
            if let codec = error as? CodecError { throw LibraryError.unreadable(codec, file: displayName) }
            if let library = error as? LibraryError { throw library }
            throw LibraryError(.unreadableImage, "cannot render the video's poster frame: \(error)", subject: displayName)
        }
        let stored = StoredFile(kind: .original, hash: hash, format: video.format)
        do {
            try await storeCopy(of: path, as: stored)
        } catch {
            imageStore.removeImages(forAsset: id)
            throw error
        }

        var fileInfo = stat()
        let modified = stat(path, &fileInfo) == 0 ? Date(timeIntervalSince1970: Double(fileInfo.st_mtim.tv_sec)) : Date()
        let date = fileDate ?? modified
        let now = Date()
        let size = video.displaySize
        let metadata = video.metadata
        var subtypes: MediaSubtypes = []
        if let rate = video.frameRate, rate > 60 { subtypes.insert(.videoHighFrameRate) }
        var asset = Asset(
            id: id, mediaType: .video, pixelWidth: size.width, pixelHeight: size.height, creationDate: date,
            creationDateOffset: TimeZone.current.secondsFromGMT(for: date), creationDateSource: .file, modificationDate: now, addedDate: now,
            location: metadata.location, isFavorite: false, isHidden: false, originalFilename: name, contentHash: hash,
            originalFormat: video.format, originalByteCount: video.byteCount, originalOrientation: 1, originalWidth: size.width,
            originalHeight: size.height, cameraMake: metadata.cameraMake, cameraModel: metadata.cameraModel,
            currentAdjustmentID: nil, revision: 1, mediaSubtypes: subtypes, duration: video.duration,
            contentIdentifier: metadata.contentIdentifier, rowID: 0)
        if let capture = metadata.captureDate {
            asset.creationDate = capture.date
            asset.creationDateOffset = capture.utcOffsetSeconds
            asset.creationDateSource = .capture
        }
        let needsPlayableVersion = video.playback == .needsPlayableVersion
        let resource = AssetResource(
            assetLocalIdentifier: id, type: .video, originalFilename: name, contentHash: hash, format: video.format,
            byteCount: video.byteCount, pixelWidth: size.width, pixelHeight: size.height, duration: asset.duration,
            needsPlayableVersion: needsPlayableVersion, decodedPixels: needsPlayableVersion ? video.decodedPixels : nil)
        return PreparedAsset(asset: asset, resource: resource, origin: .file(path), sweep: sweep)
    }

    /// Stores the file at `path` as `file` without reading it into memory: a hard link when it is one of the
    /// library's own temporary files (an upload already written there), else a copy a megabyte at a time; then moved into place (or uploaded to the bucket from it). The hash is checked
    /// again on the copy, so a file changed meanwhile is refused rather than stored under the wrong name.
    func storeCopy(of path: String, as file: StoredFile) async throws(LibraryError) {
        let temporary = folder.temporaryFile(suffix: ".video")
        // Only a file the library wrote itself is linked: a user's file linked in would let a later change to
        // it in place change the library's original.
        let ours = (path as NSString).standardizingPath.hasPrefix(folder.temporary + "/")
        if !ours || link(path, temporary) != 0 {
            do {
                try AtomicFile.copy(from: path, to: temporary)
            } catch {
                unlink(temporary)
                throw LibraryError(.fileSystem, "cannot copy the video into the library: \(error.reason)", subject: path)
            }
            guard (try? ContentHash.ofFile(temporary)) == file.hash else {
                unlink(temporary)
                throw LibraryError(.fileSystem, "the file changed while it was imported; import it again", subject: path)
            }
        }
        do {
            try await blobs.store(movingFileAt: temporary, as: file)
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
