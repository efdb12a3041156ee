import Foundation
import Hummingbird
import SepiaLibrary

/// Recently Deleted: `GET /api/v1/recently-deleted`, the photos deleted in the last days, newest deletion first,
/// each with its deletion date and days left, for the credentials that may see them (sessions and read-write
/// tokens; one limited to albums sees what was in them). Recovering is `POST /assets/{id}/recover` and
/// `POST /assets/recover`; deleting for good, `DELETE /assets/{id}?permanently=true` and `POST /assets/delete`
/// with `"permanently": true`; what has been there longer than the retention is purged by the job queue.
struct RecentlyDeletedController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .get(use: list)
        return routes
    }

    /// A page of Recently Deleted, and how long the library keeps what is there.
    struct Page: ResponseEncodable {
        var assets: [AssetResponse]
        var nextCursor: String?
        var total: Int
        var retentionDays: Int

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(assets, forKey: .assets)
            try c.encode(nextCursor, forKey: .nextCursor)
            try c.encode(total, forKey: .total)
            try c.encode(retentionDays, forKey: .retentionDays)
        }

        enum CodingKeys: String, CodingKey { case assets, nextCursor, total, retentionDays }
    }

    /// `GET /recently-deleted?limit=&cursor=`.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Page {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        let query = Query(request: request)
        let limit = try query.int("limit", in: 1...500) ?? 100
        let cursor = try query.string("cursor", maximumLength: 4096).map { try AssetCursor(token: $0) }
        var options = FetchOptions()
        if let albums = identity.albumLimit { options.predicate = .inAlbums(albums) }
        let page = try library.fetchAssetPage(in: .recentlyDeleted, options: options, after: cursor, limit: limit)
        return Page(
            assets: page.assets.map { AssetResponse($0, in: library) }, nextCursor: page.nextCursor?.token, total: page.total,
            retentionDays: library.configuration.recentlyDeletedDays)
    }
}
