import Foundation
import GRDB
import SepiaCodecs
import SepiaImage
import SepiaPlaces
import SepiaXMP
import Testing

@testable import SepiaLibrary

/// Places: located photos named by the nearest GeoNames city in the commit that locates them, moved with their
/// location, grouped by country and city, fetched by place, and placed later when the tables were missing or the
/// library is older; on SQLite, and on PostgreSQL when the suites run there.
@Suite struct PlacesTests {
    static let lisbon = GPSLocation(latitude: 38.7139, longitude: -9.1394)!
    static let porto = GPSLocation(latitude: 41.1496, longitude: -8.6109)!
    static let munich = GPSLocation(latitude: 48.1374, longitude: 11.5755)!
    static let pacific = GPSLocation(latitude: -30, longitude: -140)!

    /// Adds one photo per location (nil: none), a day apart, and returns their identifiers in order.
    static func addPhotos(at locations: [GPSLocation?], to library: PhotoLibrary, seed: Int = 100) async throws -> [String] {
        var prepared: [PreparedAsset] = []
        for (index, location) in locations.enumerated() {
            var photo = try await library.prepareAsset(
                data: TestLibrary.uniqueJPEG(seed + index), filename: "place-\(index).jpg",
                fileDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 86_400))
            photo.asset.location = location
            prepared.append(photo)
        }
        return try await library.performChanges { changes in
            for photo in prepared { changes.createAsset(from: photo) }
        }.createdAssetIDs
    }

    @Test("a photo is placed in the commit that locates it, moved with its location, and unplaced without one")
    func placedWithItsLocation() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await Self.addPhotos(at: [Self.lisbon, nil, Self.pacific], to: library)

        // Then the located photo has its city, the others none
        let placed = try library.asset(ids[0])
        let lisbon = try #require(try library.place(of: placed))
        #expect(lisbon.city == "Lisbon" && lisbon.country == "Portugal" && lisbon.countryCode == "PT")
        #expect(try library.place(of: library.asset(ids[1])) == nil)
        // Mid-ocean is more than 100 km from every city: no place, and not waiting for one
        #expect(try library.asset(ids[2]).placeIdentifier == nil)
        #expect(try library.placesStatus().waitingAssets == 0)
        #expect(try library.placesStatus().locatedAssets == 2 && library.placesStatus().placedAssets == 1)

        // When the location is edited, the place moves in the same commit
        try await library.performChanges { $0.setLocation(Self.munich, for: ids[0]) }
        #expect(try library.place(of: library.asset(ids[0]))?.city == "Munich")
        // When it is removed, the place goes; when reverted, the file's place is back
        try await library.performChanges { $0.setLocation(nil, for: ids[0]) }
        #expect(try library.asset(ids[0]).placeIdentifier == nil)
        try await library.performChanges { $0.revertLocation(of: [ids[0]]) }
        #expect(try library.asset(ids[0]).placeIdentifier == lisbon.id)
        // And an unlocated photo given a location is placed
        try await library.performChanges { $0.setLocation(Self.porto, for: ids[1]) }
        #expect(try library.place(of: library.asset(ids[1]))?.city == "Porto")
        #expect(try library.places(of: library.assets(ids)).mapValues(\.city) == [ids[0]: "Lisbon", ids[1]: "Porto"])
    }

    @Test("an export's XMP names the place of a location the user set, and leaves a camera's position to its coordinates")
    func placeNamesInExportedXMP() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await Self.addPhotos(at: [Self.lisbon, Self.lisbon], to: library)
        #expect(try library.sidecarMetadata(for: library.asset(ids[0])).placeNames == nil)
        try await library.performChanges { $0.setLocation(Self.munich, for: ids[1]) }
        let named = try #require(try library.sidecarMetadata(for: library.asset(ids[1])).placeNames)
        #expect(named == XMPPlaceNames(city: "Munich", state: "Bavaria", country: "Germany", countryCode: "DE"))
        let packet = try #require(try library.sidecarPacket(for: library.asset(ids[1])))
        #expect(try XMPPacket.read(packet).metadata.placeNames == named)
    }

    @Test("the Places album counts visible photos by country and city, newest first, and a place is a fetch")
    func placesAlbum() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await Self.addPhotos(
            at: [Self.lisbon, Self.lisbon, Self.porto, Self.munich, Self.lisbon, Self.munich, nil], to: library)
        // A hidden photo and one in Recently Deleted are not counted
        try await library.performChanges { changes in
            changes.setHidden(true, for: ids[5])
            changes.deleteAssets([ids[4]])
        }

        let countries = try library.placeSummaries()
        try #require(countries.map(\.countryCode) == ["PT", "DE"])
        let portugal = countries[0]
        #expect(portugal.country == "Portugal" && portugal.assetCount == 3)
        #expect(portugal.cities.map(\.place.city) == ["Lisbon", "Porto"])
        #expect(portugal.cities.map(\.assetCount) == [2, 1])
        // The newest photo shows a city, and the newest of its cities the country
        #expect(portugal.cities[0].keyAssetID == ids[1])
        #expect(portugal.keyAssetID == ids[2])
        #expect(countries[1].assetCount == 1 && countries[1].keyAssetID == ids[3])

        // A city's and a country's photos are fetches
        let lisbonID = portugal.cities[0].place.id
        let inLisbon = try library.fetchAssets(FetchOptions(predicate: .place(lisbonID)))
        #expect(try inLisbon.objects(in: 0..<inLisbon.count).map(\.id).sorted() == [ids[0], ids[1]].sorted())
        #expect(try library.fetchAssets(FetchOptions(predicate: .country("pt"))).count == 3)

        // Limited to an album, only its photos' places
        let album = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Munich trip")
            changes.addAssets([ids[3]], to: album.localIdentifier)
        }.createdAlbumIDs[0]
        let limited = try library.placeSummaries(matching: .inAlbums([album]))
        #expect(limited.map(\.countryCode) == ["DE"] && limited[0].cities.map(\.assetCount) == [1])
    }

    @Test("without GeoNames' tables nothing is placed and status says why; with them, waiting photos are placed")
    func waitingForTheTables() async throws {
        let folder = TestLibrary.temporaryFolder()
        var configuration = LibraryConfiguration(
            renderContext: RenderContext(options: RenderOptions(threadCount: 2)), watchesMemoryPressure: false,
            database: TestLibrary.database(for: folder))
        configuration.geoNamesDirectory = TestLibrary.temporaryFolder("no-geonames")
        var library = try PhotoLibrary.open(at: folder, configuration: configuration)
        let ids = try await Self.addPhotos(at: [Self.lisbon, Self.munich, nil], to: library)

        // Then the photos are in the library, unplaced, and the status names the missing table and the package
        #expect(try library.asset(ids[0]).placeIdentifier == nil)
        var status = try library.placesStatus()
        #expect(status.locatedAssets == 2 && status.placedAssets == 0 && status.waitingAssets == 2)
        #expect(status.problem?.contains("libtimezonemap-data") == true)
        #expect(try library.updatePlaces() == 0)
        library.close()

        // When the library is opened with the tables, updating places the waiting photos, a batch at a time
        configuration.geoNamesDirectory = nil
        library = try PhotoLibrary.open(at: folder, configuration: configuration)
        defer { library.close() }
        #expect(try library.updatePlaces(batchSize: 1) == 2)
        status = try library.placesStatus()
        #expect(status.placedAssets == 2 && status.waitingAssets == 0 && status.problem == nil && status.cityCount > 20_000)
        #expect(try library.place(of: library.asset(ids[1]))?.city == "Munich")
    }

    @Test("a library written before places has its located photos placed by an update")
    func olderLibrary() async throws {
        let folder = TestLibrary.temporaryFolder()
        let inserted = """
            INSERT INTO asset (localIdentifier, mediaType, pixelWidth, pixelHeight, creationDate, creationDateOffset,
              creationDateSource, localYear, localMonth, modificationDate, addedDate, latitude, longitude, altitude,
              isFavorite, isHidden, originalFilename, contentHash, originalFormat, originalByteCount, originalOrientation,
              originalWidth, originalHeight)
            VALUES ('old-asset', 1, 4, 3, 1500000000, 3600, 'capture', 2017, 7, 1500000000, 1500000000, 48.1374, 11.5755, NULL,
              FALSE, FALSE, 'old.jpg', 'feedface', 'jpeg', 10, 1, 4, 3)
            """
        if case .postgreSQL(let location) = TestLibrary.database(for: folder) {
            let old = try PostgresDatabase(
                location: location, migrations: Array(PostgresDatabase.libraryMigrations.prefix(9)), announcesChanges: false)
            try old.write { db in _ = try db.execute(inserted, []) }
        } else {
            let queue = try DatabaseQueue(path: folder + "/library.sqlite")
            try SQLiteDatabase.migrator.migrate(queue, upTo: "v9: people")
            try queue.inDatabase { db in try db.execute(sql: inserted) }
            try queue.close()
        }
        let library = try TestLibrary.open(at: folder)
        defer { library.close() }
        #expect(try library.placesStatus().waitingAssets == 1)
        #expect(try library.updatePlaces() == 1)
        #expect(try library.place(of: library.asset("old-asset"))?.city == "Munich")
        #expect(try library.placesStatus().waitingAssets == 0)
    }
}
