import NIOCore

/// Answers requests for renditions that are in memory straight from the connection's bytes, first in the
/// channel pipeline: a photo grid asks for hundreds of thumbnails a second, each already rendered, and HTTP
/// parsing into header objects, the conversions to and from HTTP types, a task per request, the router and
/// the middleware chain cost many times the work of finding the bytes. What ``CachedRenditionResolver`` can
/// answer is written as prepared bytes; every other byte passes on, unchanged and in order, to NIO's HTTP/1
/// parser and the application.
///
/// To know where one request ends and the next begins, it reads each head with ``RequestHead``'s strict parser
/// and follows `Content-Length` bodies. When a head is one that parser does not take on (`Transfer-Encoding`,
/// `Upgrade`, unusual syntax), it steps aside for the rest of the connection. It answers only when every
/// request passed on before has its whole answer written (``ResponseLedger``), so answers keep the requests'
/// order, and only while the connection is writable: a client that sends requests without reading the answers
/// stops being read, as on the application's path.
final class CachedRenditionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Framing {
        /// The next byte starts a request head.
        case head
        /// The next `remaining` bytes are the body of a request passed on.
        case body(remaining: Int)
        /// Everything passes on for the rest of the connection.
        case passingOn
    }

    private let resolver: CachedRenditionResolver
    private let ledger: ResponseLedger
    private let activity: ConnectionActivity
    private var memo: CachedRenditionResolver.ConnectionMemo
    private var framing = Framing.head
    /// Bytes received and not yet answered or passed on: an incomplete head, or input held while the
    /// connection is not writable.
    private var input: ByteBuffer?
    /// Whether answers were written since the last flush.
    private var unflushed = false
    /// How many bytes of the input are known not to complete a head.
    private var searched = 0
    /// Whether a complete head waits for the connection to become writable.
    private var isHoldingInput = false
    /// Whether a read was asked for while input was held back.
    private var readWanted = false

    init(resolver: CachedRenditionResolver, ledger: ResponseLedger, activity: ConnectionActivity, eventLoop: any EventLoop) {
        self.resolver = resolver
        self.ledger = ledger
        self.activity = activity
        memo = .init(counters: resolver.services.metrics.earlyAnswerCounters(for: eventLoop))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if case .passingOn = framing { return context.fireChannelRead(data) }
        if input == nil {
            input = bytes
        } else {
            input!.writeBuffer(&bytes)
        }
        process(context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushAnswers(context: context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, isHoldingInput {
            isHoldingInput = false
            process(context: context)
            flushAnswers(context: context)
            // What was passed on reaches the application at the end of a read.
            context.fireChannelReadComplete()
            if readWanted, !isHoldingInput {
                readWanted = false
                context.read()
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { passOnInput(context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        passOnInput(context: context)
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        // While input is held back for want of writability, reading more would only grow it.
        if isHoldingInput {
            readWanted = true
            return
        }
        context.read()
    }

    /// Answers or passes on whole requests from the input, as far as it goes.
    private func process(context: ChannelHandlerContext) {
        while var buffer = input, buffer.readableBytes > 0 {
            switch framing {
            case .passingOn:
                input = nil
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .body(let remaining):
                let count = min(remaining, buffer.readableBytes)
                let body = buffer.readSlice(length: count)!
                input = buffer.readableBytes > 0 ? buffer : nil
                framing = remaining == count ? .head : .body(remaining: remaining - count)
                context.fireChannelRead(wrapInboundOut(body))
            case .head:
                switch RequestHead.scan(buffer, searched: searched) {
                case .incomplete:
                    searched = buffer.readableBytes
                    activity.headPending()
                    return
                case .unsupported:
                    searched = 0
                    framing = .passingOn
                case .complete(let head):
                    searched = 0
                    // A request waits while the connection cannot take more answers (the input stays held).
                    if ledger.isSettled, !context.channel.isWritable {
                        isHoldingInput = true
                        return
                    }
                    if ledger.isSettled, let answer = resolver.answer(head, memo: &memo, allocator: context.channel.allocator) {
                        buffer.moveReaderIndex(forwardBy: head.length)
                        input = buffer.readableBytes > 0 ? buffer : nil
                        context.write(wrapOutboundOut(.byteBuffer(answer.head)), promise: nil)
                        if let body = answer.body { context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil) }
                        unflushed = true
                        activity.answeredEarly()
                    } else {
                        let bytes = buffer.readSlice(length: head.length)!
                        input = buffer.readableBytes > 0 ? buffer : nil
                        ledger.forwarded += 1
                        if !head.keepsAlive {
                            // The application closes the connection after this one; nothing after it is answered here.
                            framing = .passingOn
                        } else if head.contentLength > 0 {
                            framing = .body(remaining: head.contentLength)
                        }
                        context.fireChannelRead(wrapInboundOut(bytes))
                    }
                }
            }
        }
        input = nil
    }

    private func flushAnswers(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
    }

    /// Passes on whatever input is left, before the connection's input ends.
    private func passOnInput(context: ChannelHandlerContext) {
        framing = .passingOn
        if let buffer = input, buffer.readableBytes > 0 {
            input = nil
            context.fireChannelRead(wrapInboundOut(buffer))
        }
        input = nil
    }
}
