/// What one connection owes: the requests passed on to the application, and the answers it has finished.
/// ``CachedRenditionHandler`` answers a request itself only when the two are equal, so that answers keep the
/// order of the requests. Both handlers that share it run on the connection's event loop.
final class ResponseLedger {
    /// Requests passed on to NIO's parser and the application.
    var forwarded = 0
    /// Answers whose end the application has written.
    var finished = 0

    /// Whether every request passed on has its whole answer written.
    var isSettled: Bool { forwarded == finished }
}
