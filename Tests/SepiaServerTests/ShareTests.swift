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
