import Foundation
import Hummingbird
import SepiaLibrary

/// Share links, managed by their owner's session: `/api/v1/shares`.
struct ShareController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .account))
            .get(use: list)
            .post(use: create)
            .delete(":id", use: delete)
        return routes
    }

    struct ShareList: ResponseEncodable {
        var shares: [ShareResponse]
    }

    struct CreateRequest: Decodable {
        var assetID: String?
        var albumID: String?
        var expiresAt: Date?
        var includeMetadata: Bool?
        var allowDownload: Bool?
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> ShareList {
        let identity = try context.requireIdentity()
        let base = services.baseURL(for: request, context: context)
        let library = identity.photoLibrary
        return ShareList(
            shares: try services.accounts.shares(userID: identity.user.id).map {
                ShareResponse($0, baseURL: base, title: Self.title(of: $0, in: library))
            })
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ShareResponse> {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(CreateRequest.self, from: request)
        let library = identity.library.library
        switch (body.assetID, body.albumID) {
        case (let id?, nil):
            guard Identifier.isValid(id), let asset = try? library.asset(id) else {
                throw APIError.unprocessable("there is no photo '\(id)' to share")
            }
            if asset.isRecentlyDeleted { throw APIError.unprocessable("the photo '\(id)' is in Recently Deleted; recover it to share it") }
        case (nil, let id?):
            guard Identifier.isValid(id), let album = try? library.album(id), album.isEditable else {
                throw APIError.unprocessable("there is no album '\(id)' to share")
            }
        default:
            throw APIError.unprocessable("give either assetID or albumID")
        }
        if let expiry = body.expiresAt, expiry <= Date() { throw APIError.unprocessable("the expiry date is in the past") }
        let share = try services.accounts.createShare(
            userID: identity.user.id, assetID: body.assetID, albumID: body.albumID, includeMetadata: body.includeMetadata ?? false,
            allowDownload: body.allowDownload ?? false, expiresAt: body.expiresAt)
        return EditedResponse(
            status: .created,
            response: ShareResponse(share, baseURL: services.baseURL(for: request, context: context), title: Self.title(of: share, in: library)))
    }

    /// What a link shows, for its owner: the album's title, or the photo's file name.
    static func title(of share: ShareLinkRecord, in library: PhotoLibrary) -> String {
        if let id = share.albumID { return (try? library.album(id))?.title ?? "Deleted album" }
        if let id = share.assetID, let asset = try? library.asset(id) {
            return asset.isRecentlyDeleted ? asset.originalFilename + " (in Recently Deleted)" : asset.originalFilename
        }
        if share.assetID != nil { return "Deleted photo" }
        return ""
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id), try services.accounts.deleteShare(id: id, userID: identity.user.id) else {
            throw APIError.notFound("you have no share link with this identifier")
        }
        return .noContent
    }
}
