import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaLibrary
import Testing

@testable import SepiaServer

@Suite("The list of signed-in browsers through the API")
struct SessionListRoutesTests {
    struct Listed: Decodable {
        struct Session: Decodable {
            var id: String
            var device: String
            var userAgent: String
            var place: String
            var lastUsedAt: Date
            var current: Bool
        }
        var sessions: [Session]
    }

    struct Tokens: Decodable {
        struct Token: Decodable {
            var name: String
            var lastUsedAt: Date?
            var lastAddress: String?
            var lastPlace: String?
        }
        var tokens: [Token]
    }

    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"

    /// Signs in as `name` from a browser that says `userAgent`.
    static func signIn(_ anonymous: Client, _ name: String, userAgent: String) async throws -> Client {
        let response = try await anonymous.request(
            .post, "/api/v1/session", json: #"{"username": "\#(name)", "password": "correct horse battery"}"#,
            headers: [.userAgent: userAgent])
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        let session = try JSONDecoder.api.decode(SessionBody.self, from: Data(buffer: response.body))
        let cookie: String = try #require(Client.sessionCookie(response))
        return Client(anonymous.client, cookie: cookie, csrf: session.csrfToken)
    }

    @Test("each signed-in browser is listed with what it is; this one is marked; signing one out ends it at once")
    func listAndSignOut() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            let first = try await Client.createOwner(client, setupToken: try #require(token))
            let laptop = try await Self.signIn(first.anonymous, "owner", userAgent: Self.firefox)
            let phone = try await Self.signIn(first.anonymous, "owner", userAgent: Self.iPhone)

            let listed = try await laptop.json(Listed.self, .get, "/api/v1/account/sessions")
            #expect(listed.sessions.count == 3)
            #expect(Set(listed.sessions.map(\.device)) == ["Firefox on Linux", "Safari on iPhone", "Unknown browser"])
            #expect(listed.sessions.filter(\.current).map(\.device) == ["Firefox on Linux"])
            #expect(listed.sessions.first { $0.device == "Safari on iPhone" }?.userAgent == Self.iPhone)
            #expect(Set(listed.sessions.map(\.id)).count == 3 && listed.sessions.allSatisfy { $0.id.count == 16 })

            // The laptop signs the phone out: the phone's cookie stops working at once.
            let phoneID = try #require(listed.sessions.first { $0.device == "Safari on iPhone" }?.id)
            #expect(try await phone.request(.get, "/api/v1/session").status == .ok)
            #expect(try await laptop.request(.delete, "/api/v1/account/sessions/\(phoneID)").status == .noContent)
            #expect(try await phone.request(.get, "/api/v1/session").status == .unauthorized)
            #expect(try await laptop.request(.delete, "/api/v1/account/sessions/\(phoneID)").status == .notFound)
            #expect(try await laptop.json(Listed.self, .get, "/api/v1/account/sessions").sessions.count == 2)

            // Every other one: the first session ends, the laptop's stays.
            struct SignedOut: Decodable { var signedOut: Int }
            let others = try await laptop.json(SignedOut.self, .post, "/api/v1/account/sessions/sign-out-others")
            #expect(others.signedOut == 1)
            #expect(try await first.request(.get, "/api/v1/session").status == .unauthorized)
            #expect(try await laptop.request(.get, "/api/v1/session").status == .ok)
            #expect(try await laptop.json(Listed.self, .get, "/api/v1/account/sessions").sessions.map(\.current) == [true])

            // Signing out this browser from the list signs it out.
            let own = try await laptop.json(Listed.self, .get, "/api/v1/account/sessions").sessions[0].id
            #expect(try await laptop.request(.delete, "/api/v1/account/sessions/\(own)").status == .noContent)
            #expect(try await laptop.request(.get, "/api/v1/session").status == .unauthorized)
        }
    }

    @Test("another account's sessions cannot be seen or signed out (404), nor by an API token, nor with a made-up id")
    func otherAccounts() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.router) { client in
            struct Invitation: Decodable { var url: String }
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            let secret = try #require(invitation.url.split(separator: "=").last.map(String.init))
            let member = try await Client.signUp(client, setupToken: secret, username: "member")
            let ownerIDs = try await owner.json(Listed.self, .get, "/api/v1/account/sessions").sessions.map(\.id)

            let memberList = try await member.json(Listed.self, .get, "/api/v1/account/sessions")
            #expect(memberList.sessions.count == 1 && Set(memberList.sessions.map(\.id)).isDisjoint(with: ownerIDs))
            for id in ownerIDs + ["0123456789abcdef", "../../session", String(repeating: "a", count: 64), "ZZZZZZZZZZZZZZZZ"] {
                let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
                #expect(try await member.request(.delete, "/api/v1/account/sessions/\(escaped)").status == .notFound, "\(id)")
            }
            #expect(try await owner.request(.get, "/api/v1/session").status == .ok)

            // A token of the account can do neither.
            let full = try await owner.token("read-write")
            #expect(try await full.request(.get, "/api/v1/account/sessions").status == .forbidden)
            #expect(try await full.request(.delete, "/api/v1/account/sessions/\(ownerIDs[0])").status == .forbidden)
            #expect(try await full.request(.post, "/api/v1/account/sessions/sign-out-others").status == .forbidden)
            #expect(try await owner.request(.get, "/api/v1/session").status == .ok)

            // The token's last use is in the list of tokens.
            let tokens = try await owner.json(Tokens.self, .get, "/api/v1/tokens")
            #expect(tokens.tokens.count == 1 && tokens.tokens[0].lastUsedAt != nil)
        }
    }

    @Test("a browser's description from its User-Agent")
    func devices() {
        let cases: [(String, String)] = [
            (Self.firefox, "Firefox on Linux"),
            (Self.iPhone, "Safari on iPhone"),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows"
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Mac"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
                "Chrome (headless) on Linux"
            ),
            ("curl/7.88.1", "curl"),
            ("python-requests/2.31.0", "Python"),
            ("MyBackup/3.1 (+https://example.org)", "MyBackup"),
            ("", "Unknown browser"),
            ("   ", "Unknown browser"),
        ]
        for (agent, expected) in cases {
            #expect(DeviceDescription.of(userAgent: agent) == expected, "\(agent)")
        }
    }

    @Test("where an address is, in words")
    func places() {
        let cases: [(String?, String)] = [
            ("127.0.0.1", "This computer"), ("::1", "This computer"), ("::ffff:127.0.0.1", "This computer"),
            ("192.168.1.20", "Local network"), ("10.1.2.3", "Local network"), ("172.20.0.5", "Local network"),
            ("172.32.0.5", "Internet"), ("100.64.0.1", "Local network"), ("fd12:3456::1", "Local network"), ("fe80::1", "Local network"),
            ("203.0.113.7", "Internet"), ("2001:db8::1", "Internet"), ("", "Unknown"), (nil, "Unknown"), ("not an address", "Unknown"),
        ]
        for (address, expected) in cases {
            #expect(NetworkPlace.of(address) == expected, "\(address ?? "nil")")
        }
        #expect(AccountStore.clipped("ab€cd", to: 4) == "ab")
        #expect(AccountStore.clipped(String(repeating: "x", count: 600), to: 512).utf8.count == 512)
    }
}

@Suite("How many sign-ins an account keeps")
struct SignInCapTests {
    @Test("signing in past the cap signs out the session used least recently; waiting second factors are capped too")
    func caps() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let accounts = services.accounts
            let user = try #require(try accounts.users().first)
            let (firstSecret, _) = try accounts.createSession(userID: user.id, lifetime: 3600, userAgent: "first", address: "")
            #expect(try accounts.session(secret: firstSecret) != nil)
            for _ in 0..<AccountStore.maximumSessionsPerAccount {
                _ = try accounts.createSession(userID: user.id, lifetime: 3600, userAgent: "", address: "")
            }
            #expect(try accounts.sessions(userID: user.id).count == AccountStore.maximumSessionsPerAccount)
            // The first one (and the owner's set-up session before it) ended, at once.
            #expect(try accounts.session(secret: firstSecret) == nil)
            #expect(try await owner.request(.get, "/api/v1/session").status == .unauthorized)

            let firstChallenge = try accounts.createSignInChallenge(userID: user.id, lifetime: 300)
            var last = ""
            for _ in 0..<AccountStore.maximumChallengesPerAccount {
                last = try accounts.createSignInChallenge(userID: user.id, lifetime: 300)
            }
            #expect(try accounts.signInChallenge(secret: firstChallenge) == nil)
            #expect(try accounts.signInChallenge(secret: last)?.id == user.id)
            let waiting = try accounts.read { db in
                try db.values("SELECT count(*) FROM signInChallenge WHERE userID = ?", [user.id], as: Int.self).first ?? 0
            }
            #expect(waiting == AccountStore.maximumChallengesPerAccount)
        }
    }
}
