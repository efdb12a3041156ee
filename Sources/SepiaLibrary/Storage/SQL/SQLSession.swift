/// Statements run inside one transaction (or as one statement) of a ``SQLDatabase``. Statements are written
/// with `?` placeholders in the SQL both databases accept; ``SQLDialect`` spells the few things they do not
/// share.
package protocol SQLSession {
    var dialect: SQLDialect { get }
    /// Every row `sql` returns.
    func fetch(_ sql: String, _ arguments: [any SQLBindable]) throws -> [SQLRow]
    /// The first column of every row, as keys: the fast path for snapshots of a million assets.
    func keys(_ sql: String, _ arguments: [any SQLBindable]) throws -> [Int64]
    /// Runs `sql` and returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int
}

package extension SQLSession {
    func fetch(_ sql: String) throws -> [SQLRow] { try fetch(sql, []) }

    /// The first row `sql` returns, if any.
    func fetchOne(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> SQLRow? {
        try fetch(sql, arguments).first
    }

    /// The first column of the first row, or nil when there is no row or the value is NULL.
    func value<T: SQLReadable>(_ sql: String, _ arguments: [any SQLBindable] = [], as type: T.Type = T.self) throws -> T? {
        guard let row = try fetchOne(sql, arguments), row.count > 0 else { return nil }
        return Optional<T>.read(row.values[0])
    }

    /// The first column of every row.
    func values<T: SQLReadable>(_ sql: String, _ arguments: [any SQLBindable] = [], as type: T.Type = T.self) throws -> [T] {
        try fetch(sql, arguments).map { $0[0] }
    }

    @discardableResult
    func execute(_ sql: String) throws -> Int { try execute(sql, []) }
}

/// What the two databases spell differently.
package enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    /// `expression` is one of a list bound as ``SQLValue/integers(_:)`` or ``SQLValue/texts(_:)``.
    package func inList(_ expression: String) -> String {
        switch self {
        case .sqlite: "\(expression) IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "\(expression) = ANY(?)"
        }
    }

    /// The clause that ends a `SELECT` of rows to take for work: on PostgreSQL it locks them and passes over
    /// rows another transaction holds; SQLite's single writer needs nothing.
    package var forUpdateSkipLocked: String {
        switch self {
        case .sqlite: ""
        case .postgreSQL: " FOR UPDATE SKIP LOCKED"
        }
    }

    /// Case-insensitive `LIKE` (SQLite's `LIKE` already ignores ASCII case).
    package var caseInsensitiveLike: String {
        switch self {
        case .sqlite: "LIKE"
        case .postgreSQL: "ILIKE"
        }
    }
}
