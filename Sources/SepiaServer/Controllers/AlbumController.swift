import Foundation
import Hummingbird
import SepiaLibrary

/// User albums and the smart albums: `/api/v1/albums`.
struct AlbumController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
            .get(":id", use: get)
            .get(":id/download", use: download)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .post(use: create)
            .patch(":id", use: rename)
            .delete(":id", use: delete)
            .post(":id/assets", use: add)
            .post(":id/assets/remove", use: remove)
            .post(":id/assets/move", use: move)
        return routes
    }

    struct AlbumList: ResponseEncodable {
        var albums: [AlbumResponse]
        var smartAlbums: [AlbumResponse]
    }

    struct TitleRequest: Decodable {
        var title: String
    }

    struct MembersRequest: Decodable {
        var ids: [String]
        var index: Int?
    }

    /// `GET /albums`: the user albums in their order, and the smart albums (Recently Deleted only for the
    /// credentials that see it).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> AlbumList {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        var albums = try library.fetchAlbums().allObjects()
        if let limit = identity.albumLimit { albums = albums.filter { limit.contains($0.id) } }
        var smart = identity.albumLimit == nil ? try library.smartAlbums() : []
        if !identity.seesRecentlyDeleted { smart.removeAll { $0.kind == .smart(.recentlyDeleted) } }
        return AlbumList(albums: try albums.map { try response($0, library) }, smartAlbums: try smart.map { try response($0, library) })
    }

    /// `GET /albums/{id}`.
    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> AlbumResponse {
        let identity = try context.requireIdentity()
        return try response(try identity.visibleAlbum(try context.parameters.require("id")), identity.photoLibrary)
    }

    /// `GET /albums/{id}/download?version=original|current`: the album's photos and videos, in its order, as
    /// one ZIP file: their originals, or with `version=current` as they show (see ``DownloadPlan``).
    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        let version = try DownloadController.version(Query(request: request), default: .original)
        let members = try identity.photoLibrary.fetchAssets(in: album)
        try ZipDownload.checkCount(members.count, services: services)
        return try await ZipDownload.answer(
            try members.allObjects(), version: version, library: identity.photoLibrary, name: album.title, slotKey: identity.user.id,
            services: services, context: context)
    }

    /// `POST /albums`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<AlbumResponse> {
        let identity = try context.requireIdentity()
        try refuseLimited(identity)
        let title = try validTitle(try await services.json.decode(TitleRequest.self, from: request).title)
        let outcome = try await identity.photoLibrary.performChanges { $0.createAlbum(title: title) }
        guard let id = outcome.createdAlbumIDs.first else { throw APIError.internalError("the album was not created") }
        let album = try identity.photoLibrary.album(id)
        return EditedResponse(status: .created, headers: [.location: "/api/v1/albums/" + id], response: try response(album, identity.photoLibrary))
    }

    /// `PATCH /albums/{id}`: renames.
    @Sendable func rename(_ request: Request, context: AppRequestContext) async throws -> AlbumResponse {
        let identity = try context.requireIdentity()
        try refuseLimited(identity)
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        let title = try validTitle(try await services.json.decode(TitleRequest.self, from: request).title)
        try await identity.photoLibrary.performChanges { $0.renameAlbum(album.id, to: title) }
        return try response(try identity.photoLibrary.album(album.id), identity.photoLibrary)
    }

    /// `DELETE /albums/{id}`: its photos stay.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        try refuseLimited(identity)
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        try await identity.photoLibrary.performChanges { $0.deleteAlbums([album.id]) }
        return .noContent
    }

    /// `POST /albums/{id}/assets`: adds photos, at the end or at `index`.
    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> AlbumResponse {
        let identity = try context.requireIdentity()
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        let body = try await services.json.decode(MembersRequest.self, from: request)
        let ids = try identity.visibleAssets(body.ids).map(\.id)
        if let index = body.index {
            guard (0...album.assetCount).contains(index) else {
                throw APIError.unprocessable("index \(index) is outside the album, which has \(album.assetCount) photos")
            }
            try await identity.photoLibrary.performChanges { $0.insertAssets(ids, at: index, in: album.id) }
        } else {
            try await identity.photoLibrary.performChanges { $0.addAssets(ids, to: album.id) }
        }
        return try response(try identity.photoLibrary.album(album.id), identity.photoLibrary)
    }

    /// `POST /albums/{id}/assets/remove`.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> AlbumResponse {
        let identity = try context.requireIdentity()
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        let body = try await services.json.decode(MembersRequest.self, from: request)
        let ids = try identity.visibleAssets(body.ids).map(\.id)
        try await identity.photoLibrary.performChanges { $0.removeAssets(ids, from: album.id) }
        return try response(try identity.photoLibrary.album(album.id), identity.photoLibrary)
    }

    /// `POST /albums/{id}/assets/move`: moves photos of the album so that they start at `index` of what
    /// remains once they are taken out.
    @Sendable func move(_ request: Request, context: AppRequestContext) async throws -> AlbumResponse {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        let album = try identity.visibleAlbum(try context.parameters.require("id"))
        let body = try await services.json.decode(MembersRequest.self, from: request)
        guard let index = body.index, index >= 0 else { throw APIError.unprocessable("give the index to move the photos to (0 or more)") }
        let assets = try identity.visibleAssets(body.ids)
        let members = try library.fetchAssets(in: album)
        var indexes = IndexSet()
        for asset in assets {
            guard let position = members.index(of: asset) else {
                throw APIError.unprocessable("the photo '\(asset.id)' is not in this album; add it first")
            }
            indexes.insert(position)
        }
        guard index <= members.count - indexes.count else {
            throw APIError.unprocessable("index \(index) is past the end: the album has \(members.count - indexes.count) other photos")
        }
        try await library.performChanges { $0.moveAssets(at: indexes, to: index, in: album.id) }
        return try response(try library.album(album.id), library)
    }

    private func response(_ album: Album, _ library: PhotoLibrary) throws -> AlbumResponse {
        let cover = try library.fetchAssetPage(album, limit: 1).assets.first?.id
        return AlbumResponse(album, cover: cover)
    }

    private func refuseLimited(_ identity: Identity) throws {
        if identity.albumLimit != nil { throw APIError.forbidden("this API token is limited to albums: it may not create, rename or delete them") }
    }

    private func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(trimmed.count) else { throw APIError.unprocessable("an album's title has 1 to 200 characters") }
        return trimmed
    }
}
