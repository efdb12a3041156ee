import Foundation
import Hummingbird
import NIOCore
import SepiaCodecs
import SepiaImage
import SepiaLibrary

#if canImport(Glibc)
import Glibc
#endif

/// A photo's pixels and files: renditions of its current version, its original, its current version at full
/// size, and each of its stored files (a Live Photo's movie among them): `/api/v1/assets/{id}/image`,
/// `/original`, `/current`, `/resources`, `/resources/{type}`.
struct RenditionController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(":id/image", use: image)
            .get(":id/original", use: original)
            .get(":id/current", use: current)
            .get(":id/resources", use: resources)
            .get(":id/resources/:type", use: resource)
            .get(":id/video", use: video)
        return routes
    }

    /// One stored file of an asset, as `GET /assets/{id}/resources` lists it.
    struct ResourceResponse: Encodable {
        var type: String
        var originalFilename: String
        var format: String
        var mimeType: String
        var byteCount: Int
        var width: Int
        var height: Int
        var duration: Double
        var url: String
    }

    struct ResourcesResponse: ResponseEncodable {
        var resources: [ResourceResponse]
    }

    /// The API's names of resource types: PhotoKit's.
    static func typeName(_ type: AssetResourceType) -> String {
        switch type {
        case .photo: "photo"
        case .video: "video"
        case .audio: "audio"
        case .alternatePhoto: "alternatePhoto"
        case .fullSizePhoto: "fullSizePhoto"
        case .fullSizeVideo: "fullSizeVideo"
        case .adjustmentData: "adjustmentData"
        case .pairedVideo: "pairedVideo"
        case .fullSizePairedVideo: "fullSizePairedVideo"
        }
    }

    /// `GET /assets/{id}/resources`: the files the asset is made of (PhotoKit's `PHAssetResource`).
    @Sendable func resources(_ request: Request, context: AppRequestContext) async throws -> ResourcesResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let resources = try identity.photoLibrary.resources(for: asset)
        return ResourcesResponse(
            resources: resources.map { r in
                ResourceResponse(
                    type: Self.typeName(r.type), originalFilename: r.originalFilename, format: r.format.rawValue, mimeType: r.format.mimeType,
                    byteCount: r.byteCount, width: r.pixelWidth, height: r.pixelHeight, duration: r.duration,
                    url: "/api/v1/assets/\(asset.id)/resources/\(Self.typeName(r.type))")
            })
    }

    /// `GET /assets/{id}/resources/{type}`: one of its files, byte for byte, with ranges (a Live Photo's movie
    /// is `pairedVideo`).
    @Sendable func resource(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let name = try context.parameters.require("type")
        guard let resource = try identity.photoLibrary.resources(for: asset).first(where: { Self.typeName($0.type) == name }) else {
            throw APIError.notFound("this photo has no '\(name.prefix(40))' file; GET /api/v1/assets/\(asset.id)/resources lists its files")
        }
        return try await Self.file(
            at: try await identity.photoLibrary.path(of: resource), name: resource.originalFilename, format: resource.format,
            etag: resource.contentHash, immutable: true, request: request, context: context)
    }

    /// `GET /assets/{id}/video`: what a browser plays for the asset's motion (a video, a Live Photo's movie), with
    /// ranges: its playable version, or the original when that plays as it is. When the playable version is still
    /// being made, `202` with `Retry-After` (and the job is queued, in case it was not: a library imported by
    /// `sepia import`); `422` with the reason when it cannot be made; `404` for a photo without motion.
    @Sendable func video(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        return try await Self.motion(of: asset, in: identity.library, owner: identity.user, request: request, context: context, services: services)
    }

    /// What a browser plays for `asset`'s motion, in `owner`'s library: the playable version or the original with
    /// ranges, else `202` while the version is made (its job queued), else `404` for a photo without motion.
    static func motion(
        of asset: Asset, in library: UserLibrary, owner: UserRecord, request: Request, context: AppRequestContext, services: ServerServices
    ) async throws -> Response {
        let photoLibrary = library.library
        if let playable = try await photoLibrary.playableResource(of: asset) {
            return try await Self.file(
                at: try await photoLibrary.path(of: playable), name: playable.originalFilename, format: playable.format,
                etag: playable.contentHash, immutable: true, request: request, context: context)
        }
        guard try photoLibrary.resources(for: asset).contains(where: \.isMotion) else {
            throw APIError.notFound("this photo has no motion to play")
        }
        let key = owner.libraryPath.isEmpty ? "" : owner.id
        // A version that cannot be made (the video is refused, or its encode went over its budget) is never tried again.
        if let failure = try services.jobs.failure(of: .playableVideo, library: key, subject: asset.id) {
            throw APIError(.unprocessableContent, "unprocessable", "The playable version of this video cannot be made.", detail: failure)
        }
        try services.jobs.enqueue(.playableVideo, library: key, subject: asset.id)
        services.jobWakeUps.signal()
        return Response(
            status: .accepted, headers: [.retryAfter: "5", .contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"status":"preparing","message":"The playable version of this video is being made."}"#)))
    }

    /// `GET /assets/{id}/image`.
    @Sendable func image(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        return try await Self.rendition(
            of: asset, in: identity.library, request: request, services: services, account: identity.user.id, context: context)
    }

    /// A rendition answer: snapped size, strong ETag, 304 on a match, and a year of caching when the URL names
    /// the version it shows. One that is not cached is rendered as `account`'s render (``RenderAdmission``).
    static func rendition(
        of asset: Asset, in library: UserLibrary, request: Request, services: ServerServices, account: String, context: AppRequestContext
    ) async throws -> Response {
        let query = Query(request: request)
        let wanted = try RenditionRequest(
            size: try query.string("size", maximumLength: 20), mode: try query.string("mode"), format: try query.string("format")
        ).bounded(by: IntSize(width: asset.pixelWidth, height: asset.pixelHeight))
        let start = ContinuousClock.now
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact, format: wanted.format)
        let images = library.images
        let result: ImageResult
        if let cached = await images.cachedImage(for: asset, targetSize: wanted.size, contentMode: wanted.mode, options: options) {
            result = cached
        } else {
            result = try await services.renders.render(for: account, context: context) {
                try await images.image(for: asset, targetSize: wanted.size, contentMode: wanted.mode, options: options)
            }
        }
        if result.origin == .rendered { services.metrics.recordRender("rendition", duration: ContinuousClock.now - start) }
        let rendition = result.rendition
        services.metrics.recordRendition(origin: result.origin.rawValue, bytes: rendition.data.count)
        var headers: HTTPFields = [
            .eTag: "\"" + rendition.contentTag + "\"",
            .cacheControl: try query.string("v", maximumLength: 64) == asset.contentVersion
                ? "private, max-age=31536000, immutable" : "private, no-cache",
            .vary: "Cookie, Authorization",
        ]
        if Self.matches(request, etag: rendition.contentTag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = rendition.format == .webp ? "image/webp" : "image/jpeg"
        headers[.contentLength] = String(rendition.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: rendition.data)))
    }

    /// `GET /assets/{id}/original`: the original file, byte for byte, as a download; ranges supported.
    @Sendable func original(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        return try await Self.file(
            at: try await identity.photoLibrary.originalPath(of: asset), name: asset.originalFilename, format: asset.originalFormat,
            etag: asset.contentHash, immutable: true, request: request, context: context)
    }

    /// `GET /assets/{id}/current`: the edit's JPEG, or the original.
    @Sendable func current(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        guard asset.hasAdjustments else { return try await original(request, context: context) }
        let path = try await identity.photoLibrary.currentPath(of: asset)
        let stem = (asset.originalFilename as NSString).deletingPathExtension
        let hash = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try await Self.file(
            at: path, name: (stem.isEmpty ? "photo" : stem) + ".jpg", format: .jpeg, etag: hash, immutable: false, request: request,
            context: context)
    }

    /// A stored file as a download, with a strong ETag and single byte ranges.
    static func file(
        at path: String, name: String, format: ImageFormat, etag: String, immutable: Bool, request: Request, context: AppRequestContext
    ) async throws -> Response {
        var info = stat()
        guard stat(path, &info) == 0 else { throw APIError.internalError("the photo's file is missing from the library; run `sepia check`") }
        let size = Int(info.st_size)
        var headers: HTTPFields = [
            .eTag: "\"" + etag + "\"",
            .cacheControl: immutable ? "private, max-age=31536000, immutable" : "private, no-cache",
            .acceptRanges: "bytes",
            .contentDisposition: ContentDisposition.attachment(filename: name),
        ]
        if matches(request, etag: etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = format.mimeType
        var range = 0...(max(0, size - 1))
        var status = HTTPResponse.Status.ok
        // Ranges in another unit than bytes are ignored (RFC 9110 §14.2), and so is a range whose If-Range no
        // longer matches.
        if let header = request.headers[.range], header.hasPrefix("bytes="), size > 0,
            request.headers[.ifRange].map({ $0 == "\"" + etag + "\"" }) ?? true
        {
            guard let requested = ByteRange.parse(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                throw APIError(
                    .rangeNotSatisfiable, "range_not_satisfiable", "the range '\(header)' is outside the file's \(size) bytes", headers: headers)
            }
            range = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        }
        headers[.contentLength] = String(size == 0 ? 0 : range.count)
        if size == 0 { return Response(status: status, headers: headers) }
        let body = try await FileIO().loadFile(path: path, range: range, context: context)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether `If-None-Match` names `etag`.
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return header == "*" || header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "\"" + etag + "\"" }
    }
}
