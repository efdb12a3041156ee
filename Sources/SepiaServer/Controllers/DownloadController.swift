import Foundation
import Hummingbird
import SepiaLibrary

/// A selection of photos and videos as one ZIP file: `POST /api/v1/downloads` names the selection and answers
/// a link, `GET /api/v1/downloads/{id}` streams the archive (albums: `GET /albums/{id}/download`; share links:
/// `GET /shared/{token}/download`).
///
/// Two steps, because a browser saves a large file to disk only when it navigates to it: a `fetch` of the
/// archive would hold all of it in the page's memory, and a navigation cannot send a JSON body of ten thousand
/// identifiers, nor the CSRF header a session's `POST` needs. The selection waits in the server database (so
/// any server of a deployment answers its link) for ``ServerConfiguration/downloadLinkLifetime``, and the link
/// opens only with a credential of the account that made it, which must still see every item then, as
/// `GET /assets/{id}/original` would.
struct DownloadController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .post(use: create)
            .get(":id", use: download)
        return routes
    }

    struct CreateRequest: Decodable {
        var ids: [String]
        var version: String?
    }

    /// A selection waiting to be downloaded.
    struct DownloadResponse: ResponseEncodable {
        var id: String
        /// Where the archive is: `/api/v1/downloads/{id}`.
        var url: String
        var version: String
        /// How many photos and videos it holds.
        var count: Int
        var expiresAt: Date
    }

    /// `POST /downloads` `{"ids": [id], "version": "original"|"current"}`: the link of the selection's ZIP file,
    /// `201`. Every item must be one the credential sees (else `404`, as for one item); at most
    /// ``ServerConfiguration/maximumDownloadItems`` of them (else `422`).
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<DownloadResponse> {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(CreateRequest.self, from: request)
        let version = try Self.version(named: body.version, default: .original)
        var seen = Set<String>()
        let ids = body.ids.filter { seen.insert($0).inserted }
        try ZipDownload.checkCount(ids.count, services: services)
        let assets = try identity.visibleAssets(ids, limit: services.configuration.maximumDownloadItems)
        let download = try services.accounts.createDownload(
            userID: identity.user.id, assetIDs: assets.map(\.id), version: version.rawValue, lifetime: services.configuration.downloadLinkLifetime)
        let url = "/api/v1/downloads/" + download.id
        return EditedResponse(
            status: .created, headers: [.location: url],
            response: DownloadResponse(id: download.id, url: url, version: version.rawValue, count: assets.count, expiresAt: download.expiresAt))
    }

    /// `GET /downloads/{id}`: the selection's ZIP file. `404` for a link of another account, or when an item is
    /// no longer one the credential sees (deleted, hidden from a limited token); `410` once the link has expired.
    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        guard let download = try services.accounts.download(id: try context.parameters.require("id")), download.userID == identity.user.id
        else {
            throw APIError.notFound("there is no such download; ask for a new one with POST /api/v1/downloads")
        }
        guard !download.isExpired() else { throw APIError.gone("this download link has expired; ask for a new one with POST /api/v1/downloads") }
        let assets = try identity.visibleAssets(download.assetIDs, limit: max(download.assetIDs.count, 1))
        return try await ZipDownload.answer(
            assets, version: try Self.version(named: download.version, default: .original), library: identity.photoLibrary, name: "Photos",
            slotKey: identity.user.id, services: services, context: context)
    }

    /// The `version` query parameter: `original` or `current`, `fallback` when absent.
    static func version(_ query: Query, default fallback: DownloadPlan.Version) throws -> DownloadPlan.Version {
        try version(named: try query.oneOf("version", DownloadPlan.Version.allCases.map(\.rawValue)), default: fallback)
    }

    /// A version by name: `original` or `current` (else `400`), `fallback` for nil.
    static func version(named name: String?, default fallback: DownloadPlan.Version) throws -> DownloadPlan.Version {
        guard let name else { return fallback }
        guard let version = DownloadPlan.Version(rawValue: name) else {
            throw APIError.badRequest("'version' must be original or current, not '\(name.prefix(40))'")
        }
        return version
    }
}
