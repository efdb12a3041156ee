import NIOCore
import NIOHTTP1

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

/// Counts the ends of the application's answers, as they go out (between the application and NIO's HTTP/1
/// encoder).
final class ResponseEndObserver: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let ledger: ResponseLedger

    init(ledger: ResponseLedger) {
        self.ledger = ledger
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { ledger.finished += 1 }
        context.write(data, promise: promise)
    }
}
