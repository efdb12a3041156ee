import Foundation

/// Where a library's database is on a PostgreSQL server: the server, the database, and the schema that holds
/// this library's tables (one database can hold many libraries, one schema each).
///
/// Written as a URL: `postgres://USER@HOST[:PORT]/DATABASE[?schema=NAME][&host=SOCKET_DIR][&pool=N]`. The
/// password never goes in the URL (it would show in process lists and shell history): it comes from
/// `PGPASSWORD` or a file given separately.
public struct PostgresLocation: Sendable, Hashable {
    /// The server's host name or address, when connecting over TCP.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The folder holding the server's Unix socket (`?host=/path`), instead of TCP.
    public var socketFolder: String?
    /// The role to connect as.
    public var user: String
    /// The role's password, if the server asks for one.
    public var password: String?
    /// The database.
    public var database: String
    /// The schema holding this library's tables.
    public var schema: String
    /// The most connections this process opens to the server (shared by every library on it).
    public var maximumConnections: Int

    /// Parses a `postgres://` URL (see the type's description). The password comes from `password`, else
    /// `PGPASSWORD`.
    public init(parsing text: String, password: String? = nil) throws(LibraryError) {
        func invalid(_ why: String) -> LibraryError {
            LibraryError(.cannotOpen, "\(why); write postgres://USER@HOST[:PORT]/DATABASE[?schema=NAME]", subject: text)
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw invalid("not a PostgreSQL URL") }
        if components.password != nil {
            throw LibraryError(
                .cannotOpen, "put the password in PGPASSWORD or a credentials file, not in the URL (it would show in process lists)",
                subject: text)
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        for name in query.keys where !["schema", "host", "pool"].contains(name) {
            throw invalid("unknown setting ‘\(name)’ (known: schema, host, pool)")
        }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = components.port ?? 5432
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if socketFolder == nil, let named = query["host"], !named.isEmpty { host = named }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else { throw invalid("the URL names no database") }
        database = path.removingPercentEncoding ?? path
        schema = query["schema"] ?? "sepia"
        guard Self.isValidSchema(schema) else {
            throw invalid("the schema must be 1 to 63 lowercase letters, digits or underscores, starting with a letter")
        }
        if let pool = query["pool"] {
            guard let count = Int(pool), (1...200).contains(count) else { throw invalid("pool must be a number of connections from 1 to 200") }
            maximumConnections = count
        } else {
            maximumConnections = 8
        }
        self.password = password ?? ProcessInfo.processInfo.environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The same server and database, another library's schema.
    public func schema(_ name: String) throws(LibraryError) -> PostgresLocation {
        guard Self.isValidSchema(name) else {
            throw LibraryError(
                .cannotOpen, "the schema must be 1 to 63 lowercase letters, digits or underscores, starting with a letter", subject: name)
        }
        var copy = self
        copy.schema = name
        return copy
    }

    static func isValidSchema(_ name: String) -> Bool {
        name.range(of: "^[a-z][a-z0-9_]{0,62}$", options: .regularExpression) != nil
    }

    /// The server and database, without the password: names the connection pool and shows in messages.
    public var server: String {
        let place = socketFolder.map { "?host=\($0)" } ?? ""
        return "postgres://\(user)@\(socketFolder == nil ? host : ""):\(port)/\(database)\(place)"
    }

    /// The URL that opens this library again (no password).
    public var identity: String {
        let place = socketFolder.map { "&host=\($0)" } ?? ""
        return "postgres://\(user)@\(socketFolder == nil ? "\(host):\(port)" : "")/\(database)?schema=\(schema)\(place)"
    }
}
