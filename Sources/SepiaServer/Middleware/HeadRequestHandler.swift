import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `HEAD` like `GET` without the body (RFC 9110 §9.3.2), for every route: the request goes on as a
/// `GET`, and the body parts of its answer are dropped, so the status and the headers — the body's length
/// among them — are the `GET`'s. Answers on a connection come in the order of the requests, so a queue of
/// flags says which answer to strip.
final class HeadRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// For each request on its way, whether it was a `HEAD`.
    private var heads: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        heads.append(head.method == .head)
        if head.method == .head { head.method = .get }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        let stripping = heads.first ?? false
        switch part {
        case .head:
            context.write(data, promise: promise)
        case .body:
            if stripping {
                promise?.succeed()
            } else {
                context.write(data, promise: promise)
            }
        case .end:
            if !heads.isEmpty { heads.removeFirst() }
            context.write(data, promise: promise)
        }
    }
}
