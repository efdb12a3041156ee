import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaImage
import SepiaLibrary
import Synchronization
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
            for (name, named) in [(#"owner\u0000x"#, "U+0000"), (#"owner\u202E"#, "U+202E"), (#"ow\u0007ner"#, "U+0007"), ("ownér", "U+00E9")] {
                let refused = try await anonymous.request(
                    .post, "/api/v1/setup", json: #"{"token": "\#(token!)", "username": "\#(name)", "password": "correct horse battery"}"#)
                #expect(refused.status == .unprocessableContent)
                #expect(String(buffer: refused.body).contains(named), "\(String(buffer: refused.body))")
            }
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

    @Test("/health reports the version the command line prints")
    func healthVersion() async throws {
        try await TestServer().withOwner { owner in
            let health = try await owner.anonymous.request(.get, "/health")
            #expect(String(buffer: health.body).contains(#""version":"\#(SepiaVersion.current)""#), "\(String(buffer: health.body))")
        }
    }

    @Test("twelve simultaneous wrong passwords for one account: five are checked, seven refused before checking")
    func concurrentLoginThrottle() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            _ = try await Client.createOwner(client, setupToken: token!)
            let http = RawHTTP(port: try #require(client.port))
            let statuses = try await RawHTTP.concurrently(12) { _ in
                try http.request(
                    "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
                    body: Data(#"{"username": "owner", "password": "wrong password!"}"#.utf8)
                ).status
            }
            #expect(statuses.filter { $0 == 401 }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 7, "\(statuses)")
            // The right password is refused too until the window passes.
            let locked = try await Client(client).request(
                .post, "/api/v1/session", json: #"{"username": "owner", "password": "correct horse battery"}"#)
            #expect(locked.status == .tooManyRequests)
        }
    }

    @Test("a locked-out name stays locked under every spelling: a NUL, a control or bidi character after it is refused as locked, never checked")
    func lockedNameVariants() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            _ = try await Client.createOwner(client, setupToken: token!, username: "victim")
            let http = RawHTTP(port: try #require(client.port))
            @Sendable func signIn(_ jsonName: String, _ password: String) throws -> Int {
                try http.request(
                    "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
                    body: Data(#"{"username": "\#(jsonName)", "password": "\#(password)"}"#.utf8)
                ).status
            }
            // Given victim locked out by twelve simultaneous guesses,
            let guesses = try await RawHTTP.concurrently(12) { _ in try signIn("victim", "wrong password!") }
            #expect(guesses.filter { $0 == 429 }.count == 7, "\(guesses)")
            // when the guesses go on under other spellings of the name, all at once, one of them with the right
            // password,
            let variants = [
                #"victim\u0000X"#, #"victim\u0000Y"#, #"victim\u0000zz"#, #"VICTIM\u0000a"#, #"victim\u0001"#, #"victim\u202E"#,
                #"victim\u0000"#, #" victim\u0000b"#, #"victim\u00A0"#, #"victim\u200B"#,
            ]
            let statuses = try await RawHTTP.concurrently(variants.count) { index in
                try signIn(variants[index], index == 2 ? "correct horse battery" : "wrong password!")
            }
            // then every one is refused as locked, and none is checked.
            #expect(statuses.allSatisfy { $0 == 429 }, "\(zip(variants, statuses).map { "\($0): \($1)" })")
        }
    }

    @Test("a name with a NUL never signs in as the name before the NUL, even with its password, and is counted against it")
    func nameWithNULDoesNotSignIn() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            _ = try await Client.createOwner(client, setupToken: token!, username: "victim")
            let http = RawHTTP(port: try #require(client.port))
            let names = [#"victim\u0000zz"#, #"victim\u0000"#, #"Victim\u0000\u0000"#, #"victim\u0000X"#, #"victim\u0000Y"#]
            let statuses = try await RawHTTP.concurrently(names.count) { index in
                try http.request(
                    "POST", "/api/v1/session", headers: ["Content-Type": "application/json"],
                    body: Data(#"{"username": "\#(names[index])", "password": "correct horse battery"}"#.utf8)
                ).status
            }
            #expect(statuses.allSatisfy { $0 == 401 }, "\(statuses)")
            // The five attempts counted against victim: the next one, even right, waits.
            let next = try await Client(client).request(
                .post, "/api/v1/session", json: #"{"username": "victim", "password": "correct horse battery"}"#)
            #expect(next.status == .tooManyRequests)
        }
    }

    @Test("the current password of a password change is throttled like a sign-in, also when guessed concurrently")
    func passwordChangeThrottle() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let http = RawHTTP(port: try #require(client.port))
            let headers = ["Content-Type": "application/json", "Cookie": "sepia_session=" + owner.cookie!, "X-CSRF-Token": owner.csrf!]
            let statuses = try await RawHTTP.concurrently(12) { i in
                try http.request(
                    "PUT", "/api/v1/account/password", headers: headers,
                    body: Data(#"{"currentPassword": "guess \#(i)", "newPassword": "a new long password"}"#.utf8)
                ).status
            }
            #expect(statuses.filter { $0 == 403 }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 7, "\(statuses)")
            let right = try await owner.request(
                .put, "/api/v1/account/password", json: #"{"currentPassword": "correct horse battery", "newPassword": "a new long password"}"#)
            #expect(right.status == .tooManyRequests)
            // Signing in is counted apart.
            #expect(
                try await owner.anonymous.request(.post, "/api/v1/session", json: #"{"username": "owner", "password": "correct horse battery"}"#)
                    .status == .ok)
        }
    }

    @Test("a sign-in that succeeds gives its place back: five right passwords in a row do not lock the account")
    func successfulSignInsDoNotCount() async throws {
        let throttle = LoginThrottle(accountLimit: 2, addressLimit: 3)
        for _ in 0..<10 {
            let keys = throttle.signInKeys(name: UserName.signIn("owner"), address: "192.0.2.1")
            guard case .success(let reservation) = throttle.reserve(keys) else {
                Issue.record("a right password was refused")
                return
            }
            throttle.release(reservation, clearing: [keys[0]])
        }
        let keys = throttle.signInKeys(name: UserName.signIn("owner"), address: "192.0.2.1")
        for _ in 0..<2 { _ = throttle.reserve(keys) }
        guard case .failure(let refusal) = throttle.reserve(keys) else {
            Issue.record("a third wrong password was checked")
            return
        }
        #expect(refusal.seconds > 0)
        // The address's own limit holds across accounts.
        #expect((try? throttle.reserve(throttle.signInKeys(name: UserName.signIn("other"), address: "192.0.2.1")).get()) != nil)
        #expect((try? throttle.reserve(throttle.signInKeys(name: UserName.signIn("third"), address: "192.0.2.1")).get()) == nil)
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

@Suite("Revoking a credential while it is being looked up")
struct RevocationRaceTests {
    @Test("a look-up that read the token before its revocation does not keep it: revocation wins, every time")
    func revocationWins() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let accounts = services.accounts
            let user = try #require(try accounts.user(named: UserName(creating: "owner")))
            var stale = 0
            for _ in 0..<60 {
                let created = try await owner.json(
                    TokenBody.self, .post, "/api/v1/tokens", json: #"{"name": "race", "accessLevel": "read"}"#, expect: .created)
                let secret = try #require(created.token)
                // One thread looks the token up again and again, each time from the database; the test revokes
                // it meanwhile, then lets the thread finish the look-up it is in.
                let revoked = Atomic<Bool>(false)
                let looking = Thread.detachNewThreadReturning {
                    while !revoked.load(ordering: .acquiring) {
                        accounts.clearCache()
                        _ = try? accounts.token(secret: secret)
                    }
                }
                usleep(2000)
                #expect(try accounts.deleteToken(id: created.id, userID: user.id))
                revoked.store(true, ordering: .releasing)
                await looking.value
                if accounts.cachedCredential(bearer: secret, cookie: nil).map({ if case .token = $0 { true } else { false } }) ?? false {
                    stale += 1
                }
                #expect(try accounts.token(secret: secret) == nil)
            }
            #expect(stale == 0, "a revoked token stayed in the credential cache in \(stale) of 60 tries")
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread; the task ends when it returns.
    static func detachNewThreadReturning(_ body: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        Thread.detachNewThread {
            body()
            continuation.finish()
        }
        return Task { for await _ in stream {} }
    }
}
