import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Search: one box over words, places, kinds and dates; suggestions; a limited token's search")
struct SearchRoutesTests {
    struct Term: Decodable, Equatable {
        var kind: String
        var value: String
    }

    struct Found: Decodable {
        struct Item: Decodable { var id: String }
        var assets: [Item]
        var total: Int
        var nextCursor: String?
        var terms: [Term]
    }

    struct Suggestions: Decodable {
        struct Place: Decodable {
            var name: String
            var placeID: Int?
            var assetCount: Int
        }
        struct Album: Decodable { var title: String }
        var word: String
        var places: [Place]
        var keywords: [String]
        var albums: [Album]
    }

    struct AlbumBody: Decodable { var id: String }

    @Test("the query is read into terms; words, places and dates find their photos, paged; a limited token searches its albums")
    func searchThroughTheAPI() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Café trips"}"#, expect: .created)
            let a = try await owner.uploadNew(1, query: "&album=\(album.id)")
            let b = try await owner.uploadNew(2)
            let c = try await owner.uploadNew(3)
            _ = try await owner.request(
                .patch, "/api/v1/assets/\(a)",
                json:
                    #"{"title": "Pastéis de Belém", "creationDate": "2023-06-14T10:00:00+01:00", "location": {"latitude": 38.7139, "longitude": -9.1394}}"#
            )
            _ = try await owner.request(
                .patch, "/api/v1/assets/\(b)", json: #"{"keywords": ["Beach"], "creationDate": "2023-08-01T10:00:00+01:00", "isFavorite": true}"#)
            _ = try await owner.request(.patch, "/api/v1/assets/\(c)", json: #"{"caption": "pasteis again", "creationDate": "2021-01-01T10:00:00Z"}"#)

            let pasteis = try await owner.json(Found.self, .get, "/api/v1/search?q=PASTEIS")
            #expect(Set(pasteis.assets.map(\.id)) == [a, c] && pasteis.total == 2)
            #expect(pasteis.assets.map(\.id) == [a, c], "newest first")
            let summer = try await owner.json(Found.self, .get, "/api/v1/search?q=summer%202023%20favorites")
            #expect(summer.assets.map(\.id) == [b])
            #expect(summer.terms == [Term(kind: "season", value: "summer 2023"), Term(kind: "kind", value: "favorite")])
            #expect(try await owner.json(Found.self, .get, "/api/v1/search?q=lisbon").assets.map(\.id) == [a])
            #expect(try await owner.json(Found.self, .get, "/api/v1/search?q=cafe").assets.map(\.id) == [a])
            #expect(try await owner.json(Found.self, .get, "/api/v1/search?q=2023-06-14").assets.map(\.id) == [a])
            // Paged by cursor
            let first = try await owner.json(Found.self, .get, "/api/v1/search?q=2023&limit=1")
            let cursor = try #require(first.nextCursor)
            let second = try await owner.json(
                Found.self, .get, "/api/v1/search?q=2023&limit=1&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(first.total == 2 && first.assets.map(\.id) + second.assets.map(\.id) == [b, a])
            // Nothing asked, nothing found; too long, refused
            #expect(try await owner.json(Found.self, .get, "/api/v1/search?q=").total == 0)
            #expect(try await owner.request(.get, "/api/v1/search?q=" + String(repeating: "a", count: 201)).status == .badRequest)

            let suggestions = try await owner.json(Suggestions.self, .get, "/api/v1/search/suggestions?q=be%20lis")
            #expect(suggestions.word == "lis" && suggestions.places.map(\.name) == ["Lisbon"] && suggestions.places[0].assetCount == 1)
            #expect(try await owner.json(Suggestions.self, .get, "/api/v1/search/suggestions?q=bea").keywords == ["Beach"])

            // A token limited to the album finds only its photo, and is offered only its album
            let limited = try await owner.token("read", albums: [album.id])
            #expect(try await limited.json(Found.self, .get, "/api/v1/search?q=pasteis").assets.map(\.id) == [a])
            #expect(try await limited.json(Found.self, .get, "/api/v1/search?q=beach").total == 0)
            let narrow = try await limited.json(Suggestions.self, .get, "/api/v1/search/suggestions?q=ca")
            #expect(narrow.albums.map(\.title) == ["Café trips"] && narrow.places.isEmpty && narrow.keywords.isEmpty)
        }
    }
}

@Suite("Library queries per account")
struct LibraryQueryLimitTests {
    struct Session: Decodable {
        struct User: Decodable { var id: String }
        var user: User
    }

    @Test("an account with four library queries running is told to wait, on every query route and every credential of it")
    func queriesPerAccount() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let me = try await owner.json(Session.self, .get, "/api/v1/session")
            let reader = try await owner.token("read")
            let held = (0..<ServerServices.maximumQueriesPerAccount).compactMap { _ in services.libraryQueries.open(key: me.user.id) }
            #expect(held.count == ServerServices.maximumQueriesPerAccount)
            let routes = [
                "/api/v1/search?q=photo", "/api/v1/search/suggestions?q=li", "/api/v1/map/markers?zoom=2", "/api/v1/places",
                "/api/v1/duplicates",
            ]
            for route in routes {
                for client in [owner, reader] {
                    let refused = try await client.request(.get, route)
                    #expect(refused.status == .tooManyRequests, "\(route)")
                    #expect(refused.headers[.retryAfter] == "1", "\(route)")
                    #expect(String(buffer: refused.body).contains("at once"), "\(route)")
                }
            }
            held[0].close()
            for route in routes { #expect(try await reader.request(.get, route).status == .ok, "\(route)") }
            // The slot of each answered query is given back: four more run.
            for _ in 0..<4 { #expect(try await owner.request(.get, "/api/v1/search?q=photo").status == .ok) }
            for slot in held { slot.close() }
        }
    }
}

@Suite("Smart albums from searches through the API")
struct SavedSearchRoutesTests {
    struct Saved: Decodable, Equatable {
        var id: String
        var title: String
        var query: String
        var assetCount: Int
        var coverAssetID: String?
    }

    struct SavedList: Decodable {
        var searches: [Saved]
    }

    struct AlbumBody: Decodable {
        var id: String
    }

    @Test("a saved search counts what its query finds now; renamed, given another query, deleted; limits and a limited token")
    func savedSearches() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Trip"}"#, expect: .created)
            let a = try await owner.uploadNew(1, query: "&album=\(album.id)")
            let b = try await owner.uploadNew(2)
            _ = try await owner.request(.patch, "/api/v1/assets/\(a)", json: #"{"title": "Harbour at dawn"}"#)
            _ = try await owner.request(.patch, "/api/v1/assets/\(b)", json: #"{"keywords": ["harbour"]}"#)

            let saved = try await owner.json(
                Saved.self, .post, "/api/v1/searches", json: #"{"title": "Harbours", "query": "harbour"}"#, expect: .created)
            #expect(saved.title == "Harbours" && saved.query == "harbour" && saved.assetCount == 2)
            #expect(try await owner.json(SavedList.self, .get, "/api/v1/searches").searches == [saved])
            // A new photo the query finds is in it at once: it is a rule, not a list.
            let c = try await owner.uploadNew(3)
            _ = try await owner.request(.patch, "/api/v1/assets/\(c)", json: #"{"caption": "the harbour again"}"#)
            #expect(try await owner.json(SavedList.self, .get, "/api/v1/searches").searches.first?.assetCount == 3)
            // A token limited to the album counts its album's photos only, and may not change it.
            let limited = try await owner.token("read-write", albums: [album.id])
            #expect(try await limited.json(SavedList.self, .get, "/api/v1/searches").searches.first?.assetCount == 1)
            let reader = try await owner.token("read")
            #expect(try await reader.request(.delete, "/api/v1/searches/\(saved.id)").status == .forbidden)

            let renamed = try await owner.json(Saved.self, .patch, "/api/v1/searches/\(saved.id)", json: #"{"title": "Dawn", "query": "dawn"}"#)
            #expect(renamed.title == "Dawn" && renamed.assetCount == 1 && renamed.coverAssetID == a)
            // Refused: no title, a query of nothing, a query too long, an unknown id.
            #expect(try await owner.request(.post, "/api/v1/searches", json: #"{"title": " ", "query": "x"}"#).status == .badRequest)
            #expect(try await owner.request(.post, "/api/v1/searches", json: #"{"title": "T", "query": "   "}"#).status == .badRequest)
            let long = String(repeating: "a", count: 201)
            #expect(try await owner.request(.post, "/api/v1/searches", json: #"{"title": "T", "query": "\#(long)"}"#).status == .badRequest)
            #expect(try await owner.request(.delete, "/api/v1/searches/00000000-0000-0000-0000-000000000000").status == .notFound)
            #expect(try await owner.request(.delete, "/api/v1/searches/\(saved.id)").status == .noContent)
            #expect(try await owner.json(SavedList.self, .get, "/api/v1/searches").searches.isEmpty)
            // At most 50 per library.
            for i in 0..<50 {
                #expect(try await owner.request(.post, "/api/v1/searches", json: #"{"title": "S\#(i)", "query": "s\#(i)"}"#).status == .created)
            }
            let over = try await owner.request(.post, "/api/v1/searches", json: #"{"title": "One more", "query": "more"}"#)
            #expect(over.status == .badRequest && String(buffer: over.body).contains("50"))
        }
    }
}
