import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaLibrary
import Testing

@testable import SepiaServer

@Suite("Setup, sign-in, sessions and the password")
struct AuthTests {
    @Test("the setup link creates the owner once, signs them in, and then answers 410")
    func setupLinkWorksOnce() async throws {
        let server = TestServer()
        let (app, token) = try await server.build()
        let setup = try #require(token)
        try await app.test(.router) { client in
            let anonymous = Client(client)
            // Given a fresh server, the link is valid.
            let status = try await anonymous.request(.get, "/api/v1/setup/\(setup)")
            #expect(status.status == .ok)
            #expect(String(buffer: status.body).contains(#""kind":"owner""#))
            // When it is used, the owner exists and is signed in.
            let owner = try await Client.createOwner(client, setupToken: setup)
            let session = try await owner.json(SessionBody.self, .get, "/api/v1/session")
            #expect(session.user.isOwner && session.user.username == "owner")
            // Then it no longer works.
            #expect(try await anonymous.request(.get, "/api/v1/setup/\(setup)").status == .gone)
            let again = try await anonymous.request(
                .post, "/api/v1/setup", json: #"{"token": "\#(setup)", "username": "mallory", "password": "correct horse battery"}"#)
            #expect(again.status == .gone)
            #expect(try await anonymous.request(.get, "/api/v1/setup/\(String(repeating: "A", count: 43))").status == .notFound)
        }
    }

    @Test("names and passwords are checked; the answer says what is wrong")
    func accountRules() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            let anonymous = Client(client)
            let short = try await anonymous.request(
                .post, "/api/v1/setup", json: #"{"token": "\#(token!)", "username": "owner", "password": "short"}"#)
            #expect(short.status == .unprocessableContent)
            #expect(String(buffer: short.body).contains("at least 10 characters"))
            let badName = try await anonymous.request(
                .post, "/api/v1/setup", json: #"{"token": "\#(token!)", "username": "a b", "password": "correct horse battery"}"#)
            #expect(badName.status == .unprocessableContent)
            let missing = try await anonymous.request(.post, "/api/v1/setup", json: #"{"token": "\#(token!)"}"#)
            #expect(missing.status == .badRequest)
            #expect(String(buffer: missing.body).contains("'username' is missing"))
        }
    }

    @Test("the session cookie is HttpOnly and SameSite=Strict, and Secure when the public URL is HTTPS")
    func cookieAttributes() async throws {
        for secure in [false, true] {
            let server = TestServer { if secure { $0.publicURL = URL(string: "https://photos.example.org") } }
            let (app, token) = try await server.build()
            try await app.test(.router) { client in
                let response = try await Client(client).request(
                    .post, "/api/v1/setup", json: #"{"token": "\#(token!)", "username": "owner", "password": "correct horse battery"}"#)
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
                #expect(cookie.contains("Secure") == secure)
            }
        }
    }

    @Test("wrong passwords get 401, then 429 with Retry-After once an account has failed five times")
    func loginThrottle() async throws {
        let server = TestServer()
        let (app, token) = try await server.build()
        try await app.test(.router) { client in
            _ = try await Client.createOwner(client, setupToken: token!)
            let anonymous = Client(client)
            for _ in 0..<5 {
                let wrong = try await anonymous.request(.post, "/api/v1/session", json: #"{"username": "owner", "password": "wrong password!"}"#)
                #expect(wrong.status == .unauthorized)
            }
            let locked = try await anonymous.request(.post, "/api/v1/session", json: #"{"username": "owner", "password": "correct horse battery"}"#)
            #expect(locked.status == .tooManyRequests)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(String(buffer: locked.body).contains("try again in"))
            // An unknown account is refused like a wrong password.
            let unknown = try await anonymous.request(.post, "/api/v1/session", json: #"{"username": "nobody", "password": "correct horse battery"}"#)
            #expect(unknown.status == .unauthorized)
        }
    }

    @Test("state-changing requests with the session cookie need its CSRF token")
    func csrf() async throws {
        try await TestServer().withOwner { owner in
            var withoutToken = owner
            withoutToken.csrf = nil
            let refused = try await withoutToken.request(.post, "/api/v1/albums", json: #"{"title": "Trip"}"#)
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains("CSRF"))
            var wrongToken = owner
            wrongToken.csrf = "not-the-token"
            #expect(try await wrongToken.request(.post, "/api/v1/albums", json: #"{"title": "Trip"}"#).status == .forbidden)
            // Reads need no token; writes with it pass.
            #expect(try await withoutToken.request(.get, "/api/v1/albums").status == .ok)
            #expect(try await owner.request(.post, "/api/v1/albums", json: #"{"title": "Trip"}"#).status == .created)
        }
    }

    @Test("signing out ends the session; changing the password ends the other sessions")
    func logoutAndPassword() async throws {
        try await TestServer().withOwner { owner in
            let second = try await owner.login("owner")
            // When the password changes through the first session…
            let changed = try await owner.request(
                .put, "/api/v1/account/password", json: #"{"currentPassword": "correct horse battery", "newPassword": "another long password"}"#)
            #expect(changed.status == .noContent)
            // …the second session has ended, the first goes on.
            let ended = try await second.request(.get, "/api/v1/session")
            #expect(ended.status == .unauthorized)
            #expect(String(buffer: ended.body).contains("session has ended"))
            #expect(try await owner.request(.get, "/api/v1/session").status == .ok)
            // A wrong current password is refused.
            let wrong = try await owner.request(
                .put, "/api/v1/account/password", json: #"{"currentPassword": "nope nope nope", "newPassword": "yet another password"}"#)
            #expect(wrong.status == .forbidden)
            // Signing out clears the cookie and ends the session.
            let out = try await owner.request(.delete, "/api/v1/session")
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await owner.request(.get, "/api/v1/session").status == .unauthorized)
            #expect(try await owner.anonymous.login("owner", password: "another long password").cookie != nil)
        }
    }

    @Test("API tokens are shown once, stored hashed, listed without their secret, and revocable")
    func tokens() async throws {
        let server = TestServer()
        try await server.withOwnerAndServices { owner, services in
            let created = try await owner.json(
                TokenBody.self, .post, "/api/v1/tokens", json: #"{"name": "backup", "accessLevel": "read"}"#, expect: .created)
            let secret = try #require(created.token)
            #expect(secret.hasPrefix("sepia_"))
            let list = try await owner.request(.get, "/api/v1/tokens")
            #expect(!String(buffer: list.body).contains(secret))
            if server.configuration.database == nil {
                let database = try String(contentsOfFile: server.configuration.dataPath + "/server.sqlite", encoding: .isoLatin1)
                #expect(!database.contains(secret))
            } else {
                let rows = try services.accounts.database.read { db in try db.fetch("SELECT * FROM apiToken") }
                #expect(!rows.isEmpty && !"\(rows)".contains(secret))
            }
            let reader = Client(owner.client, bearer: secret)
            #expect(try await reader.request(.get, "/api/v1/assets").status == .ok)
            #expect(try await owner.request(.delete, "/api/v1/tokens/\(created.id)").status == .noContent)
            let revoked = try await reader.request(.get, "/api/v1/assets")
            #expect(revoked.status == .unauthorized)
            #expect(String(buffer: revoked.body).contains("revoked"))
        }
    }

    @Test("the owner invites a user, who gets a library of their own")
    func invitations() async throws {
        try await TestServer().withOwner { owner in
            struct Invitation: Decodable { var url: String }
            let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            let token = try #require(invitation.url.split(separator: "token=").last.map(String.init))
            let guest = try await Client.signUp(owner.client, setupToken: token, username: "guest")
            _ = try await owner.uploadNew(1)
            let theirs = try await guest.json(PageBody.self, .get, "/api/v1/assets")
            #expect(theirs.total == 0)
            // The guest cannot manage users.
            #expect(try await guest.request(.get, "/api/v1/users").status == .forbidden)
            struct Users: Decodable { var users: [SessionBody.User] }
            let users = try await owner.json(Users.self, .get, "/api/v1/users")
            #expect(users.users.map(\.username).sorted() == ["guest", "owner"])
        }
    }
}
