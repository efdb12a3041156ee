import Foundation
import Hummingbird
import Logging

/// Two-factor sign-in with an authenticator app (TOTP) and one-time recovery codes: the sign-in's second step
/// (`POST /api/v1/session/second-factor`), setting it up and turning it off (`/api/v1/account/two-factor`), and the
/// owner's reset of another account's (`DELETE /api/v1/users/{id}/two-factor`).
///
/// A sign-in whose password is right, for an account with two-factor sign-in on, answers 202 with a challenge in
/// place of a session: the client sends it back with a code from the app or a recovery code within five minutes. The
/// codes are throttled per account as passwords are (five wrong ones in fifteen minutes, then a wait), a code is good
/// once, and each recovery code once.
struct TwoFactorController {
    let services: ServerServices

    /// How long a right password waits for its second factor.
    static let challengeLifetime: TimeInterval = 5 * 60
    static let issuer = "Sepia"

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .post("session/second-factor", use: secondFactor)
        routes.group().add(middleware: PermissionMiddleware(permission: .account))
            .get("account/two-factor", use: status)
            .post("account/two-factor/setup", use: setup)
            .post("account/two-factor/confirm", use: confirm)
            .post("account/two-factor/recovery-codes", use: newRecoveryCodes)
            .post("account/two-factor/off", use: turnOff)
        routes.group().add(middleware: PermissionMiddleware(permission: .owner))
            .delete("users/:id/two-factor", use: reset)
        return routes
    }

    struct SecondFactorRequest: Decodable {
        var challenge: String
        var code: String?
        var recoveryCode: String?
    }

    struct PasswordRequest: Decodable {
        var password: String
    }

    struct CodeRequest: Decodable {
        var code: String
    }

    struct Status: ResponseEncodable {
        var enabled: Bool
        var recoveryCodesLeft: Int
    }

    struct SetupResponse: ResponseEncodable {
        /// The secret in base32, for an app that cannot scan.
        var secret: String
        /// The `otpauth://` URI the QR code holds.
        var uri: String
        /// The QR code, as an SVG image.
        var qrCode: String
    }

    struct RecoveryCodesResponse: ResponseEncodable {
        var recoveryCodes: [String]
    }

    /// `POST /session/second-factor`: completes a sign-in with a code from the authenticator app or a recovery code.
    @Sendable func secondFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await services.json.decode(SecondFactorRequest.self, from: request)
        guard let user = try services.accounts.signInChallenge(secret: body.challenge) else {
            throw APIError.unauthorized("this sign-in has expired; sign in with the password again")
        }
        let key = LoginThrottle.Key.secondFactor(userID: user.id, limit: services.throttle.accountLimit)
        let reservation = try reserve(key)
        let accepted: Bool
        do {
            accepted = try check(body, for: user)
        } catch {
            services.throttle.release(reservation)
            throw error
        }
        guard accepted else {
            context.logger.notice(
                "wrong second factor", metadata: ["sepia.user": "\(user.username)", "sepia.client": "\(context.clientAddress ?? "?")"])
            throw APIError.unauthorized(
                body.recoveryCode != nil
                    ? "this recovery code is wrong or was used already" : "the code is wrong or was used already; wait for the next one")
        }
        services.throttle.release(reservation, clearing: [key])
        try services.accounts.deleteSignInChallenge(secret: body.challenge)
        return try AuthController(services: services).signIn(user, status: .ok, request: request, context: context)
    }

    private func check(_ body: SecondFactorRequest, for user: UserRecord) throws -> Bool {
        if let typed = body.recoveryCode {
            guard let hash = RecoveryCodes.storedForm(of: typed) else { return false }
            return try services.accounts.useRecoveryCode(userID: user.id, hash: hash)
        }
        guard let typed = body.code, let factor = try services.accounts.secondFactor(userID: user.id), factor.confirmed,
            let step = factor.totp.verify(typed, at: Date(), after: factor.lastStep)
        else { return false }
        return try services.accounts.useSecondFactorStep(userID: user.id, step: step)
    }

    /// `GET /account/two-factor`: whether it is on, and how many recovery codes are left.
    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> Status {
        let user = try context.requireIdentity().user
        return Status(
            enabled: try services.accounts.hasSecondFactor(userID: user.id),
            recoveryCodesLeft: try services.accounts.recoveryCodesLeft(userID: user.id))
    }

    /// `POST /account/two-factor/setup`: a new secret for the app (its QR code), after the password; on once confirmed.
    @Sendable func setup(_ request: Request, context: AppRequestContext) async throws -> SetupResponse {
        let user = try await checkPassword(request, context: context)
        let totp = try services.accounts.beginSecondFactor(userID: user.id)
        let uri = totp.provisioningURI(account: user.username, issuer: Self.issuer)
        guard let svg = QRCodeImage.svg(uri) else { throw APIError.internalError("the QR code could not be drawn") }
        return SetupResponse(secret: Base32.encode(totp.secret), uri: uri, qrCode: svg)
    }

    /// `POST /account/two-factor/confirm`: the app's first code turns two-factor sign-in on; the ten recovery codes are
    /// shown once.
    @Sendable func confirm(_ request: Request, context: AppRequestContext) async throws -> RecoveryCodesResponse {
        let user = try context.requireIdentity().user
        let body = try await services.json.decode(CodeRequest.self, from: request)
        let key = LoginThrottle.Key.secondFactor(userID: user.id, limit: services.throttle.accountLimit)
        let reservation = try reserve(key)
        guard let factor = try services.accounts.secondFactor(userID: user.id), !factor.confirmed else {
            services.throttle.release(reservation)
            throw APIError.conflict("there is no authenticator being set up; start again from Settings")
        }
        guard let step = factor.totp.verify(body.code, at: Date()) else {
            throw APIError.unprocessable("the code is wrong; check the time on the phone, and type the code the app shows now")
        }
        let codes = RecoveryCodes.generate()
        guard try services.accounts.confirmSecondFactor(userID: user.id, step: step, recoveryCodeHashes: codes.compactMap(RecoveryCodes.storedForm))
        else {
            services.throttle.release(reservation)
            throw APIError.conflict("there is no authenticator being set up; start again from Settings")
        }
        services.throttle.release(reservation, clearing: [key])
        context.logger.info("two-factor sign-in on", metadata: ["sepia.user": "\(user.username)"])
        return RecoveryCodesResponse(recoveryCodes: codes)
    }

    /// `POST /account/two-factor/recovery-codes`: ten new recovery codes, after the password; the old ones stop working.
    @Sendable func newRecoveryCodes(_ request: Request, context: AppRequestContext) async throws -> RecoveryCodesResponse {
        let user = try await checkPassword(request, context: context)
        guard try services.accounts.hasSecondFactor(userID: user.id) else {
            throw APIError.conflict("two-factor sign-in is off; recovery codes come with turning it on")
        }
        let codes = RecoveryCodes.generate()
        try services.accounts.replaceRecoveryCodes(userID: user.id, hashes: codes.compactMap(RecoveryCodes.storedForm))
        return RecoveryCodesResponse(recoveryCodes: codes)
    }

    /// `POST /account/two-factor/off`: turns it off, after the password.
    @Sendable func turnOff(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try await checkPassword(request, context: context)
        try services.accounts.removeSecondFactor(userID: user.id)
        context.logger.notice("two-factor sign-in off", metadata: ["sepia.user": "\(user.username)"])
        return Response(status: .noContent)
    }

    /// `DELETE /users/{id}/two-factor`: the owner turns another account's off (a lost phone and lost recovery codes);
    /// that user signs in with the password alone until they set it up again.
    @Sendable func reset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let user = try services.accounts.user(id: id) else { throw APIError.notFound("there is no such user") }
        // The owner's own needs their password (Settings): a session left open must not be a way to turn it off.
        guard user.id != (try context.requireIdentity().user.id) else {
            throw APIError.unprocessable("turn your own two-factor sign-in off in Settings, with your password")
        }
        try services.accounts.removeSecondFactor(userID: user.id)
        context.logger.notice("two-factor sign-in reset by the owner", metadata: ["sepia.user": "\(user.username)"])
        return Response(status: .noContent)
    }

    // MARK: - Helpers

    private func reserve(_ key: LoginThrottle.Key) throws -> LoginThrottle.Reservation {
        switch services.throttle.reserve([key]) {
        case .success(let granted): return granted
        case .failure(let refusal):
            throw APIError.tooManyRequests(
                "too many wrong codes; try again in \(AuthController.describe(seconds: refusal.seconds))", retryAfter: refusal.seconds)
        }
    }

    /// The signed-in user, once the request's password is theirs (throttled as changing the password is).
    private func checkPassword(_ request: Request, context: AppRequestContext) async throws -> UserRecord {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(PasswordRequest.self, from: request)
        return try await AuthController(services: services).checkCurrentPassword(body.password, of: identity, context: context)
    }
}
