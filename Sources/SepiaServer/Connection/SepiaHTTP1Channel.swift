import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Sepia's HTTP/1.1 connections: Hummingbird's `HTTP1Channel` pipeline, with ``CachedRenditionHandler``
/// first, on the connection's bytes, so that renditions in memory are answered before any HTTP parsing into
/// objects, and ``HeadRequestHandler`` after the conversion to HTTP types.
///
/// From the socket: the early answers, NIO's HTTP/1 encoder and parser, the ledger of finished answers, the
/// conversion to HTTP types, `HEAD`, Hummingbird's idle and keep-alive state, then the application.
struct SepiaHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let resolver: CachedRenditionResolver

    /// A server builder for `Application(server:)`.
    static func builder(resolver: CachedRenditionResolver) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in SepiaHTTP1Channel(responder: responder, resolver: resolver) }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Hummingbird's limits for header fields.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            let ledger = ResponseLedger()
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(CachedRenditionHandler(resolver: resolver, ledger: ledger, eventLoop: channel.eventLoop))
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(ResponseEndObserver(ledger: ledger))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HeadRequestHandler())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
