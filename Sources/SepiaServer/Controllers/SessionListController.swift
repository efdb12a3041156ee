import Foundation
import Hummingbird
import Logging

/// The browsers an account is signed in on (`/api/v1/account/sessions`): each with what it said it was, where it
/// was last used from and when; signing out one of them, or every one but this. From a signed-in session only: a
/// token cannot list or end sessions. The account's API tokens, with where each was last used, are
/// `GET /api/v1/tokens`.
struct SessionListController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .account))
            .get("account/sessions", use: list)
            .delete("account/sessions/:id", use: signOut)
            .post("account/sessions/sign-out-others", use: signOutOthers)
        return routes
    }

    struct SessionList: ResponseEncodable {
        var sessions: [SignedInSessionResponse]
    }

    struct SignedOut: ResponseEncodable {
        var signedOut: Int
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> SessionList {
        let identity = try context.requireIdentity()
        let current = identity.session?.tokenHash
        let sessions = try services.accounts.sessions(userID: identity.user.id)
        return SessionList(sessions: sessions.map { SignedInSessionResponse($0, current: $0.tokenHash == current) })
    }

    /// Signs out one of the account's sessions, this one included (then the browser must sign in again).
    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let id = try context.parameters.require("id")
        guard try services.accounts.deleteSession(publicID: id, userID: identity.user.id) else {
            throw APIError.notFound("you are not signed in on a browser with this identifier; GET /api/v1/account/sessions lists them")
        }
        context.logger.info("signed out a browser", metadata: ["sepia.user": "\(identity.user.username)"])
        return .noContent
    }

    /// Signs out every session of the account but the one making the request.
    @Sendable func signOutOthers(_ request: Request, context: AppRequestContext) async throws -> SignedOut {
        let identity = try context.requireIdentity()
        guard let current = identity.session else { throw APIError.forbidden("sign in with a browser to sign out the others") }
        let count = try services.accounts.deleteOtherSessions(userID: identity.user.id, keeping: current.tokenHash)
        context.logger.info("signed out the other browsers", metadata: ["sepia.user": "\(identity.user.username)", "sepia.count": "\(count)"])
        return SignedOut(signedOut: count)
    }
}
