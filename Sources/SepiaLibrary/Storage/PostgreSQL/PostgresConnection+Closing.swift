import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// The connection closed before a statement's answer came.
    struct ClosedBeforeAnswer: Error, CustomStringConvertible {
        var description: String { "the connection was closed before the statement's answer came" }
    }

    /// Runs `query` and collects its rows, or fails once the connection is closed, whichever comes first.
    ///
    /// PostgresNIO fails the statements in flight when a connection breaks, but a statement *sent* after the
    /// break (the next statement of a transaction whose connection the server just terminated, or the
    /// `ROLLBACK` after the failure) is written to a closed channel without a promise, and its future never
    /// completes: a caller waiting on it would wait forever. Here the connection's close fails the statement
    /// instead; when the statement has an answer or an error of its own first, that one is kept.
    func queryEndingWithConnection(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        let promise = eventLoop.makePromise(of: PostgresQueryResult.self)
        closeFuture.whenComplete { _ in promise.fail(ClosedBeforeAnswer()) }
        self.query(query, logger: logger).cascade(to: promise)
        return promise.futureResult
    }
}
