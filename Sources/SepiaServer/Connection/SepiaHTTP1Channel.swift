import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Sepia's HTTP/1.1 connections: Hummingbird's `HTTP1Channel` pipeline, with ``ConnectionDeadlineHandler`` and
/// ``CachedRenditionHandler`` first, on the connection's bytes, so that renditions in memory are answered
/// before any HTTP parsing into objects, and ``HeadRequestHandler`` after the conversion to HTTP types.
///
/// From the socket: the client's departure (``ClientDepartureHandler``), the deadlines, the early answers, NIO's
/// HTTP/1 encoder and parser, the requests' and answers' ends, the conversion to HTTP types, `HEAD`,
/// Hummingbird's keep-alive state, then the application.
/// A client address past its connection limit is answered `503` and disconnected before any of it.
struct SepiaHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let resolver: CachedRenditionResolver
    let limits: ConnectionActivity.Limits
    let admission: ConnectionAdmission

    /// A server builder for `Application(server:)`.
    static func builder(resolver: CachedRenditionResolver) -> HTTPServerBuilder {
        let configuration = resolver.services.configuration
        let limits = ConnectionActivity.Limits(
            header: TimeAmount(configuration.headerTimeout), idle: TimeAmount(configuration.idleTimeout),
            body: TimeAmount(configuration.bodyTimeout), send: TimeAmount(configuration.sendTimeout))
        let admission = ConnectionAdmission(
            maximumPerAddress: configuration.maximumConnectionsPerAddress, exempt: resolver.services.proxies)
        return HTTPServerBuilder { responder in
            SepiaHTTP1Channel(responder: responder, resolver: resolver, limits: limits, admission: admission)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if let refusal = admission.admit(channel) {
            logger.notice("connection refused", metadata: ["sepia.client": "\(refusal.address)", "sepia.reason": "\(refusal.reason)"])
            let answer =
                "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(refusal.body.utf8.count)\r\n\r\n" + refusal.body
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefusingHandler(answer: answer))
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            }
        }
        return channel.eventLoop.makeCompletedFuture {
            // Hummingbird's limits for header fields.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            let ledger = ResponseLedger()
            let activity = ConnectionActivity(limits: self.limits)
            let pipeline = channel.pipeline.syncOperations
            // Tells the renders of the connection's requests when their client has gone.
            try pipeline.addHandler(ClientDepartureHandler())
            try pipeline.addHandler(ConnectionDeadlineHandler(activity: activity))
            try pipeline.addHandler(CachedRenditionHandler(resolver: resolver, ledger: ledger, activity: activity, eventLoop: channel.eventLoop))
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(RequestLifecycleObserver(activity: activity, ledger: ledger))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HeadRequestHandler())
            // The deadlines above close idle connections; this handler keeps Hummingbird's keep-alive and
            // graceful-shutdown behaviour.
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

/// The only handler of a refused connection: answers with a prepared response once the connection is active,
/// reads nothing, and closes.
final class RefusingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answer: String
    private var answered = false

    init(answer: String) {
        self.answer = answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: answer))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
