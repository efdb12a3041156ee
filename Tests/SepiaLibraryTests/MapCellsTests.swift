import Foundation
import GRDB
import SepiaCodecs
import Testing

@testable import SepiaLibrary

/// The map's kept cells: counted by the database with every change (import, a location set, edited or removed,
/// hidden, deleted, recovered, deleted for good), they give the same markers as counting the rows at every kept
/// zoom; the library's check finds cells that differ and `rebuildMapCells` counts them anew. On SQLite, and on
/// PostgreSQL when the suites run there.
@Suite struct MapCellsTests {
    /// The world's markers at `zoom`, from the kept cells or from the rows, in a comparable order.
    static func worldMarkers(_ library: PhotoLibrary, zoom: Int, kept: Bool) throws -> [MapMarkers.Cluster] {
        let markers = try library.mapMarkers(in: .world, zoom: zoom, matching: nil, itemLimit: 0, liveRowLimit: kept ? 0 : .max)
        return markers.clusters.sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
    }

    /// Whether the kept cells and the rows give the same clusters (counts, and mean positions to 1e-9°) at every
    /// kept zoom.
    static func expectKeptCellsMatchRows(_ library: PhotoLibrary, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for zoom in 0...MapCells.maximumKeptZoom {
            let kept = try worldMarkers(library, zoom: zoom, kept: true)
            let counted = try worldMarkers(library, zoom: zoom, kept: false)
            #expect(kept.map(\.count) == counted.map(\.count), "zoom \(zoom)", sourceLocation: sourceLocation)
            for (k, c) in zip(kept, counted) {
                #expect(abs(k.latitude - c.latitude) < 1e-9 && abs(k.longitude - c.longitude) < 1e-9, "zoom \(zoom)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("the kept cells follow imports, edited locations, hiding, deleting and recovering, at every kept zoom")
    func keptCellsFollowChanges() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        // 24 photos around three cities, a few hundred metres to 40 km apart, and two without a location
        var locations: [GPSLocation?] = [nil, nil]
        for index in 0..<24 {
            let (latitude, longitude) = [(38.7139, -9.1394), (48.1374, 11.5755), (-33.8688, 151.2093)][index % 3]
            let offset = Double(index) * 0.017
            locations.append(GPSLocation(latitude: latitude + offset, longitude: longitude - offset))
        }
        let ids = try await PlacesTests.addPhotos(at: locations, to: library)
        try Self.expectKeptCellsMatchRows(library)
        #expect(try library.mapMarkers(in: .world, zoom: 2).total == 24)

        // A location set, moved across the world and removed; a photo hidden; two deleted, one recovered; one
        // deleted for good
        try await library.performChanges { changes in
            changes.setLocation(GPSLocation(latitude: 64.1466, longitude: -21.9426), for: ids[0])
            changes.setLocation(GPSLocation(latitude: 35.6762, longitude: 139.6503), for: ids[2])
            changes.setLocation(nil, for: ids[3])
            changes.setHidden(true, for: ids[4])
            changes.deleteAssets([ids[5], ids[6]])
        }
        try await library.performChanges { $0.recoverAssets([ids[6]]) }
        try await library.performChanges { $0.deleteAssetsPermanently([ids[7]]) }
        try Self.expectKeptCellsMatchRows(library)
        // 24, +1 located, −1 unlocated, −1 hidden, −1 in Recently Deleted, −1 deleted for good
        #expect(try library.mapMarkers(in: .world, zoom: 2, matching: nil, itemLimit: 0, liveRowLimit: 0).total == 21)
        #expect(try library.store.integrityProblems().isEmpty)

        // The newest photo of a cell is its key; when it leaves the cell, another of the cell's photos is
        let tokyo = try Self.worldMarkers(library, zoom: 10, kept: true).first { abs($0.latitude - 35.6762) < 1e-6 }
        #expect(tokyo?.keyAssetID == ids[2])
        let lisbon = try Self.worldMarkers(library, zoom: 0, kept: true).first { $0.longitude < 0 && $0.latitude > 0 }
        try await library.performChanges { $0.setHidden(true, for: try #require(lisbon?.keyAssetID)) }
        let key = try #require(try Self.worldMarkers(library, zoom: 0, kept: true).first { $0.longitude < 0 && $0.latitude > 0 }?.keyAssetID)
        let keyAsset = try library.asset(key)
        #expect(key != lisbon?.keyAssetID && !keyAsset.isHidden)
        try Self.expectKeptCellsMatchRows(library)
    }

    @Test("the check finds kept cells that differ from the rows, and rebuilding counts them anew")
    func checkAndRebuild() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        _ = try await PlacesTests.addPhotos(at: [PlacesTests.lisbon, PlacesTests.porto, PlacesTests.munich], to: library)
        let store = try #require(library.store as? SQLLibraryStore)
        try store.write { db in
            try db.execute("UPDATE mapCell SET assetCount = assetCount + 5 WHERE zoom = 3")
            try db.execute("DELETE FROM mapCell WHERE zoom = 7")
        }
        let problems = try store.integrityProblems()
        #expect(problems.contains { $0.hasPrefix("map: ") && $0.contains("sepia places update") })
        #expect(try library.rebuildMapCells() > 0)
        #expect(try store.integrityProblems().isEmpty)
        try Self.expectKeptCellsMatchRows(library)
    }

    @Test("a region with few photos is counted from its rows, exactly at its edges, and lists them one by one")
    func smallRegionsCountRows() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await PlacesTests.addPhotos(at: [PlacesTests.lisbon, PlacesTests.porto, PlacesTests.munich], to: library)
        // Lisbon's viewport at zoom 2 touches a cell holding Porto too; the items are only what is inside it
        let lisbon = MapRegion(south: 38.6, west: -9.3, north: 38.85, east: -9.0)
        let markers = try library.mapMarkers(in: lisbon, zoom: 2)
        #expect(markers.total == 1 && markers.items.map(\.id) == [ids[0]] && markers.clusters.isEmpty)
        // Past the row limit, the same region reads the kept cell it lies in
        let kept = try library.mapMarkers(in: lisbon, zoom: 2, matching: nil, itemLimit: 500, liveRowLimit: 0)
        #expect(kept.items.isEmpty && kept.clusters.map(\.count) == [2] && kept.total == 2)
    }

    @Test("a library written before the kept cells has its located photos counted when opened, and its search words kept")
    func olderLibrary() async throws {
        let folder = TestLibrary.temporaryFolder()
        // Three photos of a library at v13: two located and one of them in Recently Deleted, one without a
        // place; each with its search document as v13 wrote it (on PostgreSQL, its text and its words with
        // their positions)
        func asset(_ id: String, _ title: String, latitude: Double?, longitude: Double?, trashed: Bool) -> String {
            let position = latitude.map { "\($0), \(longitude ?? 0)" } ?? "NULL, NULL"
            return """
                INSERT INTO asset (localIdentifier, mediaType, pixelWidth, pixelHeight, creationDate, creationDateOffset,
                  creationDateSource, localYear, localMonth, modificationDate, addedDate, isFavorite, isHidden, originalFilename,
                  contentHash, originalFormat, originalByteCount, originalOrientation, originalWidth, originalHeight, title,
                  latitude, longitude, trashedDate)
                VALUES ('\(id)', 1, 4, 3, 1500000000, 3600, 'capture', 2017, 7, 1500000000, 1500000000, FALSE, FALSE,
                  '\(id).jpg', '\(id)-hash', 'jpeg', 10, 1, 4, 3, '\(title)', \(position), \(trashed ? "1500000100" : "NULL"))
                """
        }
        let inserts = [
            asset("tram", "Tram in Lisbon", latitude: 38.7139, longitude: -9.1394, trashed: false),
            asset("beer", "Beer garden", latitude: 48.1374, longitude: 11.5755, trashed: true),
            asset("shelf", "Grandmother''s shelf", latitude: nil, longitude: nil, trashed: false),
        ]
        let documents = ["tram": "tram in lisbon", "beer": "beer garden", "shelf": "grandmother s shelf"]
        if case .postgreSQL(let location) = TestLibrary.database(for: folder) {
            let old = try PostgresDatabase(
                location: location, migrations: Array(PostgresDatabase.libraryMigrations.prefix(13)), announcesChanges: false)
            try old.write { db in
                for insert in inserts { _ = try db.execute(insert, []) }
                for (id, document) in documents {
                    _ = try db.execute(
                        "INSERT INTO assetSearch (assetRowID, body) SELECT rowID, ? FROM asset WHERE localIdentifier = ?",
                        [document, id])
                }
                _ = try db.execute("INSERT INTO libraryInfo (key, value) VALUES ('searchIndex', ?)", [SQLLibraryStore.searchIndexVersion])
            }
        } else {
            let queue = try DatabaseQueue(path: folder + "/library.sqlite")
            try SQLiteDatabase.migrator.migrate(queue, upTo: "v13: saved searches")
            try queue.inDatabase { db in
                for insert in inserts { try db.execute(sql: insert) }
                for (id, document) in documents {
                    try db.execute(
                        sql: "INSERT INTO assetSearch (rowid, body) SELECT rowID, ? FROM asset WHERE localIdentifier = ?", arguments: [document, id])
                }
                try db.execute(sql: "INSERT INTO libraryInfo (key, value) VALUES ('searchIndex', ?)", arguments: [SQLLibraryStore.searchIndexVersion])
            }
            try queue.close()
        }
        let library = try TestLibrary.open(at: folder)
        defer { library.close() }
        // Only the visible located photo is on the map, at every kept zoom as its rows say
        #expect(try library.mapMarkers(in: .world, zoom: 2, matching: nil, itemLimit: 0, liveRowLimit: 0).total == 1)
        try Self.expectKeptCellsMatchRows(library)
        // The documents written before are still searched (the library was not indexed again)
        let store = try #require(library.store as? SQLLibraryStore)
        #expect(try store.read { db in try SQLLibraryStore.info(db, "searchIndex") } == SQLLibraryStore.searchIndexVersion)
        for (word, expected) in [("grandm", ["shelf"]), ("lisb", ["tram"]), ("garden", [])] {
            #expect(try SearchTests.found(library, word) == Set(expected), "\(word)")
        }
        if store.dialect == .postgreSQL {
            // v15 kept the words and dropped their positions
            let vectors: [String] = try store.read { db in try db.fetch("SELECT vector::text FROM assetSearch ORDER BY 1").map { $0[0] } }
            #expect(vectors.count == 3 && vectors.allSatisfy { !$0.contains(":") }, "\(vectors)")
        }
        // (The rows written here have no files, which the check names as well.)
        #expect(try store.integrityProblems().filter { $0.hasPrefix("map:") || $0.hasPrefix("search index:") }.isEmpty)
    }
}
