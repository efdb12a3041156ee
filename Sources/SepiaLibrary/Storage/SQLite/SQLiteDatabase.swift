import Foundation
package import GRDB
import Synchronization

/// An embedded database (the library's `library.sqlite`, the server's `server.sqlite`): one SQLite file in WAL
/// mode through a GRDB `DatabasePool`, so reads run concurrently with the one writer and never wait for it.
///
/// SQLite-specific behaviour lives in this folder and nowhere else: WAL mode and `synchronous = NORMAL`
/// (a commit survives a killed process; an OS crash may lose the last commits but never corrupts), the busy
/// timeout that makes writers of several processes queue instead of failing with "database is locked",
/// `AUTOINCREMENT` keys, `WITHOUT ROWID` tables, partial indexes, `PRAGMA integrity_check`, and the query
/// planner's statistics (`ANALYZE`, see ``analyzeIfGrown(_:)``).
package final class SQLiteDatabase: SQLDatabase {
    package let pool: DatabasePool
    let path: String

    /// When the planner's statistics were last gathered: the writer's change count then, and the rows they
    /// counted.
    private struct Statistics {
        var changesAtAnalysis: Int
        var analyzedRows: Int
    }
    private let statistics = Mutex(Statistics(changesAtAnalysis: 0, analyzedRows: 0))

    /// The fewest row changes after which the statistics are gathered again.
    static let minimumChangesBeforeAnalysis = 1_000

    /// How long a writer waits for another process's write transaction before giving up.
    static let busyTimeout: TimeInterval = 60

    /// Opens (creating if needed) and migrates the library database at `path`.
    convenience init(path: String) throws(LibraryError) {
        try self.init(path: path, label: "sepia.library", migrator: Self.migrator)
    }

    /// Opens (creating if needed) the database at `path` and applies `migrator`.
    package init(path: String, label: String, migrator: DatabaseMigrator) throws(LibraryError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = label
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw LibraryError(.cannotOpen, "cannot open the database: \(error)", subject: path)
        }
        do {
            let superseded = try pool.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                throw LibraryError(
                    .newerSchema, "the library was written by a newer version of Sepia; update Sepia to open it", subject: path)
            }
            let migrated = try pool.read { db in try migrator.hasCompletedMigrations(db) }
            try migrator.migrate(pool)
            try pool.write { db in
                // Analysed anew after a migration too: the planner has no statistics of the indexes it added, and
                // chose one of them for a count it then read row by row (a search for favourites: 146 ms, 30 once
                // analysed).
                if try !db.tableExists("sqlite_stat1") || !migrated { try db.execute(sql: "ANALYZE") }
                let rows = try Int.fetchOne(db, sql: Self.analyzedRowsSQL) ?? 0
                statistics.withLock { $0 = Statistics(changesAtAnalysis: db.totalChangesCount, analyzedRows: rows) }
            }
            pool.invalidateReadOnlyConnections()
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.cannotOpen, "cannot prepare the database: \(error)", subject: path)
        }
    }

    package var dialect: SQLDialect { .sqlite }

    package func read<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteSession(db: db, cachesStatements: false)) }
    }

    package func readStatement<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        // The statements run this way are fixed text (no compiled predicates), so each is prepared once per
        // connection and kept.
        try pool.unsafeRead { db in try body(SQLiteSession(db: db, cachesStatements: true)) }
    }

    package func write<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        do {
            var analyzed = false
            let result = try pool.write { db in
                let result = try body(SQLiteSession(db: db, cachesStatements: false))
                analyzed = analyzeIfGrown(db)
                return result
            }
            // A connection reads the statistics when it opens: the readers open again to plan with the new ones.
            if analyzed { pool.invalidateReadOnlyConnections() }
            return result
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw SQLFailure.uniqueViolation(error.message ?? "")
        }
    }

    package func rowLockingWrite<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try write(body)
    }

    /// The rows the planner's statistics counted, table by table (the first number of each index's `stat`).
    private static let analyzedRowsSQL = """
        SELECT coalesce(sum(rows), 0) FROM (SELECT max(CAST(stat AS INTEGER)) AS rows FROM sqlite_stat1 GROUP BY tbl)
        """

    /// Gathers the query planner's statistics again (`ANALYZE`, in the writer's transaction) once the rows
    /// changed since the last time are as many as the rows it counted, and at least
    /// ``minimumChangesBeforeAnalysis``. Without them SQLite guesses, and on a large library it guessed wrong:
    /// the photos of a few places were counted by reading every visible row (60 ms at 100 000 photos, against
    /// under 1 ms through the index of places), a city's map by reading them all again (43 ms against 3).
    /// A library that grows from nothing is analysed at 1 000 changes, 2 000, 4 000…, so the work stays in
    /// proportion to the writes; 100 000 photos take about 0.2 s.
    private func analyzeIfGrown(_ db: Database) -> Bool {
        let changes = db.totalChangesCount
        let due = statistics.withLock { state in
            changes - state.changesAtAnalysis >= max(Self.minimumChangesBeforeAnalysis, state.analyzedRows)
        }
        guard due else { return false }
        // An optimisation: a failure leaves the change it follows as it was, and the old statistics.
        do {
            try db.inSavepoint {
                try db.execute(sql: "ANALYZE")
                return .commit
            }
            let rows = try Int.fetchOne(db, sql: Self.analyzedRowsSQL) ?? 0
            statistics.withLock { $0 = Statistics(changesAtAnalysis: db.totalChangesCount, analyzedRows: rows) }
            return true
        } catch {
            return false
        }
    }

    package func engineProblems() throws -> [String] {
        try pool.read { db in
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems += integrity.map { "database: \($0)" } }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                problems.append("database: a row of \(row[0] as String) names a missing row of \(row[2] as String)")
            }
            return problems
        }
    }
}

/// Statements on one GRDB connection.
struct SQLiteSession: SQLSession {
    let db: Database
    let cachesStatements: Bool

    var dialect: SQLDialect { .sqlite }

    private func statement(_ sql: String, _ arguments: [any SQLBindable]) throws -> Statement {
        let statement = cachesStatements ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        try statement.setArguments(StatementArguments(arguments.map { $0.sqlValue.databaseValue }))
        return statement
    }

    func fetch(_ sql: String, _ arguments: [any SQLBindable]) throws -> [SQLRow] {
        let rows = try Row.fetchCursor(try statement(sql, arguments))
        var result: [SQLRow] = []
        while let row = try rows.next() {
            result.append(SQLRow(values: row.databaseValues.map(SQLValue.init)))
        }
        return result
    }

    func keys(_ sql: String, _ arguments: [any SQLBindable]) throws -> [Int64] {
        try Int64.fetchAll(try statement(sql, arguments))
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int {
        try statement(sql, arguments).execute()
        return db.changesCount
    }
}

extension SQLValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let n): self = .integer(n)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let data): self = .blob(data)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let n): n.databaseValue
        case .real(let d): d.databaseValue
        case .text(let s): s.databaseValue
        case .blob(let data): data.databaseValue
        case .bool(let b): (b ? 1 : 0 as Int64).databaseValue
        case .integers(let keys): ("[" + keys.map(String.init).joined(separator: ",") + "]").databaseValue
        case .texts(let strings):
            String(decoding: (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8), as: UTF8.self).databaseValue
        }
    }
}
