import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Hears what every server on a PostgreSQL database announces: one connection per process that `LISTEN`s on
/// ``PostgresDatabase/changeChannel`` and hands each `SCHEMA MESSAGE` payload to the handlers of that schema:
/// libraries (the message is the change log's generation, so their change streams move within milliseconds
/// of a commit anywhere) and account stores (`forget HASH`, so a revoked credential stops working at once).
///
/// The databases stay the source of truth: a message only says "look". While the connection is down nothing
/// is heard, so on every (re)connection each handler is called with an empty message, meaning "look now", and
/// libraries keep a slow poll as well; a lost notification costs latency, never an event.
package final class PostgresChangeListener: @unchecked Sendable {
    /// Stops a handler when released or cancelled.
    package final class Registration: Sendable {
        private let cancelling: @Sendable () -> Void

        init(_ cancel: @escaping @Sendable () -> Void) {
            cancelling = cancel
        }

        package func cancel() { cancelling() }

        deinit { cancelling() }
    }

    private let pool: PostgresConnectionPool
    private let condition = NSCondition()
    private var handlers: [String: [UInt64: @Sendable (Substring) -> Void]] = [:]  // guarded by `condition`
    private var nextToken: UInt64 = 0
    private var started = false

    private init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    private static let registry = NSLock()
    nonisolated(unsafe) private static var listeners: [ObjectIdentifier: PostgresChangeListener] = [:]

    /// The process's listener on `database`'s server and database.
    package static func shared(for database: PostgresDatabase) -> PostgresChangeListener {
        shared(for: database.pool)
    }

    /// The process's listener on `pool`'s database.
    static func shared(for pool: PostgresConnectionPool) -> PostgresChangeListener {
        registry.lock()
        defer { registry.unlock() }
        if let listener = listeners[ObjectIdentifier(pool)] { return listener }
        let listener = PostgresChangeListener(pool: pool)
        listeners[ObjectIdentifier(pool)] = listener
        return listener
    }

    /// Calls `handler` with each message announced for `schema` (on a NIO thread: it must not block), and with
    /// an empty message after the connection was (re)made.
    package func listen(schema: String, _ handler: @escaping @Sendable (Substring) -> Void) -> Registration {
        condition.lock()
        let token = nextToken
        nextToken += 1
        handlers[schema, default: [:]][token] = handler
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "sepia.postgres-listener"
            thread.start()
        }
        condition.unlock()
        return Registration { [weak self] in
            guard let self else { return }
            condition.lock()
            handlers[schema]?[token] = nil
            if handlers[schema]?.isEmpty == true { handlers[schema] = nil }
            condition.unlock()
        }
    }

    private func deliver(_ payload: String) {
        guard let space = payload.firstIndex(of: " ") else { return }
        let schema = String(payload[..<space])
        let message = payload[payload.index(after: space)...]
        condition.lock()
        let targets = handlers[schema].map { Array($0.values) } ?? []
        condition.unlock()
        for handler in targets { handler(message) }
    }

    private func deliverToAll() {
        condition.lock()
        let targets = handlers.values.flatMap(\.values)
        condition.unlock()
        for handler in targets { handler("") }
    }

    /// Announces `message` to the listeners of `schema` on every server, when the transaction commits.
    package static func announce(_ message: String, schema: String, in db: any SQLSession) throws {
        try db.execute("SELECT pg_notify(?, ?)", [PostgresDatabase.changeChannel, schema + " " + message])
    }

    /// Stays connected for the life of the process, reconnecting a second after a failure.
    private func run() {
        var id = -1
        while true {
            id -= 1
            do {
                let connection = try pool.connect(id: id)
                connection.addListener(channel: PostgresDatabase.changeChannel) { [weak self] _, notification in
                    self?.deliver(notification.payload)
                }
                let lease = PostgresConnectionPool.Lease(connection: connection)
                _ = try lease.query(PostgresQuery(unsafeSQL: "LISTEN \(PostgresDatabase.changeChannel)"), logger: pool.logger).wait()
                deliverToAll()
                try connection.closeFuture.wait()
            } catch {
                pool.logger.debug("the change listener lost its connection: \(error)")
            }
            Thread.sleep(forTimeInterval: 1)
        }
    }
}
