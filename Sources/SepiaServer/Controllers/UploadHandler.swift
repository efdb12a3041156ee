import Foundation
import Hummingbird
import Logging
import NIOCore
import SepiaCodecs
import SepiaImage
import SepiaLibrary

#if canImport(Glibc)
import Glibc
#endif

/// `POST /api/v1/assets`: an upload. The body is streamed to a temporary file in the library's `tmp/` folder —
/// never held in memory — within the byte limit, checked to be a photo format by its content, then imported
/// exactly as `sepia import` imports a file: decoded within the pixel limit, hashed (a duplicate answers with
/// the photo already there, when the credential may see it), its thumbnail rendered, stored, committed. The preview is left to the job queue,
/// so that a stream of uploads is not held up by rendering. A refused upload leaves no file and no row.
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
        let limit = services.configuration.maximumUploadBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            services.metrics.recordUpload(outcome: "refused", bytes: 0)
            throw APIError.payloadTooLarge("the upload has \(length) bytes, more than the limit of \(limit)")
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
        let received = try await receive(request.body, to: path, limit: limit)
        if let reason = Self.refusal(path) {
            services.metrics.recordUpload(outcome: "refused", bytes: received)
            throw APIError.unsupportedMediaType(reason)
        }
        let start = ContinuousClock.now
        let prepared: PreparedAsset
        switch await prepare(path, filename: filename, fileDate: fileDate, library: library) {
        case .success(let asset):
            prepared = asset
        case .failure(let error):
            if error.code == .duplicate, let existing = error.relatedID.flatMap({ try? library.asset($0) }) {
                return try await duplicate(existing, albumID: albumID, identity: identity, bytes: received)
            }
            services.metrics.recordUpload(outcome: "refused", bytes: received)
            throw error
        }
        services.metrics.recordRender("import", duration: ContinuousClock.now - start)
        if let error = await commit(prepared, albumID: albumID, library: library) {
            // The same content was uploaded at the same moment: that upload won.
            guard error.code == .duplicate, let existing = try library.asset(contentHash: prepared.asset.contentHash) else { throw error }
            return try await duplicate(existing, albumID: albumID, identity: identity, bytes: received)
        }
        services.metrics.recordUpload(outcome: "created", bytes: received)
        deferPreview(of: prepared.localIdentifier, identity: identity, logger: context.logger)
        let asset = try library.asset(prepared.localIdentifier)
        context.logger.info("uploaded", metadata: ["sepia.asset.id": "\(asset.id)", "sepia.bytes": "\(received)"])
        return EditedResponse(
            status: .created,
            headers: [.location: "/api/v1/assets/" + asset.id],
            response: UploadResponse(status: "created", id: asset.id, asset: identity.allows(.read) ? AssetResponse(asset) : nil))
    }

    /// Leaves the preview of a new asset to the job queue; it is rendered on demand if it is asked for first.
    /// A job that cannot be added costs the preview's first viewer a render, never the upload.
    private func deferPreview(of assetID: String, identity: Identity, logger: Logger) {
        do {
            try services.jobs.enqueue(.renditions, library: identity.user.libraryPath.isEmpty ? "" : identity.user.id, subject: assetID)
            services.jobWakeUps.signal()
        } catch {
            logger.warning("cannot queue the preview of an upload", metadata: ["sepia.asset.id": "\(assetID)", "error": "\(error)"])
        }
    }

    private func prepare(_ path: String, filename: String, fileDate: Date?, library: PhotoLibrary) async -> Result<PreparedAsset, LibraryError> {
        await services.imports.withLane { context in
            do throws(LibraryError) {
                return .success(
                    try await library.prepareAsset(
                        fileAt: path, filename: filename, fileDate: fileDate, renderingWith: context, deferringPreview: true))
            } catch {
                return .failure(error)
            }
        }
    }

    private func commit(_ prepared: PreparedAsset, albumID: String?, library: PhotoLibrary) async -> LibraryError? {
        do {
            try await library.performChanges { changes in
                changes.createAsset(from: prepared)
                if let albumID { changes.addAssets([prepared.localIdentifier], to: albumID) }
            }
            return nil
        } catch {
            return error
        }
    }

    /// The answer to an upload whose content the library already has.
    ///
    /// A credential learns nothing of a photo outside its scope and gains no access to it: when the photo is one
    /// it may read (every credential but add-only ones and those limited to albums the photo is not in), it is
    /// added to the album the upload names and answered with its identifier, as a new upload would be; when it
    /// is not, nothing changes — the photo is not added to the credential's album, where it would become
    /// readable — and the answer is `duplicate` without an identifier. That answer says only that the library
    /// already holds these exact bytes, which the uploader necessarily has.
    private func duplicate(_ existing: Asset, albumID: String?, identity: Identity, bytes: Int) async throws -> EditedResponse<UploadResponse> {
        services.metrics.recordUpload(outcome: "duplicate", bytes: bytes)
        guard identity.allows(.read), (try? identity.visibleAsset(existing.id)) != nil else {
            return EditedResponse(status: .ok, response: UploadResponse(status: "duplicate", id: nil, asset: nil))
        }
        if let albumID { try await identity.photoLibrary.performChanges { $0.addAssets([existing.id], to: albumID) } }
        let current = try identity.photoLibrary.asset(existing.id)
        return EditedResponse(status: .ok, response: UploadResponse(status: "duplicate", id: current.id, asset: AssetResponse(current)))
    }

    /// Streams `body` into a new file at `path`, refusing it past `limit` bytes; returns the byte count.
    private func receive(_ body: RequestBody, to path: String, limit: Int) async throws -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw APIError.internalError("cannot write the upload to the library's tmp folder: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var total = 0
        for try await chunk in body {
            total += chunk.readableBytes
            if total > limit {
                services.metrics.recordUpload(outcome: "refused", bytes: total)
                throw APIError.payloadTooLarge("the upload is larger than the limit of \(limit) bytes")
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
        guard total > 0 else { throw APIError.badRequest("the upload is empty: send the photo's bytes as the request body") }
        return total
    }

    /// Why the file is not a photo Sepia imports, judged from its first bytes; nil when it may be one.
    static func refusal(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "the upload could not be read back" }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 64)) ?? Data())
        guard let format = ImageFormat.sniff(head) else {
            return "the upload is not a photo: Sepia accepts JPEG, PNG, WebP, HEIC and AVIF files, recognised by their content"
        }
        guard format.isDecodable else {
            return "\(format) files are not accepted; Sepia accepts JPEG, PNG, WebP, HEIC and AVIF"
        }
        return nil
    }
}
