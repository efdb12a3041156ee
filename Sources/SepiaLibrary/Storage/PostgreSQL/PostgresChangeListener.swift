import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Hears the commits of every server on a PostgreSQL database: one connection per process that `LISTEN`s on
/// ``PostgresDatabase/changeChannel`` and hands each `SCHEMA GENERATION` payload to the libraries open on that
/// schema, so their change streams move within milliseconds of a commit anywhere.
///
/// The change log stays the source of truth: a notification only says "look". While the connection is down
/// nothing is heard, so on every (re)connection each handler is called with nil, meaning "read the generation
/// now", and libraries keep a slow poll as well; a lost notification costs latency, never an event.
final class PostgresChangeListener: @unchecked Sendable {
    /// Stops a handler when released or cancelled.
    final class Registration: Sendable {
        private let cancelling: @Sendable () -> Void

        init(_ cancel: @escaping @Sendable () -> Void) {
            cancelling = cancel
        }

        func cancel() { cancelling() }

        deinit { cancelling() }
    }

    private let pool: PostgresConnectionPool
    private let condition = NSCondition()
    private var handlers: [String: [UInt64: @Sendable (Int64?) -> Void]] = [:]  // guarded by `condition`
    private var nextToken: UInt64 = 0
    private var started = false

    private init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    private static let registry = NSLock()
    nonisolated(unsafe) private static var listeners: [ObjectIdentifier: PostgresChangeListener] = [:]

    /// The process's listener on `pool`'s database.
    static func shared(for pool: PostgresConnectionPool) -> PostgresChangeListener {
        registry.lock()
        defer { registry.unlock() }
        if let listener = listeners[ObjectIdentifier(pool)] { return listener }
        let listener = PostgresChangeListener(pool: pool)
        listeners[ObjectIdentifier(pool)] = listener
        return listener
    }

    /// Calls `handler` with the generation of each commit to `schema` (on a NIO thread: it must not block),
    /// and with nil after the connection was (re)made.
    func listen(schema: String, _ handler: @escaping @Sendable (Int64?) -> Void) -> Registration {
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
        let parts = payload.split(separator: " ")
        guard parts.count == 2, let generation = Int64(parts[1]) else { return }
        condition.lock()
        let targets = handlers[String(parts[0])].map { Array($0.values) } ?? []
        condition.unlock()
        for handler in targets { handler(generation) }
    }

    private func deliverToAll(_ generation: Int64?) {
        condition.lock()
        let targets = handlers.values.flatMap(\.values)
        condition.unlock()
        for handler in targets { handler(generation) }
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
                _ = try connection.query(PostgresQuery(unsafeSQL: "LISTEN \(PostgresDatabase.changeChannel)"), logger: pool.logger).wait()
                deliverToAll(nil)
                try connection.closeFuture.wait()
            } catch {
                pool.logger.debug("the change listener lost its connection: \(error)")
            }
            Thread.sleep(forTimeInterval: 1)
        }
    }
}
