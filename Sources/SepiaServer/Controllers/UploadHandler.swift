import Foundation
import Hummingbird
import Logging
import NIOCore
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import SepiaMedia

#if canImport(Glibc)
import Glibc
#endif

/// `POST /api/v1/assets`: an upload of a photo or a video. The body is streamed to a temporary file in the
/// library's `tmp/` folder — never held in memory. Its first bytes say what it is as they arrive: anything but a
/// photo or video format Sepia reads is refused before the rest is read, a photo is held to the photo limit and
/// a video to the video limit. Those first bytes are the file's one sniff: the import does not sniff it again
/// (a TIFF-structured file is read further, for the IFDs that say whether it is a RAW file). Then it is imported
/// exactly as `sepia import` imports a file: decoded (a video probed and its poster frame decoded) within the
/// limits, hashed (a duplicate answers with the item already there, when the credential may see it), its
/// thumbnail rendered, stored (a video is linked from the temporary file, not copied), committed. The preview is
/// left to the job queue, so that a stream of uploads is not held up by rendering. A refused upload leaves no
/// file and no row.
struct UploadHandler {
    let services: ServerServices

    struct UploadResponse: ResponseEncodable {
        var status: String
        /// The new or existing photo; absent for a duplicate the credential may not see.
        var id: String?
        var asset: AssetResponse?
    }

    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<UploadResponse> {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        let query = Query(request: request)
        let limits = UploadLimits(photo: services.configuration.maximumUploadBytes, video: services.configuration.maximumVideoUploadBytes)
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let length = declared, length > limits.largest {
            services.metrics.recordUpload(outcome: "refused", bytes: 0)
            throw APIError.payloadTooLarge(
                "the upload has \(length) bytes, more than the limits of \(limits.photo) bytes for a photo and \(limits.video) for a video")
        }
        let filename = try query.string("filename", maximumLength: 255) ?? "upload"
        let fileDate = try query.string("modified", maximumLength: 40).map { text -> Date in
            if let ms = Double(text), ms.isFinite, ms > 0, ms < 1e14 { return Date(timeIntervalSince1970: ms / 1000) }
            guard let date = JSONBody.parseDate(text) else {
                throw APIError.badRequest("'modified' must be an ISO 8601 date or Unix milliseconds, not '\(text)'")
            }
            return date
        }
        var albumID = try query.string("album", maximumLength: 64)
        if let id = albumID {
            _ = try identity.visibleAlbum(id)
        } else if let first = identity.albumLimit?.first {
            albumID = first
        }

        let path = library.temporaryFilePath(suffix: ".upload")
        defer { unlink(path) }
        let upload = try await receive(request.body, to: path, limits: limits, declaredLength: declared)
        let received = upload.byteCount
        let start = ContinuousClock.now
        // A file that cannot be read further is read by the import, whose error says why.
        let file = try? MediaFile.identify(path: path, head: upload.head, sniffed: upload.format, byteCount: upload.byteCount)
        var prepared: PreparedAsset
        switch await prepare(file, at: path, filename: filename, fileDate: fileDate, library: library) {
        case .success(let asset):
            prepared = asset
        case .failure(let error):
            if error.code == .duplicate, let existing = error.relatedID.flatMap({ try? library.asset($0) }) {
                return try await duplicate(existing, albumID: albumID, identity: identity, bytes: received, logger: context.logger)
            }
            services.metrics.recordUpload(outcome: "refused", bytes: received)
            throw error
        }
        services.metrics.recordRender("import", duration: ContinuousClock.now - start)
        // A Live Photo's or a RAW+JPEG pair's other part joins the asset already there only when this credential
        // may see that asset: joining would change it, and add it to the upload's album, where a limited
        // credential could read it.
        if let partner = try library.pairingPartner(of: prepared), !identity.allows(.read) || (try? identity.visibleAsset(partner.id)) == nil {
            prepared.mayJoinPartner = false
        }
        let assetID: String
        switch await commit(prepared, albumID: albumID, library: library) {
        case .success(let id):
            assetID = id
        case .failure(let error):
            // The same content was uploaded at the same moment: that upload won.
            guard error.code == .duplicate, let existing = try library.asset(contentHash: prepared.asset.contentHash) else { throw error }
            return try await duplicate(existing, albumID: albumID, identity: identity, bytes: received, logger: context.logger)
        }
        services.metrics.recordUpload(outcome: "created", bytes: received)
        deferPreview(of: assetID, identity: identity, logger: context.logger)
        let asset = try library.asset(assetID)
        let paired = assetID != prepared.localIdentifier
        // A photo that joined its Live Photo's movie gave the asset a new still: its faces are found in that.
        services.requestFaceIndexing(for: identity, changed: paired ? [assetID] : [], logger: context.logger)
        context.logger.info(
            paired ? "uploaded a Live Photo's other part" : "uploaded", metadata: ["sepia.asset.id": "\(asset.id)", "sepia.bytes": "\(received)"])
        return EditedResponse(
            status: .created,
            headers: [.location: "/api/v1/assets/" + asset.id],
            response: UploadResponse(
                status: paired ? "paired" : "created", id: asset.id, asset: identity.allows(.read) ? AssetResponse(asset, in: library) : nil))
    }

    /// Leaves the preview of a new asset to the job queue; it is rendered on demand if it is asked for first.
    /// A job that cannot be added costs the preview's first viewer a render, never the upload.
    private func deferPreview(of assetID: String, identity: Identity, logger: Logger) {
        do {
            let library = identity.user.libraryPath.isEmpty ? "" : identity.user.id
            try services.jobs.enqueue(.renditions, library: library, subject: assetID)
            // A video, or a Live Photo's movie, gets its playable version if it needs one (the job decides).
            if let asset = try? identity.photoLibrary.asset(assetID), asset.mediaKind.hasMotion {
                try services.jobs.enqueue(.playableVideo, library: library, subject: assetID)
            }
            services.jobWakeUps.signal()
        } catch {
            logger.warning("cannot queue the preview of an upload", metadata: ["sepia.asset.id": "\(assetID)", "error": "\(error)"])
        }
    }

    /// Prepares the upload stored at `path`, sniffed as it arrived (`file`; nil when it could not be read again).
    private func prepare(
        _ file: MediaFile?, at path: String, filename: String, fileDate: Date?, library: PhotoLibrary
    ) async -> Result<PreparedAsset, LibraryError> {
        await services.imports.withLane { context in
            do throws(LibraryError) {
                var prepared = try await library.prepareAsset(
                    sniffed: file, fileAt: path, filename: filename, fileDate: fileDate, renderingWith: context, deferringPreview: true)
                // The rating, title and keywords a camera or an editor wrote into the file, as an import takes them.
                _ = prepared.adoptEmbeddedXMP()
                return .success(prepared)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Commits the upload; the identifier of the asset it became: its own, or, for a Live Photo's still or
    /// movie whose other part is already in the library, that asset's.
    private func commit(_ prepared: PreparedAsset, albumID: String?, library: PhotoLibrary) async -> Result<String, LibraryError> {
        do {
            let outcome = try await library.performChanges { changes in
                changes.createAsset(from: prepared)
                if let albumID { changes.addAssets([prepared.localIdentifier], to: albumID) }
            }
            return .success(outcome.createdAssetIDs.first ?? prepared.localIdentifier)
        } catch {
            return .failure(error)
        }
    }

    /// The answer to an upload whose content the library already has.
    ///
    /// A photo in Recently Deleted comes back (into its albums): it is what the uploader is adding, and left there
    /// it would be purged while the upload said the library had it.
    ///
    /// A credential learns nothing of a photo outside its scope and gains no access to it: when the photo is one
    /// it may read (every credential but add-only ones and those limited to albums the photo is not in), it is
    /// added to the album the upload names and answered with its identifier, as a new upload would be, with the
    /// status `recovered` for one that was in Recently Deleted; when it is not, nothing else changes — the photo
    /// is not added to the credential's album, where it would become readable — and the answer is `duplicate`
    /// without an identifier. That answer says only that the library already holds these exact bytes, which the
    /// uploader necessarily has.
    private func duplicate(
        _ existing: Asset, albumID: String?, identity: Identity, bytes: Int, logger: Logger
    ) async throws -> EditedResponse<UploadResponse> {
        services.metrics.recordUpload(outcome: existing.isRecentlyDeleted ? "recovered" : "duplicate", bytes: bytes)
        let library = identity.photoLibrary
        if existing.isRecentlyDeleted {
            try await library.performChanges { $0.recoverAssets([existing.id]) }
            services.requestFaceIndexing(for: identity, logger: logger)
        }
        guard identity.allows(.read), (try? identity.visibleAsset(existing.id)) != nil else {
            return EditedResponse(status: .ok, response: UploadResponse(status: "duplicate", id: nil, asset: nil))
        }
        if let albumID { try await library.performChanges { $0.addAssets([existing.id], to: albumID) } }
        let current = try library.asset(existing.id)
        return EditedResponse(
            status: .ok,
            response: UploadResponse(
                status: existing.isRecentlyDeleted ? "recovered" : "duplicate", id: current.id, asset: AssetResponse(current, in: library)))
    }

    /// The largest photo and the largest video an upload may be.
    struct UploadLimits {
        var photo: Int
        var video: Int
        var largest: Int { max(photo, video) }
    }

    /// What an upload's body was: its size, its first bytes and the format they say.
    struct Received {
        /// The body's size.
        var byteCount: Int
        /// The first ``UploadHandler/headBytes`` (all of a shorter body).
        var head: [UInt8]
        /// What ``UploadHandler/judge(_:)`` sniffed in `head`.
        var format: ImageFormat
    }

    /// Streams `body` into a new file at `path`; returns its size, its first bytes and their format. Its first
    /// bytes, as soon as enough have arrived (or the body ends), decide what it may be: not a format Sepia reads is
    /// refused at once, a photo past `limits.photo` and a video past `limits.video` are refused as they cross it,
    /// or at once when the `declaredLength` (its `Content-Length`) is past it.
    private func receive(_ body: RequestBody, to path: String, limits: UploadLimits, declaredLength: Int?) async throws -> Received {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw APIError.internalError("cannot write the upload to the library's tmp folder: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var total = 0
        var head: [UInt8] = []
        var limit: Int?
        var format: ImageFormat?
        func judge() throws {
            switch Self.judge(head) {
            case .failure(let reason):
                services.metrics.recordUpload(outcome: "refused", bytes: total)
                throw APIError.unsupportedMediaType(reason.description)
            case .success(let (sniffed, kind)):
                format = sniffed
                let allowed = kind.isMovie ? limits.video : limits.photo
                limit = allowed
                // What the header declares is refused on the first bytes, not after the limit's worth has arrived.
                if let declaredLength, declaredLength > allowed {
                    services.metrics.recordUpload(outcome: "refused", bytes: total)
                    throw APIError.payloadTooLarge(
                        "the upload declares \(declaredLength) bytes (Content-Length), more than the limit of \(allowed) bytes for a \(kind.isMovie ? "video" : "photo")"
                    )
                }
            }
        }
        for try await chunk in body {
            total += chunk.readableBytes
            if limit == nil {
                head += chunk.readableBytesView.prefix(Self.headBytes - head.count)
                if head.count >= Self.headBytes { try judge() }
            }
            if total > limit ?? limits.largest {
                services.metrics.recordUpload(outcome: "refused", bytes: total)
                let kind = limit == limits.video ? "video" : "photo"
                throw APIError.payloadTooLarge("the upload is larger than the limit of \(limit ?? limits.largest) bytes for a \(kind)")
            }
            try chunk.withUnsafeReadableBytes { raw in
                var offset = 0
                while offset < raw.count {
                    guard let base = raw.baseAddress else { return }
                    let n = write(fd, base + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw APIError.internalError("cannot write the upload: \(String(cString: strerror(errno)))")
                    }
                    offset += n
                }
            }
        }
        guard total > 0 else { throw APIError.badRequest("the upload is empty: send the photo's or video's bytes as the request body") }
        if limit == nil { try judge() }
        guard let format else { preconditionFailure("an upload is judged before it is stored") }
        return Received(byteCount: total, head: head, format: format)
    }

    /// How many first bytes say what an upload is (a video container may need a few hundred).
    static let headBytes = 400

    /// The format of an upload that starts with `head` (its one sniff) and the kind of media it makes, or why it
    /// is refused: it must be of a format one of the library's openers reads (SepiaMedia's standard list),
    /// recognised by its content.
    static func judge(_ head: [UInt8]) -> Result<(format: ImageFormat, kind: MediaKind), Refusal> {
        guard let format = ImageFormat.sniff(head) else {
            return .failure(Refusal("the upload is not a photo or a video Sepia reads: it accepts \(accepted), recognised by their content"))
        }
        guard let kind = MediaOpeners.standard.kind(of: format) else {
            return .failure(Refusal("\(format) files are not accepted; Sepia accepts \(accepted)"))
        }
        return .success((format, kind))
    }

    /// Why an upload is refused, in words.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let accepted = "JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW photos and MOV, MP4, M4V, 3GP, MKV, WebM, AVI and MTS videos"
}
