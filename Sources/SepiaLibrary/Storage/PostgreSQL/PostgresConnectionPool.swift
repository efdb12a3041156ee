import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// A bounded set of connections to one PostgreSQL server, shared by every library this process opens there.
/// Callers block until a connection is free: the library store is synchronous, and its statements complete on
/// NIO's event loops, never on the caller's thread, so blocking a caller cannot starve them.
///
/// A connection that failed (the server restarted, the network dropped) is closed and replaced on the next
/// use, so the pool recovers by itself once the server is back.
final class PostgresConnectionPool: @unchecked Sendable {
    /// A pooled connection and the schema its `search_path` is set to. One caller holds it at a time.
    final class Lease: @unchecked Sendable {
        let connection: PostgresConnection
        var searchPath: String?
        /// The statement waiting for its answer, failed if the connection closes first; guarded by `lock`.
        private var waiting: EventLoopPromise<PostgresQueryResult>?
        private let lock = NSLock()

        init(connection: PostgresConnection) {
            self.connection = connection
            connection.closeFuture.whenComplete { [weak self] _ in self?.failWaiting() }
        }

        /// Whether the connection is closed (by either side): the pool replaces it.
        var isClosed: Bool { connection.isClosed }

        /// Runs `query` and collects its rows, or fails once the connection is closed, whichever comes first.
        ///
        /// PostgresNIO fails the statements in flight when a connection breaks, but a statement *sent* after the
        /// break (the next statement of a transaction whose connection the server just ended, or the `ROLLBACK`
        /// after the failure) is written to the closed channel without a promise, and its future never completes:
        /// a caller waiting on it would wait forever. Here the connection's close fails the statement instead
        /// (one callback per connection, not per statement); a statement with an answer or an error of its own
        /// keeps it.
        func query(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
            let promise = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
            lock.withLock { waiting = promise }
            // Closed before `waiting` was set: the close's callback has run already (the channel is inactive
            // before its close future completes).
            if connection.isClosed { promise.fail(ClosedBeforeAnswer()) }
            connection.query(query, logger: logger).cascade(to: promise)
            promise.futureResult.whenComplete { [weak self] _ in
                guard let self else { return }
                lock.withLock { if waiting?.futureResult === promise.futureResult { waiting = nil } }
            }
            return promise.futureResult
        }

        private func failWaiting() {
            let promise = lock.withLock { () -> EventLoopPromise<PostgresQueryResult>? in
                defer { waiting = nil }
                return waiting
            }
            promise?.fail(ClosedBeforeAnswer())
        }
    }

    /// The connection closed before a statement's answer came.
    struct ClosedBeforeAnswer: Error, CustomStringConvertible {
        var description: String { "the connection was closed before the statement's answer came" }
    }

    let location: PostgresLocation
    let logger: Logger
    private let condition = NSCondition()
    private var idle: [Lease] = []
    private var open = 0
    private var nextID = 0
    /// How long a caller waits for a free connection before the request fails.
    static let checkoutTimeout: TimeInterval = 30

    private init(location: PostgresLocation) {
        self.location = location
        var logger = Logger(label: "sepia.postgres")
        logger.logLevel = .critical
        self.logger = logger
    }

    private static let registry = NSLock()
    nonisolated(unsafe) private static var pools: [String: PostgresConnectionPool] = [:]

    /// The process's pool for `location`'s server and database.
    static func shared(for location: PostgresLocation) -> PostgresConnectionPool {
        registry.lock()
        defer { registry.unlock() }
        let key = location.server + "#" + (location.password ?? "")
        if let pool = pools[key] { return pool }
        let pool = PostgresConnectionPool(location: location)
        pools[key] = pool
        return pool
    }

    /// Runs `body` with a connection of its own.
    func withConnection<T>(_ body: (Lease) throws -> T) throws -> T {
        let lease = try checkOut()
        do {
            let result = try body(lease)
            checkIn(lease)
            return result
        } catch {
            checkIn(lease)
            throw error
        }
    }

    private func checkOut() throws -> Lease {
        condition.lock()
        let deadline = Date().addingTimeInterval(Self.checkoutTimeout)
        while idle.isEmpty && open >= location.maximumConnections {
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw SQLFailure.unavailable("all \(location.maximumConnections) connections stayed busy for \(Int(Self.checkoutTimeout)) s")
            }
        }
        while let lease = idle.popLast() {
            if !lease.isClosed {
                condition.unlock()
                return lease
            }
            open -= 1
        }
        open += 1
        nextID += 1
        let id = nextID
        condition.unlock()
        do {
            return Lease(connection: try connect(id: id))
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ lease: Lease) {
        condition.lock()
        if lease.isClosed {
            open -= 1
        } else {
            idle.append(lease)
        }
        condition.signal()
        condition.unlock()
    }

    /// A new connection of its own, outside the pool (the change listener's).
    func connect(id: Int) throws -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        if let folder = location.socketFolder {
            configuration = .init(
                unixSocketPath: folder + "/.s.PGSQL.\(location.port)", username: location.user, password: location.password,
                database: location.database)
        } else {
            configuration = .init(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(5)
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            throw PostgresDatabase.failure(error, connecting: true, server: location.server)
        }
    }
}
