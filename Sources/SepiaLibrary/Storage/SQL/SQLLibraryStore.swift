import Foundation
import SepiaCodecs
import SepiaPlaces
import Synchronization

/// The library store over SQL, for either database: the queries and the commit logic are written once, in
/// the SQL SQLite and PostgreSQL share, and ``SQLDatabase`` supplies transactions (``SQLiteDatabase`` for the
/// embedded library, ``PostgresDatabase`` for a scale-out deployment). ``SQLDialect`` spells what differs.
final class SQLLibraryStore: LibraryStore {
    let database: any SQLDatabase
    /// The faces grouped into people as last loaded or written by this process (see ``withGrouping(_:_:)``).
    let faceGroupingCache = Mutex<FaceGroupingCache?>(nil)
    /// Names places are found with, read on first use.
    let places: PlaceFinder
    /// The rows of `place` this process has read: a place's names change only with GeoNames' tables.
    let placeNames = Mutex<[Int: Place]>([:])
    /// The folded words of the place names suggestions have matched (``SearchText/words(_:)``): a few hundred
    /// names asked on every keystroke, folded once.
    let foldedPlaceNames = Mutex<[String: [String]]>([:])
    /// The keywords suggestions offer, with their counts, as last counted (see ``keywordCounts()``).
    let keywordCountsCache = Mutex<KeywordCounts?>(nil)

    init(database: any SQLDatabase, places: PlaceFinder = PlaceFinder(directory: nil)) {
        self.database = database
        self.places = places
    }

    var dialect: SQLDialect { database.dialect }

    // MARK: - Transactions

    func read<T>(_ body: (any SQLSession) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.libraryError(error)
        }
    }

    /// Runs one read-only statement outside a transaction.
    func readStatement<T>(_ body: (any SQLSession) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.readStatement(body)
        } catch {
            throw Self.libraryError(error)
        }
    }

    func write<T>(_ body: (any SQLSession) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.write(body)
        } catch StoreRetry.fileVanished(let file) {
            var error = LibraryError(.fileSystem, "a file was removed while the change was committed", subject: file.hash)
            error.vanishedFile = file
            throw error
        } catch SQLFailure.uniqueViolation(let what) where what.lowercased().contains("contenthash") {
            throw LibraryError(.duplicate, "the file is already in the library")
        } catch SQLFailure.uniqueViolation(let what) where what.lowercased().contains("person") {
            throw LibraryError(.duplicate, "a person of that name was named at the same moment; choose another name or merge the two")
        } catch SQLFailure.uniqueViolation(let what) where what.lowercased().contains("namekey") {
            throw LibraryError(.duplicate, "a preset of that name was saved at the same moment; choose another name or replace it")
        } catch {
            throw Self.libraryError(error)
        }
    }

    static func libraryError(_ error: any Error) -> LibraryError {
        switch error {
        case let error as LibraryError: error
        case SQLFailure.unavailable(let why):
            LibraryError(.database, "the database cannot be reached (\(why))")
        default: .database(error)
        }
    }

    // MARK: - Change log

    func currentGeneration() throws(LibraryError) -> Int64 {
        try readStatement { db in try Self.generation(db) }
    }

    static func generation(_ db: any SQLSession) throws -> Int64 {
        try db.value("SELECT max(generation) FROM change") ?? 0
    }

    static func changeLogStart(_ db: any SQLSession) throws -> Int64 {
        try db.value("SELECT value FROM libraryInfo WHERE key = 'changeLogStart'") ?? 0
    }

    func changes(after generation: Int64) throws(LibraryError) -> ChangeLogSlice? {
        try read { db -> ChangeLogSlice? in
            if generation < (try Self.changeLogStart(db)) { return nil }
            var slice = ChangeLogSlice(generation: try Self.generation(db))
            for row in try db.fetch("SELECT entity, rowID, localIdentifier, operation FROM change WHERE generation > ?", [generation]) {
                let entity: String = row[0]
                let key: Int64 = row[1]
                let identifier: String = row[2]
                let operation: String = row[3]
                if entity == "asset" {
                    slice.assetIdentifiers[key] = identifier
                    // Moves to and from Recently Deleted are updates of the row: fetches that gain or lose the
                    // asset see it by refetching, as they see any other change of what they match.
                    switch operation {
                    case "insert": slice.insertedAssets.insert(key)
                    case "delete": slice.deletedAssets.insert(key)
                    default: slice.updatedAssets.insert(key)
                    }
                } else if entity == "album" {
                    slice.albumIdentifiers[key] = identifier
                    switch operation {
                    case "insert": slice.insertedAlbums.insert(key)
                    case "delete": slice.deletedAlbums.insert(key)
                    default: slice.updatedAlbums.insert(key)
                    }
                }
            }
            return slice
        }
    }

    func changeLog(after generation: Int64, limit: Int) throws(LibraryError) -> [LibraryChange]? {
        try read { db -> [LibraryChange]? in
            if generation < (try Self.changeLogStart(db)) { return nil }
            let rows = try db.fetch(
                "SELECT generation, entity, localIdentifier, operation FROM change WHERE generation > ? ORDER BY generation LIMIT ?",
                [generation, limit])
            return rows.compactMap { row in
                guard let entity = LibraryChange.Entity(rawValue: row[1]), let operation = LibraryChange.Operation(rawValue: row[3])
                else { return nil }
                return LibraryChange(generation: row[0], entity: entity, id: row[2], operation: operation)
            }
        }
    }

    /// Records a change. Deleted objects keep a snapshot, so fetch results made before the deletion can still
    /// show them.
    static func log(
        _ db: any SQLSession, entity: String, rowID: Int64, identifier: String, operation: String, snapshot: Data? = nil
    ) throws {
        try db.execute(
            "INSERT INTO change (entity, rowID, localIdentifier, operation, snapshot, date) VALUES (?, ?, ?, ?, ?, ?)",
            [entity, rowID, identifier, operation, snapshot, Date().timeIntervalSince1970])
    }

    /// Keeps the change log to its newest `keep` entries (at most once every `every` generations).
    static func pruneChangeLog(_ db: any SQLSession, keep: Int64 = 200_000, every: Int64 = 10_000) throws {
        let newest = try generation(db)
        let start = try changeLogStart(db)
        guard newest - start > keep + every else { return }
        let cut = newest - keep
        try db.execute("DELETE FROM change WHERE generation <= ?", [cut])
        try db.execute("UPDATE libraryInfo SET value = ? WHERE key = 'changeLogStart'", [String(cut)])
    }

    /// Prunes the change log now, to its newest `keep` entries (tests reach back past the log with it).
    func pruneChangeLog(keep: Int64) throws(LibraryError) {
        try write { db in try Self.pruneChangeLog(db, keep: keep, every: 0) }
    }
}
