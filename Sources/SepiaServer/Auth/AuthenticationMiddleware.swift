import Foundation
import Hummingbird

/// Establishes who is calling from the credential the request carries — an `Authorization: Bearer` API token,
/// else the session cookie — and opens their library. A request without a credential passes on without an
/// identity; a credential that is unknown, revoked or expired passes on with the reason, so that routes that
/// need a credential can answer 401 with it. What an identity may do is checked per route by
/// ``PermissionMiddleware``.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountStore
    let libraries: LibraryRegistry
    let sessionLifetime: TimeInterval

    static let cookieName = "sepia_session"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].utf8.count == 6, parts[0].lowercased() == "bearer" {
                let secret = String(parts[1].drop { $0 == " " })
                if let (token, user) = try accounts.token(secret: secret) {
                    context.identity = Identity(user: user, credential: .token(token), library: try libraries.library(for: user))
                    accounts.touch(token, address: context.clientAddress)
                } else {
                    context.credentialProblem = "the API token is unknown, revoked or expired; create a new one in Settings"
                }
            } else {
                context.credentialProblem = "only 'Authorization: Bearer <API token>' is accepted"
            }
        } else if let secret = Self.sessionCookie(in: request) {
            if let (session, user) = try accounts.session(secret: secret) {
                context.identity = Identity(user: user, credential: .session(session), library: try libraries.library(for: user))
                accounts.touch(session, lifetime: sessionLifetime, address: context.clientAddress)
            } else {
                context.credentialProblem = "your session has ended; sign in again"
            }
        }
        return try await next(request, context)
    }

    /// The value of the session cookie, if the request has one.
    static func sessionCookie(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix(cookieName + "=") { return String(trimmed.dropFirst(cookieName.count + 1)) }
            }
        }
        return nil
    }
}

/// Lets a request through only if its identity has `permission`: 401 without a valid credential, 403 when the
/// credential may not do this. Requests made with a session cookie that change something must also carry
/// the session's CSRF token in `X-CSRF-Token` (the cookie is `SameSite=Strict` too).
struct PermissionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let permission: Permission

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard permission != .anyone else { return try await next(request, context) }
        let identity = try context.requireIdentity()
        if let session = identity.session, ![.get, .head, .options].contains(request.method) {
            guard let sent = request.headers[.xCSRFToken], Secret.constantTimeEquals(sent, session.csrfToken) else {
                throw APIError.forbidden(
                    "the request lacks the session's CSRF token: send the csrfToken from GET /api/v1/session in the X-CSRF-Token header")
            }
        }
        guard identity.allows(permission) else { throw APIError.forbidden(identity.refusal(permission)) }
        return try await next(request, context)
    }
}
