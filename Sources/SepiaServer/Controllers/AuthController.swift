import Foundation
import Hummingbird
import Logging

/// First-run setup, invitations' account creation, login, logout and the password:
/// `/api/v1/setup`, `/api/v1/session`, `/api/v1/account/password`.
struct AuthController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get("setup/:token", use: setupStatus)
            .post("setup", use: setup)
            .post("session", use: login)
        routes.group().add(middleware: PermissionMiddleware(permission: .authenticated))
            .get("session", use: current)
        routes.group().add(middleware: PermissionMiddleware(permission: .account))
            .delete("session", use: logout)
            .put("account/password", use: changePassword)
        return routes
    }

    struct SetupStatus: ResponseEncodable {
        var kind: String
        var expiresAt: Date
    }

    struct SetupRequest: Decodable {
        var token: String
        var username: String
        var password: String
    }

    struct LoginRequest: Decodable {
        var username: String
        var password: String
    }

    struct PasswordRequest: Decodable {
        var currentPassword: String
        var newPassword: String
    }

    /// `GET /setup/{token}`: whether a setup link still works.
    @Sendable func setupStatus(_ request: Request, context: AppRequestContext) async throws -> SetupStatus {
        let secret = try context.parameters.require("token")
        guard let token = try services.accounts.setupToken(secret: secret) else {
            throw APIError.notFound("this setup link is unknown; ask for a new one")
        }
        guard token.usedAt == nil else { throw APIError.gone("this setup link was used already; sign in instead") }
        guard token.expiresAt > Date() else { throw APIError.gone("this setup link has expired; ask for a new one") }
        if token.kind == .owner, try services.accounts.users().contains(where: \.isOwner) {
            throw APIError.gone("this server already has an owner; sign in instead")
        }
        return SetupStatus(kind: token.kind == .owner ? "owner" : "invitation", expiresAt: token.expiresAt)
    }

    /// `POST /setup`: creates the account a setup link is for, and signs it in.
    @Sendable func setup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await services.json.decode(SetupRequest.self, from: request)
        let name = try UserName(creating: body.username)
        try Self.checkNewPassword(body.password)
        guard try services.accounts.setupToken(secret: body.token) != nil else {
            throw APIError.notFound("this setup link is unknown; ask for a new one")
        }
        let hash = await services.hasher.hash(body.password)
        let user = try services.accounts.redeemSetupToken(
            secret: body.token, name: name, passwordHash: hash, libraryPath: LibraryRegistry.relativePath(forUserID:))
        _ = try services.libraries.library(for: user)
        context.logger.info("account created", metadata: ["sepia.user": "\(user.username)", "sepia.owner": "\(user.isOwner)"])
        return try signIn(user, status: .created, request: request, context: context)
    }

    /// `POST /session`: signs in with a name and password.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await services.json.decode(LoginRequest.self, from: request)
        let name = UserName.signIn(body.username)
        guard body.password.utf8.count <= 4096 else { throw APIError.unauthorized("the name or the password is wrong") }
        // The attempt counts before the password is checked, so that simultaneous guesses cannot all pass; a
        // name no account can have counts against the account it imitates.
        let keys = services.throttle.signInKeys(name: name, address: context.clientAddress)
        let reservation: LoginThrottle.Reservation
        switch services.throttle.reserve(keys) {
        case .success(let granted): reservation = granted
        case .failure(let refusal):
            throw APIError.tooManyRequests(
                "too many failed sign-ins; try again in \(Self.describe(seconds: refusal.seconds))", retryAfter: refusal.seconds)
        }
        // A name no account can have is never looked up: the database must not be the one to decide which
        // account it means (a C string ends at a NUL).
        var user: UserRecord?
        if case .valid(let valid) = name {
            do {
                user = try services.accounts.user(named: valid)
            } catch {
                services.throttle.release(reservation)
                throw error
            }
        }
        guard let user else {
            await services.hasher.verifyNothing(body.password)
            throw APIError.unauthorized("the name or the password is wrong")
        }
        guard await services.hasher.verify(body.password, hash: user.passwordHash) else {
            context.logger.notice(
                "failed sign-in", metadata: ["sepia.user": "\(name.throttleKey)", "sepia.client": "\(context.clientAddress ?? "?")"])
            throw APIError.unauthorized("the name or the password is wrong")
        }
        services.throttle.release(reservation, clearing: [keys[0]])
        if try services.accounts.hasSecondFactor(userID: user.id) {
            // The password was right; the session waits for the second factor.
            let challenge = try services.accounts.createSignInChallenge(userID: user.id, lifetime: TwoFactorController.challengeLifetime)
            var response = try SecondFactorRequired(challenge: challenge, methods: ["totp", "recovery-code"]).response(
                from: request, context: context)
            response.status = .accepted
            response.headers[.cacheControl] = "no-store"
            return response
        }
        return try signIn(user, status: .ok, request: request, context: context)
    }

    /// The answer to a right password when the account has two-factor sign-in on: send `challenge` to
    /// `POST /session/second-factor` with a code, within five minutes.
    struct SecondFactorRequired: ResponseEncodable {
        var secondFactorRequired = true
        var challenge: String
        var methods: [String]
    }

    /// `GET /session`: who is calling, with which credential.
    @Sendable func current(_ request: Request, context: AppRequestContext) async throws -> SessionResponse {
        let identity = try context.requireIdentity()
        return SessionResponse(
            user: UserResponse(identity.user), csrfToken: identity.session?.csrfToken,
            credential: .init(kind: identity.isSession ? "session" : "token", accessLevel: identity.accessLevel, albumIDs: identity.albumLimit))
    }

    /// `DELETE /session`: signs out.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        if let session = identity.session { try services.accounts.deleteSession(hash: session.tokenHash) }
        return Response(status: .noContent, headers: [.setCookie: services.sessionCookie(nil, context: context)])
    }

    /// `PUT /account/password`: replaces the password; the account's other sessions end.
    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(PasswordRequest.self, from: request)
        let user = try await checkCurrentPassword(body.currentPassword, of: identity, context: context)
        try Self.checkNewPassword(body.newPassword)
        let hash = await services.hasher.hash(body.newPassword)
        try services.accounts.setPassword(userID: user.id, hash: hash, keepingSession: identity.session?.tokenHash)
        return Response(status: .noContent)
    }

    // MARK: - Helpers

    /// The signed-in user's account, once `password` is its password: what changing the password, and two-factor
    /// sign-in's settings, ask for again. A stolen session must not be a way to guess the password: the checks are
    /// throttled like sign-ins to the account (`403` when wrong, `429` past the limit).
    func checkCurrentPassword(_ password: String, of identity: Identity, context: AppRequestContext) async throws -> UserRecord {
        let key = LoginThrottle.Key.passwordChange(userID: identity.user.id, limit: services.throttle.accountLimit)
        let reservation: LoginThrottle.Reservation
        switch services.throttle.reserve([key]) {
        case .success(let granted): reservation = granted
        case .failure(let refusal):
            throw APIError.tooManyRequests(
                "too many wrong current passwords; try again in \(Self.describe(seconds: refusal.seconds))", retryAfter: refusal.seconds)
        }
        let found: UserRecord?
        do {
            found = try services.accounts.user(id: identity.user.id)
        } catch {
            services.throttle.release(reservation)
            throw error
        }
        guard let user = found, password.utf8.count <= 4096, await services.hasher.verify(password, hash: user.passwordHash) else {
            context.logger.notice("wrong current password", metadata: ["sepia.user": "\(identity.user.username)"])
            throw APIError.forbidden("the current password is wrong")
        }
        services.throttle.release(reservation, clearing: [key])
        return user
    }

    func signIn(_ user: UserRecord, status: HTTPResponse.Status, request: Request, context: AppRequestContext) throws -> Response {
        let (secret, session) = try services.accounts.createSession(
            userID: user.id, lifetime: services.configuration.sessionLifetime, userAgent: request.headers[.userAgent] ?? "",
            address: context.clientAddress ?? "")
        let body = SessionResponse(
            user: UserResponse(user), csrfToken: session.csrfToken, credential: .init(kind: "session", accessLevel: .readWrite, albumIDs: nil))
        var response = try body.response(from: request, context: context)
        response.status = status
        response.headers[.setCookie] = services.sessionCookie(secret, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func checkNewPassword(_ password: String) throws {
        guard password.count >= 10 else { throw APIError.unprocessable("a password needs at least 10 characters") }
        guard password.utf8.count <= 1024 else { throw APIError.unprocessable("a password may have at most 1024 bytes") }
    }

    static func describe(seconds: Int) -> String {
        seconds < 90 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
    }
}
