import Foundation
import GRDB
import Testing

@testable import SepiaLibrary

@Suite struct StorageTests {
    @Test("the library folder has the documented layout, and the database runs in WAL mode")
    func layout() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        try await TestLibrary.addPhotos(1, to: library)
        for entry in ["library.lock", "originals", "renders", "cache", "tmp"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + entry), "\(entry)")
        }
        let store = try #require(library.store as? SQLLibraryStore)
        if TestLibrary.onPostgreSQL {
            #expect(!FileManager.default.fileExists(atPath: folder + "/library.sqlite"), "the database is on the server")
            #expect(try store.integrityProblems().isEmpty)
        } else {
            let database = try #require(store.database as? SQLiteDatabase)
            let mode = try await database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
        #expect(
            TestLibrary.files(under: folder + "/originals").allSatisfy {
                $0.range(of: #"^[0-9a-f]{2}/[0-9a-f]{64}\.jpg$"#, options: .regularExpression) != nil
            })
    }

    @Test(
        "a library written before videos gains its resources when opened: each asset's original becomes its photo resource",
        .enabled(if: !TestLibrary.onPostgreSQL, "the SQLite file is rolled back by hand"))
    func resourcesMigration() async throws {
        let folder = TestLibrary.temporaryFolder()
        var library: PhotoLibrary? = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(3, to: library!)
        library?.close()
        library = nil
        // The database as the previous version left it: without what "v4: media and resources" adds, nor the
        // resource columns the later "v8: playable versions" adds to it.
        let queue = try DatabaseQueue(path: folder + "/library.sqlite")
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE resource;
                    DROP INDEX asset_byContentIdentifier; DROP INDEX asset_byMediaType; DROP INDEX asset_live;
                    ALTER TABLE asset DROP COLUMN mediaSubtypes; ALTER TABLE asset DROP COLUMN duration;
                    ALTER TABLE asset DROP COLUMN contentIdentifier; ALTER TABLE asset DROP COLUMN originalVersion;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v4: media and resources', 'v8: playable versions');
                    """)
        }
        try queue.close()

        let reopened = try TestLibrary.open(at: folder)
        defer { reopened.close() }
        for asset in try reopened.assets(ids) {
            let resources = try reopened.resources(for: asset)
            #expect(resources.map(\.type) == [.photo])
            #expect(resources.first?.contentHash == asset.contentHash && resources.first?.byteCount == asset.originalByteCount)
            #expect(asset.mediaSubtypes.isEmpty && asset.duration == 0 && asset.originalVersion == "original")
        }
        let report = try await reopened.check()
        #expect(report.problems.isEmpty, "\(report.problems)")
        // Deleting for good still releases the original, now through its resource.
        try await reopened.performChanges { $0.deleteAssetsPermanently([ids[0]]) }
        #expect(TestLibrary.files(under: folder + "/originals").count == 2)
    }

    @Test("opening a library alone removes files of changes that never committed, and says which")
    func orphansAtOpen() async throws {
        let folder = TestLibrary.temporaryFolder()
        var library: PhotoLibrary? = try TestLibrary.open(at: folder)
        let id = try await TestLibrary.addPhotos(1, to: library!)[0]
        library?.close()
        library = nil

        let orphan = folder + "/originals/ab/" + String(repeating: "ab", count: 32) + ".jpg"
        do {
            // Given one process with the library open
            let first = try TestLibrary.open(at: folder)
            // And what a killed import leaves: an original with no row, a temporary file, a cache folder
            try FileManager.default.createDirectory(atPath: folder + "/originals/ab", withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: orphan))
            try Data([4]).write(to: URL(fileURLWithPath: folder + "/tmp/half-written.original"))
            try FileManager.default.createDirectory(atPath: folder + "/cache/ff/ffff-gone", withIntermediateDirectories: true)
            // When another opens it, nothing is removed: the first may be writing those files
            let other = try TestLibrary.open(at: folder)
            #expect(!other.openingReport.cleanedUp)
            let check = try await other.check()
            #expect(check.isSound, "unnamed files are notes while another process may be writing them")
            #expect(check.notes.contains { $0.contains("another process") })
            #expect(FileManager.default.fileExists(atPath: orphan))
            other.close()
            first.close()
        }

        // When it opens alone, they are removed and reported
        let reopened = try TestLibrary.open(at: folder)
        #expect(reopened.openingReport.cleanedUp)
        #expect(reopened.openingReport.removedTemporaryFiles == 1)
        #expect(reopened.openingReport.removedCacheFolders == 1)
        if TestLibrary.onPostgreSQL {
            // On a shared database another server may be writing the original: a sweep removes it once it is
            // older than the grace period.
            #expect(reopened.openingReport.removedOrphans.isEmpty)
            #expect(try await reopened.sweepStorage(olderThan: .seconds(3600)).removed.isEmpty)
            #expect(try await reopened.sweepStorage(olderThan: .zero).removed == ["originals/ab/" + String(repeating: "ab", count: 32) + ".jpg"])
        } else {
            #expect(reopened.openingReport.removedOrphans == ["originals/ab/" + String(repeating: "ab", count: 32) + ".jpg"])
        }
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(try reopened.asset(id).id == id)
        #expect(try await reopened.check().isSound)
    }

    @Test("check finds missing and damaged files and explains them")
    func checkFindsDamage() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(3, to: library)
        #expect(try await library.check().isSound)

        let damaged = try await library.originalPath(of: library.asset(ids[0]))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let missing = try await library.originalPath(of: library.asset(ids[1]))
        try FileManager.default.removeItem(atPath: missing)

        let report = try await library.check()
        #expect(!report.isSound)
        #expect(report.problems.count == 2)
        #expect(report.problems.contains { $0.contains("does not match its SHA-256") })
        #expect(report.problems.contains { $0.contains("missing") })
        // The quick check only sees the missing file.
        #expect(try await library.check(verifyingHashes: false).problems.count == 1)
    }

    @Test("a library folder that is a file, or a database from a newer Sepia, is refused with a clear error")
    func refusedFolders() throws {
        let file = TestLibrary.temporaryFolder() + "/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: LibraryError.self) { try PhotoLibrary.open(at: file) }

        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let database = try #require((library.store as? SQLLibraryStore)?.database)
        _ = try database.write { db in
            if TestLibrary.onPostgreSQL {
                try db.execute("INSERT INTO sepiaMigration (identifier, appliedAt) VALUES ('v999', 0)")
            } else {
                try db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v999')")
            }
        }
        library.close()
        do {
            _ = try TestLibrary.open(at: folder)
            Issue.record("a newer library was opened")
        } catch let error as LibraryError {
            #expect(error.code == .newerSchema)
            #expect(error.description.contains("newer version of Sepia"))
        }
    }
}
