import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Albums and the timeline")
struct AlbumRoutesTests {
    @Test("albums are created, filled, reordered, emptied, renamed and deleted; their photos stay")
    func albumLifecycle() async throws {
        try await TestServer().withOwner { owner in
            var ids: [String] = []
            for seed in 0..<4 { ids.append(try await owner.uploadNew(seed)) }
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "  Lisbon  "}"#, expect: .created)
            #expect(album.title == "Lisbon" && album.assetCount == 0)
            let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
            let filled = try await owner.json(AlbumBody.self, .post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": [\#(list)]}"#)
            #expect(filled.assetCount == 4 && filled.coverAssetID == ids[0])
            func order() async throws -> [String] {
                try await owner.json(PageBody.self, .get, "/api/v1/assets?album=\(album.id)").assets.map(\.id)
            }
            #expect(try await order() == ids)
            // Move the last photo to the front, as a drag in the album would.
            _ = try await owner.json(AlbumBody.self, .post, "/api/v1/albums/\(album.id)/assets/move", json: #"{"ids": ["\#(ids[3])"], "index": 0}"#)
            #expect(try await order() == [ids[3], ids[0], ids[1], ids[2]])
            let past = try await owner.request(.post, "/api/v1/albums/\(album.id)/assets/move", json: #"{"ids": ["\#(ids[3])"], "index": 9}"#)
            #expect(past.status == .unprocessableContent)
            _ = try await owner.json(AlbumBody.self, .post, "/api/v1/albums/\(album.id)/assets/remove", json: #"{"ids": ["\#(ids[0])"]}"#)
            #expect(try await order() == [ids[3], ids[1], ids[2]])
            let renamed = try await owner.json(AlbumBody.self, .patch, "/api/v1/albums/\(album.id)", json: #"{"title": "Porto"}"#)
            #expect(renamed.title == "Porto")
            #expect(try await owner.request(.patch, "/api/v1/albums/\(album.id)", json: #"{"title": " "}"#).status == .unprocessableContent)
            #expect(try await owner.request(.delete, "/api/v1/albums/\(album.id)").status == .noContent)
            #expect(try await owner.request(.get, "/api/v1/albums/\(album.id)").status == .notFound)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 4)
        }
    }

    @Test("the album list has the smart albums with their counts; the timeline counts years and months, newest first")
    func smartAlbumsAndTimeline() async throws {
        try await TestServer().withOwner { owner in
            let a = try await owner.uploadNew(1, query: "&modified=2020-05-01T10:00:00Z")
            _ = try await owner.uploadNew(2, query: "&modified=2020-08-01T10:00:00Z")
            _ = try await owner.uploadNew(3, query: "&modified=2022-01-01T10:00:00Z")
            _ = try await owner.request(.patch, "/api/v1/assets/\(a)", json: #"{"isFavorite": true}"#)
            struct Albums: Decodable {
                var albums: [AlbumBody]
                var smartAlbums: [AlbumBody]
            }
            let albums = try await owner.json(Albums.self, .get, "/api/v1/albums")
            #expect(
                albums.smartAlbums.map(\.id) == [
                    "smart/recents", "smart/favorites", "smart/videos", "smart/livePhotos", "smart/edited", "smart/hidden",
                    "smart/recentlyDeleted",
                ])
            #expect(albums.smartAlbums.first { $0.id == "smart/favorites" }?.assetCount == 1)
            struct Collections: Decodable {
                struct Collection: Decodable {
                    var id: String
                    var assetCount: Int
                    var title: String
                }
                var collections: [Collection]
            }
            let years = try await owner.json(Collections.self, .get, "/api/v1/collections/years")
            #expect(years.collections.map(\.id) == ["2022", "2020"])
            let months = try await owner.json(Collections.self, .get, "/api/v1/collections/months")
            #expect(months.collections.map(\.id) == ["2022-01", "2020-08", "2020-05"])
            #expect(months.collections.last?.title == "May 2020")
            let in2020 = try await owner.json(Collections.self, .get, "/api/v1/collections/months?year=2020")
            #expect(in2020.collections.map(\.assetCount) == [1, 1])
        }
    }
}
