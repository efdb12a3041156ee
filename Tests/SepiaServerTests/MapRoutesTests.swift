import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("The map: markers one by one or counted in cells, by region and across the antimeridian; its files; a tile server's CSP")
struct MapRoutesTests {
    struct Markers: Decodable {
        struct Item: Decodable {
            var id: String
            var latitude: Double
            var longitude: Double
        }
        struct Cluster: Decodable {
            var latitude: Double
            var longitude: Double
            var count: Int
            var keyAssetID: String
        }
        var items: [Item]
        var clusters: [Cluster]
        var total: Int
    }

    struct Settings: Decodable {
        var baseMap: Bool
        var tiles: String?
    }

    struct AlbumBody: Decodable { var id: String }

    @Test("items when few, cells when many; regions, the antimeridian and a limited token; bad edges refused")
    func markers() async throws {
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Pacific"}"#, expect: .created)
            let positions = [(38.7139, -9.1394), (38.7223, -9.1393), (48.1374, 11.5755), (-18.1248, 178.4501), (-16.5, -179.9)]
            var ids: [String] = []
            for (index, position) in positions.enumerated() {
                let id = try await owner.uploadNew(index + 1, query: index >= 3 ? "&album=\(album.id)" : "")
                _ = try await owner.request(
                    .patch, "/api/v1/assets/\(id)", json: #"{"location": {"latitude": \#(position.0), "longitude": \#(position.1)}}"#)
                ids.append(id)
            }
            _ = try await owner.uploadNew(9)  // no location: never on the map

            let world = try await owner.json(Markers.self, .get, "/api/v1/map/markers")
            #expect(world.total == 5 && Set(world.items.map(\.id)) == Set(ids) && world.clusters.isEmpty)
            // Past the item limit: cells, which count every located photo once
            let cells = try await owner.json(Markers.self, .get, "/api/v1/map/markers?zoom=2&limit=0")
            #expect(cells.items.isEmpty && cells.clusters.map(\.count).reduce(0, +) == 5)
            let lisbon = try #require(cells.clusters.first { abs($0.latitude - 38.72) < 0.1 })
            #expect(lisbon.count == 2 && Set(ids[0...1]).contains(lisbon.keyAssetID))
            // A region holds what is in it
            let europe = try await owner.json(Markers.self, .get, "/api/v1/map/markers?south=30&west=-20&north=60&east=30&zoom=4")
            #expect(Set(europe.items.map(\.id)) == Set(ids[0...2]))
            // Across the antimeridian, either as west > east or as a map panned past 180°
            let pacific = try await owner.json(Markers.self, .get, "/api/v1/map/markers?south=-30&west=170&north=0&east=-170&zoom=5")
            #expect(Set(pacific.items.map(\.id)) == Set(ids[3...4]))
            let panned = try await owner.json(Markers.self, .get, "/api/v1/map/markers?south=-30&west=170&north=0&east=190&zoom=5")
            #expect(Set(panned.items.map(\.id)) == Set(ids[3...4]))
            // Bad edges and zooms are refused with what is wrong
            #expect(try await owner.request(.get, "/api/v1/map/markers?south=-91").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/map/markers?west=nan").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/map/markers?zoom=23").status == .badRequest)
            // A token limited to the album sees its photos only
            let limited = try await owner.token("read", albums: [album.id])
            #expect(Set(try await limited.json(Markers.self, .get, "/api/v1/map/markers").items.map(\.id)) == Set(ids[3...4]))

            // The map's files
            let settings = try await owner.json(Settings.self, .get, "/api/v1/map")
            #expect(settings.baseMap && settings.tiles == nil)
            let shapes = try await owner.request(.get, "/map/countries.geojson")
            #expect(shapes.status == .ok && shapes.headers[.contentType] == "application/geo+json")
            let leaflet = try await owner.request(.get, "/vendor/leaflet/leaflet.js")
            #expect(leaflet.status == .ok && leaflet.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(try await owner.request(.get, "/vendor/leaflet/../../../etc/passwd").status == .notFound)
            #expect(try await owner.request(.get, "/vendor/leaflet/nothing.js").status == .notFound)
        }
    }

    @Test("a tile server's origin is allowed in the pages' img-src, and nothing else; a bad tile URL is refused")
    func tileServer() async throws {
        let tiles = try MapTiles("https://tile.example.org/{z}/{x}/{y}.png")
        #expect(tiles.origin == "https://tile.example.org")
        try await TestServer { $0.mapTiles = tiles }.withOwner { owner in
            let page = try await owner.request(.get, "/")
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' blob: data: https://tile.example.org;") == true)
            let json = try await owner.request(.get, "/api/v1/map")
            #expect(json.headers[.contentSecurityPolicy]?.contains("tile.example.org") == false)
            #expect(try await owner.json(Settings.self, .get, "/api/v1/map").tiles == tiles.template)
        }
        for bad in [
            "ftp://tile.example.org/{z}/{x}/{y}.png", "https://tile.example.org/{z}/{x}.png", "https://x.org/{z}/{x}/{y}.png; script-src *",
            "https://x.org/{z}/{x}/{y}.png'", "https:///{z}/{x}/{y}",
        ] {
            #expect(throws: MapTilesError.self, "\(bad)") { try MapTiles(bad) }
        }
    }
}
