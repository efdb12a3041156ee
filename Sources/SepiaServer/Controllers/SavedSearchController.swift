import Foundation
import Hummingbird
import SepiaLibrary

/// Smart albums from searches: `/api/v1/searches`. A saved search is a title and a query; its photos are what the
/// query finds now (`GET /search?q=`), so it follows the library as Photos' smart albums follow their rules.
///
/// Listing takes `read` (a token limited to albums counts the photos of its albums); saving, renaming and deleting
/// take `write` and the whole library. Share links have none.
struct SavedSearchController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .post(use: create)
            .patch(":id", use: update)
            .delete(":id", use: delete)
        return routes
    }

    struct SavedSearchResponse: ResponseEncodable {
        var id: String
        var title: String
        var query: String
        var assetCount: Int
        var coverAssetID: String?
        var creationDate: Date

        enum CodingKeys: String, CodingKey { case id, title, query, assetCount, coverAssetID, creationDate }

        /// Every key, `coverAssetID` as null when the search finds nothing.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(query, forKey: .query)
            try c.encode(assetCount, forKey: .assetCount)
            try c.encode(coverAssetID, forKey: .coverAssetID)
            try c.encode(creationDate, forKey: .creationDate)
        }
    }

    struct SavedSearchList: ResponseEncodable {
        var searches: [SavedSearchResponse]
    }

    struct CreateRequest: Decodable {
        var title: String
        var query: String
    }

    struct UpdateRequest: Decodable {
        var title: String?
        var query: String?
    }

    /// `GET /searches`: each with what it finds now.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> SavedSearchList {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let library = identity.photoLibrary
        return SavedSearchList(searches: try library.savedSearches().map { try Self.response($0, identity: identity) })
    }

    /// `POST /searches` `{"title", "query"}`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SavedSearchResponse> {
        let identity = try context.requireIdentity()
        try Self.refuseAlbumLimited(identity)
        let body = try await services.json.decode(CreateRequest.self, from: request)
        let saved = try identity.photoLibrary.saveSearch(title: body.title, query: body.query)
        return EditedResponse(
            status: .created, headers: [.location: "/api/v1/searches/" + saved.id], response: try Self.response(saved, identity: identity))
    }

    /// `PATCH /searches/{id}` `{"title"?, "query"?}`.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> SavedSearchResponse {
        let identity = try context.requireIdentity()
        try Self.refuseAlbumLimited(identity)
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id) else { throw Self.noSavedSearch }
        let body = try await services.json.decode(UpdateRequest.self, from: request)
        return try Self.response(try identity.photoLibrary.updateSavedSearch(id, title: body.title, query: body.query), identity: identity)
    }

    /// `DELETE /searches/{id}`.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        try Self.refuseAlbumLimited(identity)
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id) else { throw Self.noSavedSearch }
        try identity.photoLibrary.deleteSavedSearch(id)
        return .noContent
    }

    /// Saved searches belong to the whole library, which a token limited to albums may not change (as it may not
    /// make albums); it may list them and search.
    static func refuseAlbumLimited(_ identity: Identity) throws {
        if identity.albumLimit != nil {
            throw APIError.forbidden("this API token is limited to albums: it may search but not save, rename or delete smart albums")
        }
    }

    static let noSavedSearch = APIError.notFound("no saved search has this identifier; GET /api/v1/searches lists them")

    /// A saved search with the number of visible photos it finds for `identity` and the newest of them.
    static func response(_ search: SavedSearch, identity: Identity) throws -> SavedSearchResponse {
        let library = identity.photoLibrary
        var count = 0
        var cover: String?
        if var predicate = try library.predicate(for: SearchQuery(search.query), matchingPeople: identity.seesPeople) {
            if let albums = identity.albumLimit { predicate = .inAlbums(albums) && predicate }
            var options = FetchOptions()
            options.predicate = predicate
            options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)]
            let page = try library.fetchAssetPage(options: options, limit: 1)
            count = page.total
            cover = page.assets.first?.id
        }
        return SavedSearchResponse(
            id: search.id, title: search.title, query: search.query, assetCount: count, coverAssetID: cover, creationDate: search.creationDate)
    }
}
