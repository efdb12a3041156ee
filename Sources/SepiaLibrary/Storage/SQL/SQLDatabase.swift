/// A database the library store runs on: SQLite in the library folder, or PostgreSQL shared by several
/// servers. It gives sessions in transactions and reports failures in the terms the store needs.
///
/// Writes are serialised (SQLite has one writer; PostgreSQL takes an advisory lock per library), so a
/// write transaction sees every earlier commit and no other write interleaves with it.
package protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in a read-only transaction that sees one consistent state.
    func read<T>(_ body: (any SQLSession) throws -> T) throws -> T
    /// Runs one read-only statement (a single statement sees one consistent state by itself), sparing a
    /// transaction on reads made for every request.
    func readStatement<T>(_ body: (any SQLSession) throws -> T) throws -> T
    /// Runs `body` in a write transaction: all of it commits or none.
    func write<T>(_ body: (any SQLSession) throws -> T) throws -> T
    /// Runs `body` in a write transaction that is not serialised with the other writes, for work that locks
    /// only the rows it takes (``SQLDialect/forUpdateSkipLocked``), such as a job queue several servers
    /// share. SQLite has one writer, so there it is ``write(_:)``.
    func rowLockingWrite<T>(_ body: (any SQLSession) throws -> T) throws -> T
    /// The engine's own consistency check; empty when it is sound.
    func engineProblems() throws -> [String]
}

/// A failure a database reports in terms the store acts on.
package enum SQLFailure: Error, CustomStringConvertible {
    /// A unique constraint refused a row; the text names the constraint or column.
    case uniqueViolation(String)
    /// The database cannot be reached (down, restarting, out of connections); retrying later may work.
    case unavailable(String)

    package var description: String {
        switch self {
        case .uniqueViolation(let what): "a unique constraint refused the row: \(what)"
        case .unavailable(let why): "the database is unavailable: \(why)"
        }
    }
}
