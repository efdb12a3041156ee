import Foundation
import Hummingbird
import SepiaLibrary

/// API tokens, managed by their owner's session: `/api/v1/tokens`.
struct TokenController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .account))
            .get(use: list)
            .post(use: create)
            .delete(":id", use: delete)
        return routes
    }

    struct TokenList: ResponseEncodable {
        var tokens: [TokenResponse]
    }

    struct CreateRequest: Decodable {
        var name: String
        var accessLevel: AccessLevel
        var albumIDs: [String]?
        var expiresAt: Date?
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> TokenList {
        let identity = try context.requireIdentity()
        return TokenList(tokens: try services.accounts.tokens(userID: identity.user.id).map(TokenResponse.init))
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<CreatedTokenResponse> {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(CreateRequest.self, from: request)
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw APIError.unprocessable("a token's name has 1 to 200 characters") }
        let albumIDs = body.albumIDs ?? []
        guard albumIDs.count <= 100 else { throw APIError.unprocessable("a token may be limited to at most 100 albums") }
        for id in albumIDs {
            guard Identifier.isValid(id), let album = try? identity.library.library.album(id), album.isEditable else {
                throw APIError.unprocessable("there is no album '\(id)' to limit the token to; GET /api/v1/albums lists them")
            }
        }
        if let expiry = body.expiresAt, expiry <= Date() { throw APIError.unprocessable("the expiry date is in the past") }
        let (secret, token) = try services.accounts.createToken(
            userID: identity.user.id, name: name, accessLevel: body.accessLevel, albumIDs: Array(Set(albumIDs)).sorted(),
            expiresAt: body.expiresAt)
        return EditedResponse(status: .created, response: CreatedTokenResponse(token: secret, details: TokenResponse(token)))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id), try services.accounts.deleteToken(id: id, userID: identity.user.id) else {
            throw APIError.notFound("you have no API token with this identifier")
        }
        return .noContent
    }
}
