import Foundation
import Hummingbird
import Logging

/// Accounts, managed by the owner: `/api/v1/users`.
struct UserController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .owner))
            .get(use: list)
            .post("invitations", use: invite)
            .delete(":id", use: delete)
        return routes
    }

    struct UserList: ResponseEncodable {
        var users: [UserResponse]
    }

    struct InviteRequest: Decodable {
        var expiresInHours: Int?
    }

    struct Invitation: ResponseEncodable {
        var url: String
        var expiresAt: Date
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> UserList {
        let withSecondFactor = try services.accounts.usersWithSecondFactor()
        return UserList(users: try services.accounts.users().map { UserResponse($0, twoFactorEnabled: withSecondFactor.contains($0.id)) })
    }

    @Sendable func invite(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Invitation> {
        let identity = try context.requireIdentity()
        var hours = 72
        if request.headers[.contentLength].map({ $0 != "0" }) ?? (request.headers[.transferEncoding] != nil) {
            hours = try await services.json.decode(InviteRequest.self, from: request).expiresInHours ?? 72
        }
        guard (1...168).contains(hours) else { throw APIError.unprocessable("expiresInHours must be from 1 to 168") }
        let (secret, token) = try services.accounts.createSetupToken(
            kind: .invitation, lifetime: TimeInterval(hours) * 3600, createdBy: identity.user.id)
        let url = services.baseURL(for: request, context: context) + "/setup?token=" + secret
        return EditedResponse(status: .created, response: Invitation(url: url, expiresAt: token.expiresAt))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id), let user = try services.accounts.user(id: id) else {
            throw APIError.notFound("there is no account with this identifier")
        }
        guard !user.isOwner else { throw APIError.forbidden("the owner's account cannot be removed") }
        guard let removed = try services.accounts.deleteUser(id: id) else { throw APIError.notFound("there is no account with this identifier") }
        services.libraries.close(for: removed)
        context.logger.info(
            "account removed; its library stays on disk",
            metadata: ["sepia.user": "\(removed.username)", "sepia.library": "\(services.libraries.path(for: removed))"])
        return .noContent
    }
}
