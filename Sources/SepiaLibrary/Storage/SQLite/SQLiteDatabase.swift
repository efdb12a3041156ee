import Foundation
package import GRDB

/// An embedded database (the library's `library.sqlite`, the server's `server.sqlite`): one SQLite file in WAL
/// mode through a GRDB `DatabasePool`, so reads run concurrently with the one writer and never wait for it.
///
/// SQLite-specific behaviour lives in this folder and nowhere else: WAL mode and `synchronous = NORMAL`
/// (a commit survives a killed process; an OS crash may lose the last commits but never corrupts), the busy
/// timeout that makes writers of several processes queue instead of failing with "database is locked",
/// `AUTOINCREMENT` keys, `WITHOUT ROWID` tables, partial indexes, and `PRAGMA integrity_check`.
package final class SQLiteDatabase: SQLDatabase {
    package let pool: DatabasePool
    let path: String

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
            try migrator.migrate(pool)
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
            return try pool.write { db in try body(SQLiteSession(db: db, cachesStatements: false)) }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw SQLFailure.uniqueViolation(error.message ?? "")
        }
    }

    package func rowLockingWrite<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try write(body)
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
