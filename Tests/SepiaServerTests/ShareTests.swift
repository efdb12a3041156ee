import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaLibrary
import Testing

@testable import SepiaServer

@Suite("Share links")
struct ShareTests {
    struct Share: Decodable {
        var id: String
        var url: String
        var kind: String
    }

    static func token(of share: Share) -> String {
        String(share.url.split(separator: "/").last ?? "")
    }

    @Test("a photo's link shows its current version and nothing else: no other photo, no metadata unless chosen")
    func photoLink() async throws {
        try await TestServer().withOwner { owner in
            let gps = try Data(contentsOf: URL(fileURLWithPath: TestServerFixtures.photo("gps-datetime.jpg")))
            let shared = try JSONDecoder.api.decode(
                UploadBody.self, from: Data(buffer: try await owner.upload(gps, filename: "secret-place.jpg").body)
            ).id
            let other = try await owner.uploadNew(2)
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(shared)/edit", json: RenditionTests.noir)
            let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(shared)"}"#, expect: .created)
            #expect(share.kind == "asset" && share.url.contains("/s/"))
            let visitor = owner.anonymous
            let page = try await visitor.request(.get, "/api/v1/shared/\(Self.token(of: share))")
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains(shared) && !text.contains(other))
            #expect(!text.contains("37.77") && !text.contains("secret-place") && !text.contains("latitude"))
            let image = try await visitor.request(.get, "/api/v1/shared/\(Self.token(of: share))/assets/\(shared)/image?size=64")
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
            // The edited version is what the link shows: the same bytes the owner gets.
            let ownerImage = try await owner.request(.get, "/api/v1/assets/\(shared)/image?size=64")
            #expect(image.headers[.eTag] == ownerImage.headers[.eTag])
            #expect(try await visitor.request(.get, "/api/v1/shared/\(Self.token(of: share))/assets/\(other)/image").status == .notFound)
            #expect(try await visitor.request(.get, "/api/v1/assets/\(shared)/image").status == .unauthorized)
            // With metadata chosen, the place is shown.
            let withMetadata = try await owner.json(
                Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(shared)", "includeMetadata": true}"#, expect: .created)
            #expect(String(buffer: try await visitor.request(.get, "/api/v1/shared/\(Self.token(of: withMetadata))").body).contains("37.77"))
            // Revoked: gone at once.
            #expect(try await owner.request(.delete, "/api/v1/shares/\(share.id)").status == .noContent)
            #expect(try await visitor.request(.get, "/api/v1/shared/\(Self.token(of: share))").status == .notFound)
        }
    }

    @Test("without --public-url, links never follow a Host the client invents; they use the address the client reached")
    func linksIgnoreForeignHosts() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let port = try #require(client.port)
            let id = try await owner.uploadNew(7)
            func shareURL(host: String) throws -> String {
                let body = Data(#"{"assetID": "\#(id)"}"#.utf8)
                let response = try RawHTTP(port: port).request(
                    "POST", "/api/v1/shares",
                    headers: [
                        "Host": host, "Content-Type": "application/json", "Cookie": "sepia_session=" + owner.cookie!, "X-CSRF-Token": owner.csrf!,
                    ], body: body, replacingHost: true)
                #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
                let share = try JSONDecoder.api.decode(Share.self, from: response.body)
                return share.url
            }
            let reached = "http://127.0.0.1:\(port)/s/"
            #expect(try shareURL(host: "evil.example").hasPrefix(reached))
            #expect(try shareURL(host: "evil.example:\(port)").hasPrefix(reached))
            #expect(try shareURL(host: "127.0.0.1:1").hasPrefix(reached), "another port is another server")
            #expect(try shareURL(host: "127.0.0.1:\(port)").hasPrefix(reached))
            #expect(try shareURL(host: "localhost:\(port)").hasPrefix("http://localhost:\(port)/s/"))
            // Invitation links too.
            struct Invitation: Decodable { var url: String }
            let invitation = try RawHTTP(port: port).request(
                "POST", "/api/v1/users/invitations",
                headers: [
                    "Host": "evil.example", "Content-Type": "application/json", "Cookie": "sepia_session=" + owner.cookie!,
                    "X-CSRF-Token": owner.csrf!,
                ],
                body: Data("{}".utf8), replacingHost: true)
            #expect(try JSONDecoder.api.decode(Invitation.self, from: invitation.body).url.hasPrefix("http://127.0.0.1:\(port)/setup?token="))
        }
    }

    @Test("a Host names this server only as its own address and port, or localhost on loopback")
    func hostMatching() {
        #expect(ServerServices.authority("127.0.0.1:8080", names: "127.0.0.1", port: 8080))
        #expect(ServerServices.authority("LOCALHOST:8080", names: "127.0.0.1", port: 8080))
        #expect(ServerServices.authority("[::1]:8080", names: "::1", port: 8080))
        #expect(ServerServices.authority("[0:0:0:0:0:0:0:1]:8080", names: "::1", port: 8080))
        #expect(ServerServices.authority("192.0.2.7", names: "192.0.2.7", port: 80))
        #expect(!ServerServices.authority("192.0.2.7", names: "192.0.2.7", port: 8080))
        #expect(!ServerServices.authority("localhost:8080", names: "192.0.2.7", port: 8080))
        #expect(!ServerServices.authority("evil.example:8080", names: "127.0.0.1", port: 8080))
        #expect(!ServerServices.authority("127.0.0.1:8080@evil.example", names: "127.0.0.1", port: 8080))
        #expect(!ServerServices.authority("[::1", names: "::1", port: 80))
    }

    @Test("an album's link lists its photos; expired links answer 410")
    func albumLinkAndExpiry() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let inside = try await owner.uploadNew(3)
            let outside = try await owner.uploadNew(4)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Holiday"}"#, expect: .created)
            _ = try await owner.request(.post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": ["\#(inside)"]}"#)
            let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album.id)"}"#, expect: .created)
            let text = String(buffer: try await owner.anonymous.request(.get, "/api/v1/shared/\(Self.token(of: share))").body)
            #expect(text.contains("Holiday") && text.contains(inside) && !text.contains(outside))
            let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
            #expect(
                try await owner.request(.post, "/api/v1/shares", json: #"{"albumID": "\#(album.id)", "expiresAt": "\#(past)"}"#).status
                    == .unprocessableContent)
            // Given a link with an expiry, once that moment has passed (set in the database rather than waited
            // for)…
            let tomorrow = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
            let brief = try await owner.json(
                Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album.id)", "expiresAt": "\#(tomorrow)"}"#, expect: .created)
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/\(Self.token(of: brief))").status == .ok)
            _ = try services.accounts.database.write { db in
                try db.execute("UPDATE shareLink SET expiresAt = ? WHERE id = ?", [db.dialect.date(Date().addingTimeInterval(-1)), brief.id])
            }
            // …it answers 410.
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/\(Self.token(of: brief))").status == .gone)
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/nonsense").status == .notFound)
        }
    }
}
