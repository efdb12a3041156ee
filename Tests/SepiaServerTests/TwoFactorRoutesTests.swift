import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Two-factor sign-in through the API")
struct TwoFactorRoutesTests {
    struct Setup: Decodable {
        var secret: String
        var uri: String
        var qrCode: String
    }

    struct Codes: Decodable {
        var recoveryCodes: [String]
    }

    struct Challenge: Decodable {
        var secondFactorRequired: Bool
        var challenge: String
        var methods: [String]
    }

    struct Invitation: Decodable { var url: String }

    struct Status: Decodable {
        var enabled: Bool
        var recoveryCodesLeft: Int
    }

    /// Turns it on for `client`'s account: the password, the QR code, the app's first code; returns the app's
    /// generator and the recovery codes.
    static func turnOn(_ client: Client) async throws -> (OneTimePassword, [String]) {
        let wrong = try await client.request(.post, "/api/v1/account/two-factor/setup", json: #"{"password": "not the password"}"#)
        #expect(wrong.status == .forbidden)
        let setup = try await client.json(
            Setup.self, .post, "/api/v1/account/two-factor/setup", json: #"{"password": "correct horse battery"}"#)
        #expect(setup.qrCode.hasPrefix("<svg") && setup.uri.hasPrefix("otpauth://totp/Sepia:"))
        let totp = OneTimePassword(secret: try #require(Base32.decode(setup.secret)))
        // Not on until the app's code confirms it.
        #expect(try await client.json(Status.self, .get, "/api/v1/account/two-factor").enabled == false)
        let badCode = try await client.request(.post, "/api/v1/account/two-factor/confirm", json: #"{"code": "000000x"}"#)
        #expect(badCode.status == .unprocessableContent)
        let codes = try await client.json(
            Codes.self, .post, "/api/v1/account/two-factor/confirm", json: #"{"code": "\#(totp.code(at: Date()))"}"#)
        #expect(codes.recoveryCodes.count == 10)
        let status = try await client.json(Status.self, .get, "/api/v1/account/two-factor")
        #expect(status.enabled && status.recoveryCodesLeft == 10)
        return (totp, codes.recoveryCodes)
    }

    static func challenge(_ anonymous: Client, _ name: String) async throws -> String {
        let response = try await anonymous.request(
            .post, "/api/v1/session", json: #"{"username": "\#(name)", "password": "correct horse battery"}"#)
        #expect(response.status == .accepted, "\(String(buffer: response.body))")
        #expect(response.headers[.setCookie] == nil, "a session before the second factor")
        let body = try JSONDecoder.api.decode(Challenge.self, from: Data(buffer: response.body))
        #expect(body.secondFactorRequired && body.methods == ["totp", "recovery-code"])
        return body.challenge
    }

    @Test("sign-in asks for the app's code after the password; the code is good once, a recovery code once")
    func signInWithCodes() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let (totp, recovery) = try await Self.turnOn(owner)
            let anonymous = Client(client)

            // The password alone no longer makes a session; the challenge with the app's code does (the next
            // step's: this one's turned it on, and a code is good once).
            let challenge = try await Self.challenge(anonymous, "owner")
            let code = totp.code(forStep: totp.step(at: Date()) + 1)
            let signedIn = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(challenge)", "code": "\#(code)"}"#)
            #expect(signedIn.status == .ok, "\(String(buffer: signedIn.body))")
            #expect(Client.sessionCookie(signedIn) != nil)

            // The same code again (replayed, or seen over a shoulder) opens nothing, even with a new challenge.
            let second = try await Self.challenge(anonymous, "owner")
            let replay = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(second)", "code": "\#(code)"}"#)
            #expect(replay.status == .unauthorized)
            #expect(String(buffer: replay.body).contains("used already"))

            // A recovery code, typed in capitals without its hyphen, signs in once.
            let typed = recovery[0].uppercased().replacingOccurrences(of: "-", with: "")
            let recovered = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(second)", "recoveryCode": "\#(typed)"}"#)
            #expect(recovered.status == .ok, "\(String(buffer: recovered.body))")
            let third = try await Self.challenge(anonymous, "owner")
            let again = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(third)", "recoveryCode": "\#(recovery[0])"}"#)
            #expect(again.status == .unauthorized)
            #expect(try await owner.json(Status.self, .get, "/api/v1/account/two-factor").recoveryCodesLeft == 9)

            // A made-up challenge is refused before any code is looked at.
            let forged = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(String(repeating: "A", count: 43))", "code": "123456"}"#)
            #expect(forged.status == .unauthorized)
        }
    }

    @Test("wrong codes are throttled per account: five, then 429 with Retry-After, the right code included")
    func throttle() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let (totp, _) = try await Self.turnOn(owner)
            let anonymous = Client(client)
            let challenge = try await Self.challenge(anonymous, "owner")
            let now = totp.step(at: Date())
            let good = Set((now - 1...now + 1).map { totp.code(forStep: $0) })
            var wrong = 0
            var candidate = 0
            while wrong < 5 {
                let code = String(format: "%06d", candidate)
                candidate += 1
                guard !good.contains(code) else { continue }
                let response = try await anonymous.request(
                    .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(challenge)", "code": "\#(code)"}"#)
                #expect(response.status == .unauthorized)
                wrong += 1
            }
            let refused = try await anonymous.request(
                .post, "/api/v1/session/second-factor", json: #"{"challenge": "\#(challenge)", "code": "\#(totp.code(at: Date()))"}"#)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] != nil)
        }
    }

    @Test("turning it off needs the password; the owner can reset another user's; nobody else can")
    func offAndReset() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            let zoe = try await Client.signUp(client, setupToken: String(invitation.url.split(separator: "token=").last!), username: "zoe")
            _ = try await Self.turnOn(zoe)
            let zoeID = try await zoe.json(SessionBody.self, .get, "/api/v1/session").user.id
            let ownerID = try await owner.json(SessionBody.self, .get, "/api/v1/session").user.id

            // Zoë cannot reset the owner's (or her own, that way); a token cannot either.
            #expect(try await zoe.request(.delete, "/api/v1/users/\(ownerID)/two-factor").status == .forbidden)
            let tokenClient = try await owner.token("read-write")
            #expect(try await tokenClient.request(.delete, "/api/v1/users/\(zoeID)/two-factor").status == .forbidden)
            // The owner can: Zoë signs in with her password alone again.
            #expect(try await owner.request(.delete, "/api/v1/users/\(zoeID)/two-factor").status == .noContent)
            _ = try await Client(client).login("zoe")

            _ = try await Self.turnOn(zoe)
            #expect(try await zoe.request(.post, "/api/v1/account/two-factor/off", json: #"{"password": "wrong one"}"#).status == .forbidden)
            #expect(
                try await zoe.request(.post, "/api/v1/account/two-factor/off", json: #"{"password": "correct horse battery"}"#).status == .noContent)
            _ = try await Client(client).login("zoe")
        }
    }
}
