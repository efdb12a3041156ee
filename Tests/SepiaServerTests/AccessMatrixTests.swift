import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SepiaLibrary
import SepiaVision
import Synchronization
import Testing

@testable import SepiaServer

/// Every route the server registers, called with every kind of credential, against a live server on
/// loopback, with the exact status each must get. A route added without a row here fails the test.
@Suite("The access matrix")
struct AccessMatrixTests {
    /// The credentials, in the order of the matrix's columns.
    enum Credential: String, CaseIterable, Sendable {
        case none
        /// The cookie of a session that has ended.
        case expired
        /// A share link's token sent as if it were an API token.
        case share
        /// The owner's session.
        case owner
        /// The owner's API tokens.
        case read, add, rw
        /// A read-write token limited to album A, aimed at what is in A…
        case limitedIn
        /// …and at what is outside it.
        case limitedOut
        /// Another user's session and read-write token, aimed at the owner's photos and albums.
        case guest, guestToken
    }

    /// One route: its method and path as registered, the expected status per credential, and how to make
    /// the request (the path with its parameters filled in and a body).
    struct Row: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var expected: [Int]
        var request: @Sendable (World, Credential) async throws -> (path: String, json: String?, bytes: [UInt8]?)

        init(
            _ method: HTTPRequest.Method, _ path: String, _ expected: String,
            _ request: @escaping @Sendable (World, Credential) async throws -> (path: String, json: String?, bytes: [UInt8]?)
        ) {
            self.method = method
            self.path = path
            self.expected = expected.split(separator: " ").compactMap { Int($0) }
            self.request = request
        }
    }

    /// What the rows aim at: the owner's album A (with a photo in it) and album B, photos in Recently Deleted
    /// (one that was in A, one that was not), share links, and how to make more.
    struct World: Sendable {
        /// The owner's read-write token: it outlives every session the rows end.
        let owner: Client
        let albumA: String
        let albumB: String
        let assetIn: String
        let assetOut: String
        let shareToken: String
        let webRoot: String
        /// Photos in Recently Deleted: one that was in album A, one that was not.
        let deletedIn: String
        let deletedOut: String
        /// A link to album A (which has `deletedIn` among its members), and a link to a photo since deleted.
        let albumShareToken: String
        let deletedShareToken: String
        /// The owner's library, where faces are recorded as indexing would (no models needed).
        let library: PhotoLibrary
        /// A face in `assetIn` and one in `assetOut`, and a person, Ana, who has neither.
        let faceIn: String
        let faceOut: String
        let person: String
        let counter = Counter()

        /// A photo of the owner's, in album A for `limitedIn`-style targets, else outside it.
        func asset(for credential: Credential) -> String { credential == .limitedOut ? assetOut : assetIn }
        func album(for credential: Credential) -> String { credential == .limitedOut ? albumB : albumA }
        /// A photo of the owner's in Recently Deleted, from album A for `limitedIn`-style targets, else not.
        func deleted(for credential: Credential) -> String { credential == .limitedOut ? deletedOut : deletedIn }

        /// A new photo in Recently Deleted (from album A unless aimed at `limitedOut`), for a request that
        /// recovers or deletes it.
        func freshDeleted(for credential: Credential) async throws -> String {
            let id = try await freshAsset(for: credential)
            _ = try await owner.request(.delete, "/api/v1/assets/" + id)
            return id
        }

        /// A new photo for a request that deletes or changes one for good.
        func freshAsset(for credential: Credential) async throws -> String {
            let id = try await owner.uploadNew(10_000 + counter.next())
            if credential != .limitedOut {
                _ = try await owner.request(.post, "/api/v1/albums/\(albumA)/assets", json: #"{"ids": ["\#(id)"]}"#)
            }
            return id
        }

        /// A face for `limitedIn`-style targets (in album A), else outside it.
        func face(for credential: Credential) -> String { credential == .limitedOut ? faceOut : faceIn }

        /// A new face (in a new photo, in album A unless aimed at `limitedOut`), Ana's, for a request that takes it
        /// from her.
        func freshFace(for credential: Credential) async throws -> String {
            let asset = try await freshAsset(for: credential)
            let face = try TestFaces.record(in: library, asset: asset, seed: 30_000 + counter.next())
            try library.assignFace(face, toPerson: person)
            return face
        }

        /// A new person (a new photo's face, named), for a merge.
        func freshPerson() async throws -> String {
            let asset = try await freshAsset(for: .owner)
            let face = try TestFaces.record(in: library, asset: asset, seed: 40_000 + counter.next())
            try library.assignFace(face, toPersonNamed: "Someone \(counter.next())")
            guard let person = try library.face(face).personID else { throw LibraryError(.notFound, "the face has no person") }
            return person
        }

        /// The token that undoes taking a new face from Ana, made by the owner.
        func undoToken() async throws -> String {
            struct Rejected: Decodable { var undo: String }
            return try await owner.json(Rejected.self, .delete, "/api/v1/faces/\(try await freshFace(for: .owner))/person").undo
        }

        /// A new saved search of the owner's, for a request that changes or deletes it.
        func savedSearch() async throws -> String {
            struct Saved: Decodable { var id: String }
            let title = "Saved \(counter.next())"
            return try await owner.json(Saved.self, .post, "/api/v1/searches", json: #"{"title": "\#(title)", "query": "photo"}"#, expect: .created)
                .id
        }

        func freshAlbum(for credential: Credential) async throws -> String {
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Fresh"}"#, expect: .created)
            return album.id
        }

        /// A new session of the owner's (some rows end sessions).
        func session() async throws -> Client {
            try await owner.anonymous.login("owner")
        }

        func invitation() async throws -> String {
            struct Invitation: Decodable { var url: String }
            let invitation = try await session().json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            return String(invitation.url.split(separator: "token=").last ?? "")
        }

        /// A file the web app has in `folder`, or a name that is not there.
        func webFile(_ folder: String) -> String {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: webRoot + "/" + folder)) ?? []
            return "/" + folder + "/" + (names.sorted().first { !$0.hasPrefix(".") } ?? "missing.txt")
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }

    static let recipe = #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CISepiaTone"}]}"#
    /// An XMP sidecar with a rating.
    static let sidecar =
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
        + #"<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="2"/></rdf:RDF></x:xmpmeta>"#

    //                                     none exp share owner read add  rw  in  out guest gtok
    static let rows: [Row] = [
        // Public: the web app, health, setup, sign-in, the filters, share links.
        Row(.get, "/", "                   200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/", nil, nil) },
        Row(.get, "/setup", "              200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/setup", nil, nil) },
        Row(.get, "/login", "              200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/login", nil, nil) },
        Row(.get, "/s/{token}", "           200 200 200 200 200 200 200 200 200 200 200") { w, _ in ("/s/" + w.shareToken, nil, nil) },
        Row(.get, "/app/**", "             200 200 200 200 200 200 200 200 200 200 200") { w, _ in (w.webFile("app"), nil, nil) },
        Row(.get, "/styles/**", "          200 200 200 200 200 200 200 200 200 200 200") { w, _ in (w.webFile("styles"), nil, nil) },
        Row(.get, "/v/{version}/app/**", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in ("/v/0" + w.webFile("app"), nil, nil) },
        Row(.get, "/v/{version}/styles/**", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in ("/v/0" + w.webFile("styles"), nil, nil) },
        Row(.get, "/icons/**", "           *") { w, _ in (w.webFile("icons"), nil, nil) },
        Row(.get, "/favicon.svg", "        200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/favicon.svg", nil, nil) },
        Row(.get, "/manifest.webmanifest", "200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/manifest.webmanifest", nil, nil) },
        Row(.get, "/vendor/leaflet/**", "  200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/vendor/leaflet/leaflet.js", nil, nil) },
        Row(.get, "/map/countries.geojson", "200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/map/countries.geojson", nil, nil) },
        Row(.get, "/health", "             200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/health", nil, nil) },
        // Loopback clients get the metrics whatever they send (the in-process test covers other clients).
        Row(.get, "/metrics", "            200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/metrics", nil, nil) },
        Row(.get, "/api/v1/setup/{token}", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in
            ("/api/v1/setup/" + (try await w.invitation()), nil, nil)
        },
        Row(.post, "/api/v1/setup", "      201 201 201 201 201 201 201 201 201 201 201") { w, _ in
            let token = try await w.invitation()
            return ("/api/v1/setup", #"{"token": "\#(token)", "username": "user\#(w.counter.next())", "password": "correct horse battery"}"#, nil)
        },
        Row(.post, "/api/v1/session", "    200 200 200 200 200 200 200 200 200 200 200") { _, _ in
            ("/api/v1/session", #"{"username": "owner", "password": "correct horse battery"}"#, nil)
        },
        // A challenge no right password made: refused whatever else the request carries.
        Row(.post, "/api/v1/session/second-factor", "401 401 401 401 401 401 401 401 401 401 401") { _, _ in
            ("/api/v1/session/second-factor", #"{"challenge": "\#(String(repeating: "A", count: 43))", "code": "123456"}"#, nil)
        },
        Row(.get, "/api/v1/filters", "     200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/api/v1/filters", nil, nil) },
        Row(.get, "/api/v1/filters/catalog", "200 200 200 200 200 200 200 200 200 200 200") { _, _ in ("/api/v1/filters/catalog", nil, nil) },
        Row(.get, "/api/v1/filters/adjustments", "200 200 200 200 200 200 200 200 200 200 200") { _, _ in
            ("/api/v1/filters/adjustments", nil, nil)
        },
        Row(.get, "/api/v1/shared/{token}", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in ("/api/v1/shared/" + w.shareToken, nil, nil) },
        Row(.get, "/api/v1/shared/{token}/assets/{id}/image", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in
            ("/api/v1/shared/\(w.shareToken)/assets/\(w.assetIn)/image?size=64", nil, nil)
        },
        // The matrix's link allows downloads (links that do not: DownloadTests).
        Row(.get, "/api/v1/shared/{token}/download", "200 200 200 200 200 200 200 200 200 200 200") { w, _ in
            ("/api/v1/shared/\(w.shareToken)/download", nil, nil)
        },
        // The shared photo has no motion: the same 404 whatever the credential (videos: VideoUploadTests).
        Row(.get, "/api/v1/shared/{token}/assets/{id}/video", "404 404 404 404 404 404 404 404 404 404 404") { w, _ in
            ("/api/v1/shared/\(w.shareToken)/assets/\(w.assetIn)/video", nil, nil)
        },

        // Any credential.
        Row(.get, "/api/v1/session", "     401 401 401 200 200 200 200 200 200 200 200") { _, _ in ("/api/v1/session", nil, nil) },

        // The account: sessions only.
        Row(.delete, "/api/v1/session", "  401 401 401 204 403 403 403 403 403 204 403") { _, _ in ("/api/v1/session", nil, nil) },
        Row(.put, "/api/v1/account/password", "401 401 401 204 403 403 403 403 403 204 403") { _, _ in
            ("/api/v1/account/password", #"{"currentPassword": "correct horse battery", "newPassword": "correct horse battery"}"#, nil)
        },
        Row(.get, "/api/v1/account/two-factor", "401 401 401 200 403 403 403 403 403 200 403") { _, _ in
            ("/api/v1/account/two-factor", nil, nil)
        },
        Row(.post, "/api/v1/account/two-factor/setup", "401 401 401 200 403 403 403 403 403 200 403") { _, _ in
            ("/api/v1/account/two-factor/setup", #"{"password": "correct horse battery"}"#, nil)
        },
        // After the row above, an authenticator waits for its first code: this one is not it.
        Row(.post, "/api/v1/account/two-factor/confirm", "401 401 401 422 403 403 403 403 403 422 403") { _, _ in
            ("/api/v1/account/two-factor/confirm", #"{"code": "12345x"}"#, nil)
        },
        Row(.post, "/api/v1/account/two-factor/recovery-codes", "401 401 401 409 403 403 403 403 403 409 403") { _, _ in
            ("/api/v1/account/two-factor/recovery-codes", #"{"password": "correct horse battery"}"#, nil)
        },
        Row(.post, "/api/v1/account/two-factor/off", "401 401 401 204 403 403 403 403 403 204 403") { _, _ in
            ("/api/v1/account/two-factor/off", #"{"password": "correct horse battery"}"#, nil)
        },
        Row(.get, "/api/v1/account/sessions", "401 401 401 200 403 403 403 403 403 200 403") { _, _ in
            ("/api/v1/account/sessions", nil, nil)
        },
        // Aimed at a spare session of the owner's: another user gets 404, as for a session that is not there.
        Row(.delete, "/api/v1/account/sessions/{id}", "401 401 401 204 403 403 403 403 403 404 403") { w, _ in
            struct Listed: Decodable {
                struct Session: Decodable {
                    var id: String
                    var current: Bool
                }
                var sessions: [Session]
            }
            let spare = try await w.session().json(Listed.self, .get, "/api/v1/account/sessions")
            return ("/api/v1/account/sessions/" + (spare.sessions.first { $0.current }?.id ?? ""), nil, nil)
        },
        Row(.post, "/api/v1/account/sessions/sign-out-others", "401 401 401 200 403 403 403 403 403 200 403") { _, _ in
            ("/api/v1/account/sessions/sign-out-others", nil, nil)
        },
        Row(.get, "/api/v1/tokens", "      401 401 401 200 403 403 403 403 403 200 403") { _, _ in ("/api/v1/tokens", nil, nil) },
        Row(.post, "/api/v1/tokens", "     401 401 401 201 403 403 403 403 403 201 403") { _, _ in
            ("/api/v1/tokens", #"{"name": "spare", "accessLevel": "read"}"#, nil)
        },
        Row(.delete, "/api/v1/tokens/{id}", "401 401 401 204 403 403 403 403 403 404 403") { w, _ in
            let spare = try await w.session().json(
                TokenBody.self, .post, "/api/v1/tokens", json: #"{"name": "spare", "accessLevel": "read"}"#, expect: .created)
            return ("/api/v1/tokens/" + spare.id, nil, nil)
        },
        Row(.get, "/api/v1/shares", "      401 401 401 200 403 403 403 403 403 200 403") { _, _ in ("/api/v1/shares", nil, nil) },
        Row(.post, "/api/v1/shares", "     401 401 401 201 403 403 403 403 403 422 403") { w, _ in
            ("/api/v1/shares", #"{"assetID": "\#(w.assetIn)"}"#, nil)
        },
        Row(.delete, "/api/v1/shares/{id}", "401 401 401 204 403 403 403 403 403 404 403") { w, _ in
            struct Share: Decodable { var id: String }
            let share = try await w.session().json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(w.assetIn)"}"#, expect: .created)
            return ("/api/v1/shares/" + share.id, nil, nil)
        },

        // Users: the owner's session only.
        Row(.get, "/api/v1/users", "       401 401 401 200 403 403 403 403 403 403 403") { _, _ in ("/api/v1/users", nil, nil) },
        Row(.post, "/api/v1/users/invitations", "401 401 401 201 403 403 403 403 403 403 403") { _, _ in
            ("/api/v1/users/invitations", "{}", nil)
        },
        Row(.delete, "/api/v1/users/{id}/two-factor", "401 401 401 204 403 403 403 403 403 403 403") { w, _ in
            let token = try await w.invitation()
            let user = try await Client.signUp(w.owner.client, setupToken: token, username: "member\(w.counter.next())")
            let id = try await user.json(SessionBody.self, .get, "/api/v1/session").user.id
            return ("/api/v1/users/\(id)/two-factor", nil, nil)
        },
        Row(.delete, "/api/v1/users/{id}", "401 401 401 204 403 403 403 403 403 403 403") { w, _ in
            let token = try await w.invitation()
            let victim = try await Client.signUp(w.owner.client, setupToken: token, username: "victim\(w.counter.next())")
            let id = try await victim.json(SessionBody.self, .get, "/api/v1/session").user.id
            return ("/api/v1/users/" + id, nil, nil)
        },

        // Reading the library.
        Row(.get, "/api/v1/assets", "      401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/assets", nil, nil) },
        Row(.get, "/api/v1/assets/{id}", "  401 401 401 200 200 403 200 200 404 404 404") { w, c in ("/api/v1/assets/" + w.asset(for: c), nil, nil) },
        Row(.get, "/api/v1/assets/{id}/image", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/image?size=64", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/original", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/original", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/current", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/current", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/resources", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/resources", nil, nil)
        },
        // The matrix's assets are photos, which have no motion: 404 where the photo may be read.
        Row(.get, "/api/v1/assets/{id}/video", "401 401 401 404 404 403 404 404 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/video", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/resources/{type}", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/resources/photo", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/edit", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/edit", nil, nil)
        },
        Row(.post, "/api/v1/assets/{id}/preview", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/preview", #"{"recipe": \#(recipe), "size": "64x64"}"#, nil)
        },
        Row(.get, "/api/v1/assets/{id}/strip", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/strip?size=32", nil, nil)
        },
        Row(.post, "/api/v1/assets/{id}/auto-adjust", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/auto-adjust", #"{"recipe": \#(recipe)}"#, nil)
        },
        Row(.get, "/api/v1/assets/{id}/preset-strip", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/preset-strip?size=32", nil, nil)
        },
        // Presets are each user's own (a guest reads and saves in their own library); a token limited to albums
        // may read them but not change them.
        Row(.get, "/api/v1/presets", "     401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/presets", nil, nil) },
        Row(.post, "/api/v1/presets", "    401 401 401 201 403 403 201 403 403 201 201") { w, _ in
            ("/api/v1/presets", #"{"name": "Preset \#(w.counter.next())", "recipe": \#(recipe)}"#, nil)
        },
        Row(.delete, "/api/v1/presets/{id}", "401 401 401 204 403 403 204 403 403 404 404") { w, _ in
            struct Preset: Decodable { var id: String }
            let preset = try await w.owner.json(
                Preset.self, .post, "/api/v1/presets", json: #"{"name": "Spare \#(w.counter.next())", "recipe": \#(recipe)}"#,
                expect: .created)
            return ("/api/v1/presets/" + preset.id, nil, nil)
        },
        Row(.get, "/api/v1/albums", "      401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/albums", nil, nil) },
        Row(.get, "/api/v1/albums/{id}", "  401 401 401 200 200 403 200 200 404 404 404") { w, c in ("/api/v1/albums/" + w.album(for: c), nil, nil) },
        Row(.get, "/api/v1/albums/{id}/download", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/albums/\(w.album(for: c))/download", nil, nil)
        },
        // A selection's ZIP: as downloading each original. The link opens with the account's own credentials only.
        Row(.post, "/api/v1/downloads", "  401 401 401 201 201 403 201 201 404 404 404") { w, c in
            ("/api/v1/downloads", #"{"ids": ["\#(w.asset(for: c))"]}"#, nil)
        },
        Row(.get, "/api/v1/downloads/{id}", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            struct Download: Decodable { var url: String }
            let made = try await w.owner.json(
                Download.self, .post, "/api/v1/downloads", json: #"{"ids": ["\#(w.asset(for: c))"]}"#, expect: .created)
            return (made.url, nil, nil)
        },
        Row(.get, "/api/v1/collections/years", "401 401 401 200 200 403 200 403 403 200 200") { _, _ in ("/api/v1/collections/years", nil, nil) },
        Row(.get, "/api/v1/collections/months", "401 401 401 200 200 403 200 403 403 200 200") { _, _ in ("/api/v1/collections/months", nil, nil) },
        Row(.get, "/api/v1/changes", "     401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/changes", nil, nil) },

        // Places: every credential that reads (a token limited to albums, its albums' places); the status counts
        // the whole library, so not to such a token.
        Row(.get, "/api/v1/places", "       401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/places", nil, nil) },
        Row(.get, "/api/v1/search", "       401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/search?q=photo", nil, nil) },
        Row(.get, "/api/v1/search/suggestions", "401 401 401 200 200 403 200 200 200 200 200") { _, _ in
            ("/api/v1/search/suggestions?q=li", nil, nil)
        },
        Row(.get, "/api/v1/map", "          401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/map", nil, nil) },
        Row(.get, "/api/v1/map/markers", "  401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/map/markers?zoom=3", nil, nil) },
        Row(.get, "/api/v1/places/status", "401 401 401 200 200 403 200 404 404 200 200") { _, _ in ("/api/v1/places/status", nil, nil) },

        // Smart albums from searches: every credential that reads lists them (a token limited to albums counts its
        // albums' photos); the credentials that change the whole library save, rename and delete them.
        Row(.get, "/api/v1/searches", "     401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/searches", nil, nil) },
        Row(.post, "/api/v1/searches", "    401 401 401 201 403 403 201 403 403 201 201") { w, _ in
            ("/api/v1/searches", #"{"title": "Saved \#(w.counter.next())", "query": "photo"}"#, nil)
        },
        Row(.patch, "/api/v1/searches/{id}", "401 401 401 200 403 403 200 403 403 404 404") { w, _ in
            ("/api/v1/searches/" + (try await w.savedSearch()), #"{"title": "Renamed"}"#, nil)
        },
        Row(.delete, "/api/v1/searches/{id}", "401 401 401 204 403 403 204 403 403 404 404") { w, _ in
            ("/api/v1/searches/" + (try await w.savedSearch()), nil, nil)
        },

        // Duplicates: every credential that reads (a token limited to albums, the groups among its albums' photos);
        // saying photos are not duplicates changes the library.
        Row(.get, "/api/v1/duplicates", "   401 401 401 200 200 403 200 200 200 200 200") { _, _ in ("/api/v1/duplicates", nil, nil) },
        Row(.post, "/api/v1/duplicates/dismissals", "401 401 401 204 403 403 204 204 404 404 404") { w, c in
            ("/api/v1/duplicates/dismissals", #"{"assets": ["\#(w.asset(for: c))", "\#(w.asset(for: c))"]}"#, nil)
        },
        Row(.delete, "/api/v1/duplicates/dismissals", "401 401 401 204 403 403 204 204 404 404 404") { w, c in
            ("/api/v1/duplicates/dismissals", #"{"assets": ["\#(w.asset(for: c))", "\#(w.asset(for: c))"]}"#, nil)
        },

        // People: every credential that reads the whole library (another user: their own, empty); none to a token
        // limited to albums, which sees the faces of its albums' photos and changes none.
        Row(.get, "/api/v1/people", "      401 401 401 200 200 403 200 404 404 200 200") { _, _ in ("/api/v1/people?hidden=true", nil, nil) },
        Row(.get, "/api/v1/people/status", "401 401 401 200 200 403 200 404 404 200 200") { _, _ in ("/api/v1/people/status", nil, nil) },
        Row(.get, "/api/v1/people/{id}", "  401 401 401 200 200 403 200 404 404 404 404") { w, _ in ("/api/v1/people/" + w.person, nil, nil) },
        Row(.get, "/api/v1/assets", "      401 401 401 200 200 403 200 404 404 404 404") { w, _ in ("/api/v1/assets?person=" + w.person, nil, nil) },
        Row(.get, "/api/v1/faces", "       401 401 401 200 200 403 200 404 404 200 200") { _, _ in ("/api/v1/faces?state=unassigned", nil, nil) },
        Row(.get, "/api/v1/assets/{id}/faces", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/faces", nil, nil)
        },
        Row(.get, "/api/v1/faces/{id}/image", "401 401 401 200 200 403 200 200 404 404 404") { w, c in
            ("/api/v1/faces/\(w.face(for: c))/image?size=32", nil, nil)
        },
        Row(.patch, "/api/v1/people/{id}", "401 401 401 200 403 403 200 404 404 404 404") { w, _ in
            ("/api/v1/people/" + w.person, #"{"isHidden": false}"#, nil)
        },
        Row(.post, "/api/v1/people/{id}/merge", "401 401 401 200 403 403 200 404 404 404 404") { w, _ in
            ("/api/v1/people/\(w.person)/merge", #"{"people": ["\#(try await w.freshPerson())"]}"#, nil)
        },
        // A token made in the owner's library undoes nothing in another's.
        Row(.post, "/api/v1/people/undo", "401 401 401 200 403 403 200 404 404 422 422") { w, _ in
            ("/api/v1/people/undo", #"{"undo": "\#(try await w.undoToken())"}"#, nil)
        },
        Row(.put, "/api/v1/people/settings", "401 401 401 200 403 403 200 404 404 200 200") { _, _ in
            ("/api/v1/people/settings", #"{"enabled": true}"#, nil)
        },
        Row(.put, "/api/v1/faces/{id}/person", "401 401 401 200 403 403 200 403 404 404 404") { w, c in
            ("/api/v1/faces/\(w.face(for: c))/person", #"{"personID": "\#(w.person)"}"#, nil)
        },
        Row(.delete, "/api/v1/faces/{id}/person", "401 401 401 200 403 403 200 403 404 404 404") { w, c in
            ("/api/v1/faces/\(try await w.freshFace(for: c))/person", nil, nil)
        },

        // Uploading: a limited token adds into its album, and may not name another.
        Row(.post, "/api/v1/assets", "     401 401 401 201 403 201 201 201 404 201 201") { w, c in
            let query = c == .limitedOut ? "&album=\(w.albumB)" : ""
            return ("/api/v1/assets?filename=new.jpg\(query)", nil, Array(TestImages.jpeg(20_000 + w.counter.next())))
        },

        // Changing the library.
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"isFavorite": true}"#, nil)
        },
        Row(.delete, "/api/v1/assets/{id}", "401 401 401 204 403 403 204 204 404 404 404") { w, c in
            ("/api/v1/assets/" + (try await w.freshAsset(for: c)), nil, nil)
        },
        Row(.patch, "/api/v1/assets", "    401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets", #"{"ids": ["\#(w.asset(for: c))"], "isHidden": false}"#, nil)
        },
        // Every metadata field of the two PATCH routes, and the listing's searches (a guest's own library is empty).
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"title": "T", "caption": "C"}"#, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"keywords": ["Places|France|Paris"], "rating": 3}"#, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"addKeywords": ["k"], "removeKeywords": ["k"], "title": null}"#, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"creationDate": "2020-01-02T03:04:05+09:00", "location": {"latitude": 1, "longitude": 2}}"#, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"revert": ["creationDate", "location"]}"#, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/" + w.asset(for: c), #"{"location": null}"#, nil)
        },
        Row(.patch, "/api/v1/assets", "    401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets", #"{"ids": ["\#(w.asset(for: c))"], "shiftCreationDate": {"seconds": 60, "timeZone": "+01:00"}, "rating": 1}"#, nil)
        },
        Row(.patch, "/api/v1/assets", "    401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets", #"{"ids": ["\#(w.asset(for: c))"], "keywords": null, "caption": null, "revert": ["creationDate"]}"#, nil)
        },
        Row(.get, "/api/v1/assets", "      401 401 401 200 200 403 200 200 200 200 200") { _, _ in
            ("/api/v1/assets?keyword=places%7Cfrance&search=t&minRating=1", nil, nil)
        },
        Row(.post, "/api/v1/assets/delete", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/delete", #"{"ids": ["\#(try await w.freshAsset(for: c))"]}"#, nil)
        },
        Row(.put, "/api/v1/assets/{id}/edit", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/edit", recipe, nil)
        },
        Row(.delete, "/api/v1/assets/{id}/edit", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/edit", nil, nil)
        },
        Row(.post, "/api/v1/albums", "     401 401 401 201 403 403 201 403 403 201 201") { _, _ in ("/api/v1/albums", #"{"title": "New"}"#, nil) },
        Row(.patch, "/api/v1/albums/{id}", "401 401 401 200 403 403 200 403 403 404 404") { w, c in
            ("/api/v1/albums/" + w.album(for: c), #"{"title": "Renamed"}"#, nil)
        },
        Row(.delete, "/api/v1/albums/{id}", "401 401 401 204 403 403 204 403 403 404 404") { w, c in
            ("/api/v1/albums/" + (c == .limitedIn ? w.albumA : try await w.freshAlbum(for: c)), nil, nil)
        },
        Row(.post, "/api/v1/albums/{id}/assets", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/albums/\(w.album(for: c))/assets", #"{"ids": ["\#(w.asset(for: c))"]}"#, nil)
        },
        Row(.post, "/api/v1/albums/{id}/assets/remove", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            let id = try await w.freshAsset(for: c)
            return ("/api/v1/albums/\(w.album(for: c))/assets/remove", #"{"ids": ["\#(c == .limitedOut ? w.assetOut : id)"]}"#, nil)
        },
        Row(.post, "/api/v1/albums/{id}/assets/move", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/albums/\(w.album(for: c))/assets/move", #"{"ids": ["\#(w.asset(for: c))"], "index": 0}"#, nil)
        },

        // Recently Deleted: seen, recovered and deleted for good by the credentials that may change the library
        // (one limited to albums: what was in them); gone, for every other, as if deleted for good.
        Row(.get, "/api/v1/recently-deleted", "401 401 401 200 403 403 200 200 200 200 200") { _, _ in ("/api/v1/recently-deleted", nil, nil) },
        // Not through the smart-album listing of GET /assets, for any credential.
        Row(.get, "/api/v1/assets", "      401 401 401 404 404 403 404 404 404 404 404") { _, _ in
            ("/api/v1/assets?album=smart/recentlyDeleted", nil, nil)
        },
        Row(.post, "/api/v1/assets/{id}/recover", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(try await w.freshDeleted(for: c))/recover", nil, nil)
        },
        Row(.post, "/api/v1/assets/recover", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/recover", #"{"ids": ["\#(try await w.freshDeleted(for: c))"]}"#, nil)
        },
        Row(.delete, "/api/v1/assets/{id}", "401 401 401 204 403 403 204 204 404 404 404") { w, c in
            ("/api/v1/assets/\(try await w.freshDeleted(for: c))?permanently=true", nil, nil)
        },
        Row(.post, "/api/v1/assets/delete", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/delete", #"{"ids": ["\#(try await w.freshDeleted(for: c))"], "permanently": true}"#, nil)
        },
        Row(.get, "/api/v1/assets/{id}", "401 401 401 200 404 403 200 200 404 404 404") { w, c in ("/api/v1/assets/" + w.deleted(for: c), nil, nil) },
        Row(.get, "/api/v1/assets/{id}/image", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/image?size=64", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/original", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/original", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/current", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/current", nil, nil)
        },
        // A sidecar uploaded with a photo changes it as the PATCH does.
        Row(.put, "/api/v1/assets/{id}/sidecar", "401 401 401 200 403 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.asset(for: c))/sidecar?filename=p.xmp", nil, Array(Self.sidecar.utf8))
        },
        Row(.get, "/api/v1/assets/{id}/resources", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/resources", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/resources/{type}", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/resources/photo", nil, nil)
        },
        Row(.get, "/api/v1/assets/{id}/edit", "401 401 401 200 404 403 200 200 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/edit", nil, nil)
        },
        // Changing a photo in Recently Deleted is a conflict: recover it first (the editor's strip too).
        Row(.get, "/api/v1/assets/{id}/strip", "401 401 401 409 404 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/strip?size=32", nil, nil)
        },
        Row(.post, "/api/v1/assets/{id}/auto-adjust", "401 401 401 409 404 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/auto-adjust", "{}", nil)
        },
        Row(.get, "/api/v1/assets/{id}/preset-strip", "401 401 401 409 404 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/preset-strip?size=32", nil, nil)
        },
        Row(.patch, "/api/v1/assets/{id}", "401 401 401 409 403 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/" + w.deleted(for: c), #"{"isFavorite": true}"#, nil)
        },
        Row(.put, "/api/v1/assets/{id}/edit", "401 401 401 409 403 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/edit", recipe, nil)
        },
        Row(.put, "/api/v1/assets/{id}/sidecar", "401 401 401 409 403 403 409 409 404 404 404") { w, c in
            ("/api/v1/assets/\(w.deleted(for: c))/sidecar", nil, Array(Self.sidecar.utf8))
        },
        // Selections and downloads name photos outside Recently Deleted only.
        Row(.post, "/api/v1/downloads", "  401 401 401 404 404 403 404 404 404 404 404") { w, c in
            ("/api/v1/downloads", #"{"ids": ["\#(w.deleted(for: c))"]}"#, nil)
        },
        Row(.post, "/api/v1/albums/{id}/assets", "401 401 401 404 403 403 404 404 404 404 404") { w, c in
            ("/api/v1/albums/\(w.album(for: c))/assets", #"{"ids": ["\#(w.deleted(for: c))"]}"#, nil)
        },
        // Share links never show a photo in Recently Deleted: the link to one, or one in a shared album.
        Row(.get, "/api/v1/shared/{token}", "404 404 404 404 404 404 404 404 404 404 404") { w, _ in
            ("/api/v1/shared/" + w.deletedShareToken, nil, nil)
        },
        Row(.get, "/api/v1/shared/{token}/assets/{id}/image", "404 404 404 404 404 404 404 404 404 404 404") { w, _ in
            ("/api/v1/shared/\(w.albumShareToken)/assets/\(w.deletedIn)/image?size=64", nil, nil)
        },
        Row(.get, "/api/v1/shared/{token}/download", "404 404 404 404 404 404 404 404 404 404 404") { w, _ in
            ("/api/v1/shared/\(w.deletedShareToken)/download", nil, nil)
        },
    ]

    @Test("every registered route has a row, and every row is a registered route")
    func everyRouteHasARow() throws {
        let services = try makeServices(TestServer().configuration)
        let registered = Set(
            buildRouter(services: services, logger: Logger(label: "test")).routes.map { "\($0.method) \(Self.normalized($0.path.description))" })
        let listed = Set(Self.rows.map { "\($0.method) \(Self.normalized($0.path))" })
        #expect(registered.subtracting(listed).sorted() == [], "routes without a row in the access matrix")
        #expect(listed.subtracting(registered).sorted() == [], "rows for routes the server does not register")
    }

    static func normalized(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    @Test("every route answers every credential with exactly the status the matrix gives")
    func matrix() async throws {
        // Faces are recorded by hand: the faces job, without models, records none over them.
        let server = TestServer { $0.faceIndexing.models = FaceModels(directory: $0.dataPath + "/no-face-models") }
        let (app, token, services) = try server.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let albumA = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "A"}"#, expect: .created).id
            let albumB = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "B"}"#, expect: .created).id
            let assetIn = try await owner.uploadNew(1)
            let assetOut = try await owner.uploadNew(2)
            _ = try await owner.request(.post, "/api/v1/albums/\(albumA)/assets", json: #"{"ids": ["\#(assetIn)"]}"#)
            struct Share: Decodable { var url: String }
            func shareToken(_ json: String) async throws -> String {
                let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: json, expect: .created)
                return String(share.url.split(separator: "/").last ?? "")
            }
            let share = try await shareToken(#"{"assetID": "\#(assetIn)", "allowDownload": true}"#)
            // Photos in Recently Deleted: one that was in album A, one that was not, and one a link showed.
            let deletedIn = try await owner.uploadNew(3)
            let deletedOut = try await owner.uploadNew(4)
            let deletedShared = try await owner.uploadNew(5)
            _ = try await owner.request(.post, "/api/v1/albums/\(albumA)/assets", json: #"{"ids": ["\#(deletedIn)"]}"#)
            let albumShare = try await shareToken(#"{"albumID": "\#(albumA)", "allowDownload": true}"#)
            let deletedShare = try await shareToken(#"{"assetID": "\#(deletedShared)", "allowDownload": true}"#)
            for id in [deletedIn, deletedOut, deletedShared] { _ = try await owner.request(.delete, "/api/v1/assets/" + id) }
            let library = try services.libraries.openOwnerLibrary().library
            let faceIn = try TestFaces.record(in: library, asset: assetIn, seed: 1)
            let faceOut = try TestFaces.record(in: library, asset: assetOut, seed: 2)
            let ana = try TestFaces.record(in: library, asset: try await owner.uploadNew(6), seed: 3)
            try library.assignFace(ana, toPersonNamed: "Ana")
            let person = try #require(try library.face(ana).personID)
            let world = World(
                owner: try await owner.token("read-write"), albumA: albumA, albumB: albumB, assetIn: assetIn, assetOut: assetOut,
                shareToken: share, webRoot: server.configuration.webRoot ?? "", deletedIn: deletedIn, deletedOut: deletedOut,
                albumShareToken: albumShare, deletedShareToken: deletedShare, library: library, faceIn: faceIn, faceOut: faceOut, person: person)
            let read = try await owner.token("read")
            let add = try await owner.token("add-only")
            let rw = try await owner.token("read-write")
            let limited = try await owner.token("read-write", albums: [albumA])
            struct Invitation: Decodable { var url: String }
            let guestInvitation = try await world.invitation()
            let guest = try await Client.signUp(client, setupToken: guestInvitation, username: "guest")
            let guestToken = try await guest.token("read-write")
            let ended = try await owner.login("owner")
            _ = try await ended.request(.delete, "/api/v1/session")

            func caller(_ credential: Credential) async throws -> Client {
                switch credential {
                case .none: return Client(client)
                case .expired: return Client(client, cookie: ended.cookie)
                case .share: return Client(client, bearer: world.shareToken)
                case .owner: return try await owner.login("owner")
                case .read: return read
                case .add: return add
                case .rw: return rw
                case .limitedIn, .limitedOut: return limited
                case .guest: return try await guest.login("guest")
                case .guestToken: return guestToken
                }
            }

            let port = try #require(client.port)
            for row in Self.rows {
                for (column, credential) in Credential.allCases.enumerated() {
                    let (path, json, bytes) = try await row.request(world, credential)
                    let caller = try await caller(credential)
                    let status: Int
                    if row.path == "/api/v1/changes" {
                        var headers: [String: String] = [:]
                        for field in caller.headers { headers[field.name.rawName] = field.value }
                        let stream = try EventStreamClient(port: port, path: path, headers: headers)
                        status = await stream.responseStatus() ?? 0
                        stream.close()
                    } else {
                        status = Int(try await caller.request(row.method, path, json: json, body: bytes).status.code)
                    }
                    let expected: Int
                    if row.expected.isEmpty {
                        expected = FileManager.default.fileExists(atPath: world.webRoot + path) ? 200 : 404
                    } else {
                        expected = row.expected[column]
                    }
                    #expect(status == expected, "\(row.method) \(row.path) as \(credential): \(status), expected \(expected)")
                }
            }
        }
    }
}
