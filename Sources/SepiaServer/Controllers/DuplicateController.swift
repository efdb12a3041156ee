import Foundation
import Hummingbird
import SepiaLibrary

/// Near-duplicates: `/api/v1/duplicates`. `GET /duplicates` answers the groups of near-identical photos and videos
/// (``PhotoLibrary/duplicateGroups(threshold:matching:)``), each with the one to keep first and why, newest group
/// first, a page at a time, and how far hashing has come. `POST /duplicates/dismissals` records that a group's
/// items are not duplicates ("Keep all"), so they are not grouped again; `DELETE /duplicates/dismissals` undoes it.
/// Resolving a group moves the others to Recently Deleted with `POST /assets/delete` (and `POST /assets/recover`
/// undoes that).
///
/// A credential limited to albums sees the groups among its albums' photos only; share links have none.
struct DuplicateController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
        routes.group("dismissals").add(middleware: PermissionMiddleware(permission: .write))
            .post(use: dismiss)
            .delete(use: undismiss)
        return routes
    }

    /// The largest threshold a request may ask for: up to it, finding the pairs costs a few table lookups per
    /// item (``PhotoLibrary/duplicateGroups(threshold:matching:)``); past it, every pair would be compared.
    static let maximumThreshold = 15

    struct GroupResponse: Encodable {
        var id: String
        var keepAssetID: String
        var keepReason: String
        var assets: [AssetResponse]
        var distances: [String: Int]
    }

    struct DuplicatesResponse: ResponseEncodable {
        var groups: [GroupResponse]
        var total: Int
        var hashedAssets: Int
        var waitingAssets: Int
        var unreadableAssets: Int
    }

    struct DismissalRequest: Decodable {
        var assets: [String]
    }

    /// `GET /duplicates[?limit=&offset=&threshold=]`.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> DuplicatesResponse {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let library = identity.photoLibrary
        let query = Query(request: request)
        let limit = try query.int("limit", in: 1...500) ?? 100
        let offset = try query.int("offset", in: 0...1_000_000) ?? 0
        let threshold = try query.int("threshold", in: 0...Self.maximumThreshold) ?? PhotoLibrary.defaultDuplicateThreshold
        let groups = try library.duplicateGroups(threshold: threshold, matching: identity.albumLimit.map { .inAlbums($0) })
        let status = try library.duplicatesStatus()
        let page = groups.dropFirst(offset).prefix(limit)
        return DuplicatesResponse(
            groups: page.map { group in
                GroupResponse(
                    id: group.id, keepAssetID: group.keep.id, keepReason: group.keepReason,
                    assets: group.assets.map { AssetResponse($0, in: library) }, distances: group.distances)
            },
            total: groups.count,
            // What the whole library counts is the owner's to know, not an album-limited token's.
            hashedAssets: identity.albumLimit == nil ? status.hashedAssets : 0,
            waitingAssets: identity.albumLimit == nil ? status.waitingAssets : 0,
            unreadableAssets: identity.albumLimit == nil ? status.unreadableAssets : 0)
    }

    /// `POST /duplicates/dismissals` `{"assets": [...]}`: these are not duplicates.
    @Sendable func dismiss(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await setDismissal(true, request, context)
    }

    /// `DELETE /duplicates/dismissals` `{"assets": [...]}`: undoes a dismissal.
    @Sendable func undismiss(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await setDismissal(false, request, context)
    }

    private func setDismissal(_ dismissed: Bool, _ request: Request, _ context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(DismissalRequest.self, from: request)
        // A group is at most a few dozen items; every pair of them is a row.
        guard body.assets.count >= 2 else { throw APIError.unprocessable("'assets' must list at least two photos") }
        let assets = try identity.visibleAssets(body.assets, limit: 100)
        try identity.photoLibrary.setNotDuplicates(assets.map(\.id), dismissed)
        return .noContent
    }
}
