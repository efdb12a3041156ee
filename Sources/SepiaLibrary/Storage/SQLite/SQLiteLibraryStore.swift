import Foundation
import GRDB
import SepiaCodecs

/// The embedded library store: one SQLite file in WAL mode through a GRDB `DatabasePool`, so reads run
/// concurrently with the one writer and never wait for it.
///
/// SQLite-specific behaviour lives in this folder and nowhere else: WAL mode and `synchronous = NORMAL`
/// (a commit survives a killed process; an OS crash may lose the last commits but never corrupts), the busy
/// timeout that makes writers of several processes queue instead of failing with "database is locked",
/// `AUTOINCREMENT` keys, `WITHOUT ROWID` tables, partial indexes, and `PRAGMA integrity_check`. A PostgreSQL
/// store would use `SERIAL`/identity keys, `LISTEN`/`NOTIFY` instead of polling the change log, and row locks.
final class SQLiteLibraryStore: LibraryStore {
    let pool: DatabasePool
    let path: String

    /// How long a writer waits for another process's write transaction before giving up.
    static let busyTimeout: TimeInterval = 60

    /// Opens (creating if needed) and migrates the database at `path`.
    init(path: String) throws(LibraryError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = "sepia.library"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw LibraryError(.cannotOpen, "cannot open the library database: \(error)", subject: path)
        }
        let migrator = Self.migrator
        do {
            let superseded = try pool.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                throw LibraryError(
                    .newerSchema, "the library was written by a newer version of Sepia; update Sepia to open it", subject: path)
            }
            try migrator.migrate(pool)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.cannotOpen, "cannot prepare the library database: \(error)", subject: path)
        }
    }

    // MARK: - Transactions

    func read<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try pool.read(body)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .database(error)
        }
    }

    /// Runs one read-only statement outside a transaction (a single statement sees one consistent state of
    /// the database by itself), which spares the transaction's cost on reads made for every request.
    func readStatement<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try pool.unsafeRead(body)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .database(error)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try pool.write(body)
        } catch let error as LibraryError {
            throw error
        } catch StoreRetry.fileVanished(let file) {
            var error = LibraryError(.fileSystem, "a file was removed while the change was committed", subject: file.hash)
            error.vanishedFile = file
            throw error
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            && (error.message ?? "").contains("asset.contentHash")
        {
            throw LibraryError(.duplicate, "the file is already in the library")
        } catch {
            throw .database(error)
        }
    }

    // MARK: - Change log

    func currentGeneration() throws(LibraryError) -> Int64 {
        try readStatement { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(generation) FROM change")) ?? 0 }
    }

    static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(generation) FROM change") ?? 0
    }

    func changes(after generation: Int64) throws(LibraryError) -> ChangeLogSlice? {
        try read { db -> ChangeLogSlice? in
            let start = try Int64.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'changeLogStart'") ?? 0
            if generation < start { return nil }
            var slice = ChangeLogSlice(generation: try Self.generation(db))
            let rows = try Row.fetchCursor(
                db, sql: "SELECT entity, rowID, localIdentifier, operation FROM change WHERE generation > ?",
                arguments: [generation])
            while let row = try rows.next() {
                let entity: String = row[0]
                let key: Int64 = row[1]
                let identifier: String = row[2]
                let operation: String = row[3]
                if entity == "asset" {
                    slice.assetIdentifiers[key] = identifier
                    switch operation {
                    case "insert": slice.insertedAssets.insert(key)
                    case "delete": slice.deletedAssets.insert(key)
                    default: slice.updatedAssets.insert(key)
                    }
                } else {
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
            let start = try Int64.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'changeLogStart'") ?? 0
            if generation < start { return nil }
            let rows = try Row.fetchCursor(
                db, sql: "SELECT generation, entity, localIdentifier, operation FROM change WHERE generation > ? ORDER BY generation LIMIT ?",
                arguments: [generation, limit])
            var changes: [LibraryChange] = []
            while let row = try rows.next() {
                guard let entity = LibraryChange.Entity(rawValue: row[1]), let operation = LibraryChange.Operation(rawValue: row[3])
                else { continue }
                changes.append(LibraryChange(generation: row[0], entity: entity, id: row[2], operation: operation))
            }
            return changes
        }
    }

    /// Records a change. Deleted objects keep a snapshot, so fetch results made before the deletion can still
    /// show them.
    static func log(
        _ db: Database, entity: String, rowID: Int64, identifier: String, operation: String, snapshot: Data? = nil
    ) throws {
        try db.execute(
            sql: "INSERT INTO change (entity, rowID, localIdentifier, operation, snapshot, date) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [entity, rowID, identifier, operation, snapshot, Date().timeIntervalSince1970])
    }

    /// Keeps the change log to its newest `keep` entries (at most once every `every` generations).
    static func pruneChangeLog(_ db: Database, keep: Int64 = 200_000, every: Int64 = 10_000) throws {
        let newest = try generation(db)
        let start = try Int64.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'changeLogStart'") ?? 0
        guard newest - start > keep + every else { return }
        let cut = newest - keep
        try db.execute(sql: "DELETE FROM change WHERE generation <= ?", arguments: [cut])
        try db.execute(sql: "UPDATE libraryInfo SET value = ? WHERE key = 'changeLogStart'", arguments: [cut])
    }
}
