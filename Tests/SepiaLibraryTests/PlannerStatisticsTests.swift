import Foundation
import GRDB
import Testing

@_spi(Benchmarks) @testable import SepiaLibrary

/// The query planner's statistics of an embedded library: gathered when it opens without them and again as it
/// grows, so that SQLite reads a few places' photos and a city's map through their indexes instead of every
/// visible row.
@Suite(.enabled(if: !TestLibrary.onPostgreSQL, "PostgreSQL's autovacuum analyses its tables itself"))
struct PlannerStatisticsTests {
    @Test("statistics are gathered on opening and as the library grows, and the planner reads places by their index")
    func statisticsFollowGrowth() throws {
        let path = TestLibrary.temporaryFolder()
        let analysedAssets = { () throws -> Int in
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path + "/library.sqlite", configuration: configuration)
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT max(CAST(stat AS INTEGER)) FROM sqlite_stat1 WHERE tbl = 'asset'") ?? 0
            }
        }
        var library = try TestLibrary.open(at: path)
        // A new library has statistics of its empty tables; a reader is open before it grows
        #expect(try analysedAssets() == 0)
        #expect(try library.fetchAssets().count == 0)
        // 3 000 rows later (each commit of 500 changes thousands of rows), they count what is there
        _ = try library.insertVariedRowsWithoutFiles(count: 3_000, seed: 1, places: [(38.7139, -9.1394), (48.1374, 11.5755)], batch: 500)
        let counted = try analysedAssets()
        #expect(counted >= 1_000 && counted <= 3_000)
        // The readers, open since before, plan with them: a country's photos are counted through the index of places
        try Self.expectPlacesCountedByTheirIndex(library)
        library.close()

        // A library reopened keeps them
        library = try TestLibrary.open(at: path)
        defer { library.close() }
        try Self.expectPlacesCountedByTheirIndex(library)
    }

    static func expectPlacesCountedByTheirIndex(_ library: PhotoLibrary, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = try #require(library.store as? SQLLibraryStore)
        let plan = try store.read { db in
            try db.fetch(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM asset a WHERE a.placeID IN (1, 2, 3) AND a.trashedDate IS NULL AND a.isHidden = FALSE"
            ).map { $0[3] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("asset_byPlace"), "\(plan)", sourceLocation: sourceLocation)
    }

    @Test("a migration's new index is analysed when the library it migrates opens")
    func migrationsAreAnalysed() throws {
        let path = TestLibrary.temporaryFolder()
        let first = try TestLibrary.open(at: path)
        _ = try first.insertVariedRowsWithoutFiles(count: 200, seed: 2, places: [(38.7139, -9.1394)], batch: 200)
        first.close()
        // As a library written before v16, analysed then
        let queue = try DatabaseQueue(path: path + "/library.sqlite")
        try queue.write { db in
            try db.execute(sql: "DROP INDEX asset_visibleByKey")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v16: visible assets by key'")
            try db.execute(sql: "ANALYZE")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_stat1 WHERE idx = 'asset_visibleByKey'") == 0)
        }
        try queue.close()
        let library = try TestLibrary.open(at: path)
        defer { library.close() }
        let check = try DatabaseQueue(path: path + "/library.sqlite")
        defer { try? check.close() }
        #expect(try check.read { db in try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE idx = 'asset_visibleByKey'") } != nil)
    }
}
