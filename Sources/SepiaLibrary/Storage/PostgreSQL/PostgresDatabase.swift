import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A database on PostgreSQL (a library's, or the server's accounts): its tables in a schema of their own,
/// reached through the process's connection pool for that server, shared by every server of a deployment.
///
/// PostgreSQL-specific behaviour lives in this folder: identity keys, `COLLATE "C"` text (the byte order
/// SQLite compares in, so sorting by file name agrees), `= ANY($1)` lists, migrations applied once under an
/// advisory lock, write transactions serialised per library by another advisory lock (so the commit logic
/// sees what SQLite's single writer sees), and a `NOTIFY` on every commit that other servers listen for.
package final class PostgresDatabase: SQLDatabase {
    package let location: PostgresLocation
    let pool: PostgresConnectionPool
    /// The advisory lock that serialises this schema's write transactions.
    let writeLock: Int64
    /// The forward-only migrations of the schema, by name.
    let migrations: [(identifier: String, sql: String)]
    /// Whether commits announce the change log's generation on ``changeChannel``.
    let announcesChanges: Bool
    /// The channel commits are announced on; the payload is `SCHEMA GENERATION`.
    static let changeChannel = "sepia_changes"

    /// Connects and applies the library migrations the schema lacks.
    convenience init(location: PostgresLocation) throws(LibraryError) {
        try self.init(location: location, migrations: Self.libraryMigrations, announcesChanges: true)
    }

    /// Connects and applies the `migrations` the schema lacks.
    package init(location: PostgresLocation, migrations: [(identifier: String, sql: String)], announcesChanges: Bool) throws(LibraryError) {
        self.location = location
        self.migrations = migrations
        self.announcesChanges = announcesChanges
        pool = PostgresConnectionPool.shared(for: location)
        writeLock = Self.lockKey("sepia.write." + location.schema)
        do {
            try migrate()
        } catch {
            throw SQLLibraryStore.libraryError(error)
        }
    }

    package var dialect: SQLDialect { .postgreSQL }

    package func read<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    package func readStatement<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try pool.withConnection { lease in
            try useSchema(lease)
            return try body(PostgresSession(lease: lease, logger: pool.logger, server: location.server))
        }
    }

    package func write<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try transaction("BEGIN", lockingFirst: writeLock) { session in
            let result = try body(session)
            guard announcesChanges else { return result }
            try session.execute(
                "SELECT pg_notify(?, ? || ' ' || coalesce((SELECT max(generation) FROM change), 0))", [Self.changeChannel, location.schema])
            return result
        }
    }

    package func rowLockingWrite<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try transaction("BEGIN", body)
    }

    package func engineProblems() throws -> [String] {
        // PostgreSQL checks constraints as rows are written and has no whole-database check to run; what is
        // worth asking is whether every migration is applied.
        try readStatement { db in
            let applied = Set(try db.values("SELECT identifier FROM sepiaMigration", as: String.self))
            return migrations.map(\.identifier).filter { !applied.contains($0) }.map {
                "database: migration ‘\($0)’ is missing from schema \(location.schema)"
            }
        }
    }

    // MARK: - Transactions

    private func useSchema(_ lease: PostgresConnectionPool.Lease) throws {
        guard lease.searchPath != location.schema else { return }
        let session = PostgresSession(lease: lease, logger: pool.logger, server: location.server)
        try session.execute("SET search_path TO \"\(location.schema)\"")
        // The library's queries are short, and many run at once: starting parallel workers for one cost more
        // than they saved (a search's first page on 100 000 photos: p50 79 ms with them, 53 without).
        try session.execute("SET max_parallel_workers_per_gather = 0")
        // A library's rows are read from memory or a solid-state disk, where a row looked up by its key costs little
        // more than one read in turn; at the default (4) the planner read every photo to join 1 700 of a search's
        // matches (61 ms) instead of looking each up (15).
        try session.execute("SET random_page_cost = 1.1")
        lease.searchPath = location.schema
    }

    private func transaction<T>(_ begin: String, lockingFirst lock: Int64? = nil, _ body: (PostgresSession) throws -> T) throws -> T {
        try pool.withConnection { lease in
            try useSchema(lease)
            let session = PostgresSession(lease: lease, logger: pool.logger, server: location.server)
            try session.execute(begin)
            do {
                if let lock { try session.execute("SELECT pg_advisory_xact_lock(?)", [lock]) }
                let result = try body(session)
                try session.execute("COMMIT")
                return result
            } catch {
                // A failed rollback means the connection is broken: close it so the pool replaces it.
                if (try? session.execute("ROLLBACK")) == nil { _ = lease.connection.close() as EventLoopFuture<Void> }
                throw error
            }
        }
    }

    /// A stable 64-bit key for an advisory lock (FNV-1a).
    static func lockKey(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// A driver error in the terms the store acts on.
    static func failure(_ error: any Error, connecting: Bool = false, server: String) -> any Error {
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                let message = error.serverInfo?[.message] ?? "\(error)"
                if state == "23505" {
                    return SQLFailure.uniqueViolation((error.serverInfo?[.constraintName] ?? "") + ": " + message)
                }
                // Connection exceptions, shutdown, "the database system is starting up", too many clients.
                if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
                    return SQLFailure.unavailable("\(server): \(message)")
                }
                return PostgresFailure(state: state, message: message)
            case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
                let cause = error.underlying.map { "\($0)" } ?? (connecting ? "cannot connect" : "the connection was closed")
                return SQLFailure.unavailable("\(server): \(cause)")
            default:
                return connecting ? SQLFailure.unavailable("\(server): \(error.underlying.map { "\($0)" } ?? "\(error.code)")") : error
            }
        }
        if connecting || error is IOError || error is ChannelError || error is PostgresConnectionPool.ClosedBeforeAnswer {
            return SQLFailure.unavailable("\(server): \(error)")
        }
        return error
    }
}

/// An error PostgreSQL reported, with its SQLSTATE.
struct PostgresFailure: Error, CustomStringConvertible {
    var state: String
    var message: String

    var description: String { "PostgreSQL error \(state): \(message)" }
}

/// Statements on one pooled PostgreSQL connection. `?` placeholders become `$1`, `$2`, …
struct PostgresSession: SQLSession {
    let lease: PostgresConnectionPool.Lease
    let logger: Logger
    let server: String

    var dialect: SQLDialect { .postgreSQL }

    private func run(_ sql: String, _ arguments: [any SQLBindable]) throws -> PostgresQueryResult {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument.sqlValue {
            case .null: bindings.appendNull()
            case .integer(let n): bindings.append(n)
            case .real(let d): bindings.append(d)
            case .text(let s): bindings.append(s)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            case .bool(let b): bindings.append(b)
            case .integers(let keys): bindings.append(keys)
            case .texts(let strings): bindings.append(strings)
            }
        }
        let query = PostgresQuery(unsafeSQL: Self.numberingPlaceholders(sql), binds: bindings)
        do {
            return try lease.query(query, logger: logger).wait()
        } catch {
            throw PostgresDatabase.failure(error, server: server)
        }
    }

    func fetch(_ sql: String, _ arguments: [any SQLBindable]) throws -> [SQLRow] {
        try run(sql, arguments).map { row in SQLRow(values: row.map(SQLValue.init)) }
    }

    /// The keys come back as one array in one row: receiving ten thousand one-column rows costs more than
    /// the query (13 ms against 3 ms for a 10 000-asset snapshot). The aggregate reads the sorted subquery
    /// in its order, as PostgreSQL does for an aggregate over a single subquery.
    func keys(_ sql: String, _ arguments: [any SQLBindable]) throws -> [Int64] {
        let result = try run("SELECT coalesce(array_agg(listed.k), '{}') FROM (" + sql + ") AS listed(k)", arguments)
        guard let row = result.first else { return [] }
        var cells = row.makeIterator()
        guard let cell = cells.next() else { return [] }
        do {
            return try cell.decode([Int64].self)
        } catch {
            throw PostgresDatabase.failure(error, server: server)
        }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    /// `sql` with each `?` outside quotes numbered: `$1`, `$2`, …
    static func numberingPlaceholders(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension SQLValue {
    init(_ cell: PostgresCell) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        do {
            switch cell.dataType {
            case .int8, .int4, .int2: self = .integer(try cell.decode(Int64.self))
            case .float8, .float4: self = .real(try cell.decode(Double.self))
            case .bool: self = .bool(try cell.decode(Bool.self))
            case .bytea:
                let buffer = try cell.decode(ByteBuffer.self)
                self = .blob(Data(buffer.readableBytesView))
            default: self = .text(try cell.decode(String.self))
            }
        } catch {
            self = .null
        }
    }
}
