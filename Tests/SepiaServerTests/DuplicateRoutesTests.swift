import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaServer

@Suite("Duplicates through the API: groups hashed in the background, the one to keep, not duplicates, a limited token's view")
struct DuplicateRoutesTests {
    struct AssetBody: Decodable {
        var id: String
        var originalFilename: String
        var width: Int
    }

    struct Group: Decodable {
        var id: String
        var keepAssetID: String
        var keepReason: String
        var assets: [AssetBody]
        var distances: [String: Int]
    }

    struct Duplicates: Decodable {
        var groups: [Group]
        var total: Int
        var hashedAssets: Int
        var waitingAssets: Int
        var unreadableAssets: Int
    }

    struct UploadBody: Decodable {
        var id: String
    }

    struct AlbumBody: Decodable {
        var id: String
    }

    static func jpeg(seed: UInt64, width: Int, height: Int, quality: Int = 92) -> Data {
        let bitmap = Bitmap(width: width, height: height, layout: .rgb, bytes: TestScenes.rgb(seed: seed, width: width, height: height))
        return Data(try! ImageEncoding.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: quality)))
    }

    @Test("uploads are compared in the background; copies form one group with the largest first; dismissals and their undo")
    func duplicatesThroughTheAPI() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Trip"}"#, expect: .created)
            let files: [(String, Data, String)] = [
                ("large.jpg", Self.jpeg(seed: 5, width: 800, height: 600), "&album=\(album.id)"),
                ("small.jpg", Self.jpeg(seed: 5, width: 400, height: 300), ""),
                ("q50.jpg", Self.jpeg(seed: 5, width: 800, height: 600, quality: 50), "&album=\(album.id)"),
                ("other.jpg", Self.jpeg(seed: 6, width: 800, height: 600), "&album=\(album.id)"),
            ]
            var ids: [String: String] = [:]
            for (name, data, query) in files {
                let response = try await owner.upload(data, filename: name, query: query)
                #expect(response.status == .created, "\(name): \(String(buffer: response.body))")
                ids[name] = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id
            }
            // The server hashes new photos in the background.
            var found = try await owner.json(Duplicates.self, .get, "/api/v1/duplicates")
            let deadline = ContinuousClock.now + .seconds(300)  // a deadline for failing, not a timing target
            while found.waitingAssets > 0 || found.hashedAssets < 4, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                found = try await owner.json(Duplicates.self, .get, "/api/v1/duplicates")
            }
            #expect(found.hashedAssets == 4 && found.waitingAssets == 0 && found.unreadableAssets == 0)
            try #require(found.total == 1 && found.groups.count == 1, "\(found.groups.map { $0.assets.map(\.originalFilename) })")
            let group = found.groups[0]
            #expect(Set(group.assets.map(\.originalFilename)) == ["large.jpg", "small.jpg", "q50.jpg"])
            #expect(group.keepAssetID == ids["large.jpg"] && group.assets[0].id == ids["large.jpg"])
            // The two full-size copies tie on pixels, metadata and format: the earlier upload, or the larger file, wins.
            #expect(["largest", "least compressed", "earliest"].contains { group.keepReason.contains($0) }, "\(group.keepReason)")
            #expect(group.distances[group.keepAssetID] == 0 && group.distances.count == 3)

            // Paging and the threshold's bounds.
            #expect(try await owner.json(Duplicates.self, .get, "/api/v1/duplicates?offset=1").groups.isEmpty)
            #expect(try await owner.request(.get, "/api/v1/duplicates?threshold=16").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/duplicates?limit=0").status == .badRequest)

            // A token limited to the album sees the pair in it, and no counts of the whole library.
            let limited = try await owner.token("read-write", albums: [album.id])
            let narrow = try await limited.json(Duplicates.self, .get, "/api/v1/duplicates")
            #expect(narrow.groups.map { Set($0.assets.map(\.originalFilename)) } == [["large.jpg", "q50.jpg"]])
            #expect(narrow.hashedAssets == 0 && narrow.waitingAssets == 0)
            // It may not name a photo outside its album, and a read token may not dismiss.
            let outside = #"{"assets": ["\#(ids["large.jpg"]!)", "\#(ids["small.jpg"]!)"]}"#
            #expect(try await limited.request(.post, "/api/v1/duplicates/dismissals", json: outside).status == .notFound)
            let reader = try await owner.token("read")
            #expect(try await reader.request(.post, "/api/v1/duplicates/dismissals", json: outside).status == .forbidden)
            #expect(try await owner.request(.post, "/api/v1/duplicates/dismissals", json: #"{"assets": ["x"]}"#).status == .unprocessableContent)

            // Keep all: the group is gone, for good until undone.
            let all = #"{"assets": [\#(group.assets.map { "\"\($0.id)\"" }.joined(separator: ","))]}"#
            #expect(try await owner.request(.post, "/api/v1/duplicates/dismissals", json: all).status == .noContent)
            #expect(try await owner.json(Duplicates.self, .get, "/api/v1/duplicates").total == 0)
            #expect(try await owner.request(.delete, "/api/v1/duplicates/dismissals", json: all).status == .noContent)
            #expect(try await owner.json(Duplicates.self, .get, "/api/v1/duplicates").total == 1)

            // Resolving: the others to Recently Deleted in one request; recovered, the group is back.
            let others = group.assets.dropFirst().map { "\"\($0.id)\"" }.joined(separator: ",")
            #expect(try await owner.request(.post, "/api/v1/assets/delete", json: #"{"ids": [\#(others)]}"#).status == .ok)
            #expect(try await owner.json(Duplicates.self, .get, "/api/v1/duplicates").total == 0)
            #expect(try await owner.request(.post, "/api/v1/assets/recover", json: #"{"ids": [\#(others)]}"#).status == .ok)
            #expect(try await owner.json(Duplicates.self, .get, "/api/v1/duplicates").total == 1)
        }
    }
}
