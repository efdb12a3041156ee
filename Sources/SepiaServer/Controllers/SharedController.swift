import Foundation
import Hummingbird
import SepiaCodecs
import SepiaLibrary

/// What a share link shows to someone without an account: `/api/v1/shared/{token}` — one photo or one
/// album's photos and videos, as renditions (and a video's or Live Photo's motion, as a browser plays it), and
/// nothing else: never an original, unless the owner let the link's visitors download its files (as a ZIP).
struct SharedController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get(":token", use: show)
            .get(":token/assets/:id/image", use: image)
            .get(":token/assets/:id/video", use: video)
            .get(":token/download", use: download)
        return routes
    }

    struct SharedAsset: Encodable {
        var id: String
        /// `image` or `video`.
        var mediaType: String
        /// `photoLive` for a Live Photo (the API's names).
        var mediaSubtypes: [String]
        /// A video's length in seconds.
        var duration: Double?
        var width: Int
        var height: Int
        var version: String
        var creationDate: Date?
        var creationDateOffset: Int?
        var cameraMake: String?
        var cameraModel: String?
        var location: AssetResponse.Location?

        init(_ asset: Asset, metadata: Bool) {
            id = asset.id
            mediaType = asset.mediaKind.isMovie ? "video" : "image"
            mediaSubtypes = AssetResponse.subtypeNames(asset.mediaSubtypes)
            duration = asset.mediaKind.isMovie ? asset.duration : nil
            width = asset.pixelWidth
            height = asset.pixelHeight
            version = asset.contentVersion
            if metadata {
                creationDate = asset.creationDate
                creationDateOffset = asset.creationDateOffset
                cameraMake = asset.cameraMake
                cameraModel = asset.cameraModel
                location = asset.location.map { .init(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) }
            }
        }
    }

    struct SharedResponse: ResponseEncodable {
        var kind: String
        var title: String
        var createdAt: Date
        var expiresAt: Date?
        var includeMetadata: Bool
        var allowDownload: Bool
        var assets: [SharedAsset]
        var nextCursor: String?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(title, forKey: .title)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(expiresAt, forKey: .expiresAt)
            try c.encode(includeMetadata, forKey: .includeMetadata)
            try c.encode(allowDownload, forKey: .allowDownload)
            try c.encode(assets, forKey: .assets)
            try c.encode(nextCursor, forKey: .nextCursor)
        }

        enum CodingKeys: String, CodingKey { case kind, title, createdAt, expiresAt, includeMetadata, allowDownload, assets, nextCursor }
    }

    /// `GET /shared/{token}`: the shared photo, or a page of the shared album's photos.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> SharedResponse {
        let (share, library) = try open(try context.parameters.require("token"))
        if let id = share.assetID {
            let asset = try sharedAsset(id, share: share, library: library.library)
            return SharedResponse(
                kind: "asset", title: "Shared photo", createdAt: share.createdAt, expiresAt: share.expiresAt,
                includeMetadata: share.includeMetadata, allowDownload: share.allowDownload,
                assets: [SharedAsset(asset, metadata: share.includeMetadata)])
        }
        let album = try sharedAlbum(share, library: library.library)
        let query = Query(request: request)
        let cursor = try query.string("cursor", maximumLength: 4096).map { try AssetCursor(token: $0) }
        let page = try library.library.fetchAssetPage(album, after: cursor, limit: try query.int("limit", in: 1...500) ?? 200)
        return SharedResponse(
            kind: "album", title: album.title, createdAt: share.createdAt, expiresAt: share.expiresAt, includeMetadata: share.includeMetadata,
            allowDownload: share.allowDownload, assets: page.assets.map { SharedAsset($0, metadata: share.includeMetadata) },
            nextCursor: page.nextCursor?.token)
    }

    /// `GET /shared/{token}/download?version=current|original`: what the link shows as one ZIP file — its
    /// current versions unless `version=original` — when the owner let the link's visitors download; `403`
    /// otherwise. The link's downloads count against a limit of their own, the link's, not its owner's.
    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (share, library) = try open(try context.parameters.require("token"))
        guard share.allowDownload else {
            throw APIError.forbidden("this share link does not allow downloads; ask its owner for a link that does")
        }
        let version = try DownloadController.version(Query(request: request), default: .current)
        let assets: [Asset]
        let name: String
        if let id = share.assetID {
            assets = [try sharedAsset(id, share: share, library: library.library)]
            name = "Shared photo"
        } else {
            let album = try sharedAlbum(share, library: library.library)
            let members = try library.library.fetchAssets(in: album)
            try ZipDownload.checkCount(members.count, services: services)
            assets = try members.allObjects()
            name = album.title
        }
        return try await ZipDownload.answer(
            assets, version: version, library: library.library, name: name, slotKey: "share:" + share.id, services: services, context: context,
            sidecars: share.includeMetadata)
    }

    /// `GET /shared/{token}/assets/{id}/image`: a rendition of a photo the link shows.
    @Sendable func image(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (share, library) = try open(try context.parameters.require("token"))
        let asset = try sharedAsset(try context.parameters.require("id"), share: share, library: library.library)
        return try await RenditionController.rendition(
            of: asset, in: library, request: request, services: services, account: "share:" + share.id, context: context)
    }

    /// `GET /shared/{token}/assets/{id}/video`: the motion of a video or Live Photo the link shows, as the
    /// signed-in route answers it (playable version or original with ranges, `202` while it is made).
    @Sendable func video(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (share, library, owner) = try openWithOwner(try context.parameters.require("token"))
        let asset = try sharedAsset(try context.parameters.require("id"), share: share, library: library.library)
        return try await RenditionController.motion(of: asset, in: library, owner: owner, request: request, context: context, services: services)
    }

    private func open(_ token: String) throws -> (ShareLinkRecord, UserLibrary) {
        let (share, library, _) = try openWithOwner(token)
        return (share, library)
    }

    private func openWithOwner(_ token: String) throws -> (ShareLinkRecord, UserLibrary, UserRecord) {
        guard let share = try services.accounts.share(token: token), let owner = try services.accounts.user(id: share.userID) else {
            throw APIError.notFound("this share link does not exist or was revoked")
        }
        guard !share.isExpired() else { throw APIError.gone("this share link has expired") }
        return (share, try services.libraries.library(for: owner), owner)
    }

    private func sharedAsset(_ id: String, share: ShareLinkRecord, library: PhotoLibrary) throws -> Asset {
        let missing = APIError.notFound("this share link does not show that photo")
        guard Identifier.isValid(id) else { throw missing }
        if let shared = share.assetID {
            // A photo in Recently Deleted is not shown: the link works again if it is recovered.
            guard shared == id, let asset = try? library.asset(id), !asset.isRecentlyDeleted else { throw missing }
            return asset
        }
        let album = try sharedAlbum(share, library: library)
        let options = FetchOptions(predicate: .identifier(id) && .inAlbums([album.id]))
        guard let asset = try library.fetchAssetPage(options: options, limit: 1).assets.first else { throw missing }
        return asset
    }

    private func sharedAlbum(_ share: ShareLinkRecord, library: PhotoLibrary) throws -> Album {
        guard let id = share.albumID, let album = try? library.album(id), album.id == id else {
            throw APIError.notFound("the shared album was deleted")
        }
        return album
    }
}
