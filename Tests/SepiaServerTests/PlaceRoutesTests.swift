import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Places: the place in the asset JSON, the Places album, a place's photos, a limited token's view")
struct PlaceRoutesTests {
    struct PlaceName: Decodable, Equatable {
        var id: Int
        var city: String
        var region: String?
        var country: String
        var countryCode: String
    }

    struct AssetBody: Decodable {
        var id: String
        var place: PlaceName?
    }

    struct City: Decodable {
        var id: Int
        var city: String
        var assetCount: Int
        var keyAssetID: String
    }

    struct Country: Decodable {
        var countryCode: String
        var country: String
        var assetCount: Int
        var cities: [City]
    }

    struct Places: Decodable {
        var countries: [Country]
    }

    struct Page: Decodable {
        var assets: [AssetBody]
        var total: Int
    }

    struct AlbumBody: Decodable {
        var id: String
    }

    struct Status: Decodable {
        var locatedAssets: Int
        var placedAssets: Int
        var waitingAssets: Int
        var cityCount: Int
        var problem: String?
    }

    @Test("a location set through the API is named in the same response; Places groups it; place and country filter")
    func placesThroughTheAPI() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Bavaria"}"#, expect: .created)
            var ids: [String] = []
            for seed in 1...4 { ids.append(try await owner.uploadNew(seed, query: seed == 3 ? "&album=\(album.id)" : "")) }
            let positions = [(38.7139, -9.1394), (38.7223, -9.1393), (48.1374, 11.5755)]
            for (id, position) in zip(ids, positions) {
                let edited = try await owner.json(
                    AssetBody.self, .patch, "/api/v1/assets/\(id)", json: #"{"location": {"latitude": \#(position.0), "longitude": \#(position.1)}}"#)
                #expect(edited.place != nil, "\(position)")
            }
            let lisbon = try #require(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(ids[0])").place)
            #expect(lisbon.city == "Lisbon" && lisbon.country == "Portugal" && lisbon.countryCode == "PT" && lisbon.region == "Lisbon")
            #expect(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(ids[3])").place == nil)

            let places = try await owner.json(Places.self, .get, "/api/v1/places")
            #expect(places.countries.map(\.countryCode) == ["PT", "DE"])
            #expect(places.countries[0].assetCount == 2 && places.countries[0].cities.map(\.city) == ["Lisbon"])
            #expect(places.countries[1].cities.map(\.city) == ["Munich"])

            let inLisbon = try await owner.json(Page.self, .get, "/api/v1/assets?place=\(lisbon.id)")
            #expect(inLisbon.total == 2 && Set(inLisbon.assets.map(\.id)) == Set(ids[0...1]))
            #expect(try await owner.json(Page.self, .get, "/api/v1/assets?country=de").assets.map(\.id) == [ids[2]])
            #expect(try await owner.request(.get, "/api/v1/assets?country=DEU").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets?place=-1").status == .badRequest)

            let status = try await owner.json(Status.self, .get, "/api/v1/places/status")
            #expect(status.locatedAssets == 3 && status.placedAssets == 3 && status.waitingAssets == 0 && status.cityCount > 20_000)
            #expect(status.problem == nil)

            // A token limited to the album sees its album's place only, and no status
            let limited = try await owner.token("read", albums: [album.id])
            let narrow = try await limited.json(Places.self, .get, "/api/v1/places")
            #expect(narrow.countries.map(\.countryCode) == ["DE"])
            #expect(try await limited.json(Page.self, .get, "/api/v1/assets?country=PT").total == 0)
            #expect(try await limited.request(.get, "/api/v1/places/status").status == .notFound)
        }
    }
}
