import NIOCore
import NIOHTTP1

/// The timeouts of one connection, nginx's in spirit: a request head must arrive whole within
/// ``Limits/header`` of its first byte (a client sending a byte a minute is cut off, however steady), a body
/// may pause at most ``Limits/body`` between reads, an answer may wait at most ``Limits/send`` for a client
/// that does not read it, and a kept-alive connection may stay idle at most ``Limits/idle`` (a new one that
/// sends nothing, ``Limits/header``). While the application is answering — rendering, or streaming changes —
/// no deadline runs but the send timeout.
///
/// ``ConnectionDeadlineHandler`` sits first in the pipeline and sees the connection's bytes;
/// ``CachedRenditionHandler`` reports the requests it answers itself, and ``RequestLifecycleObserver`` those
/// NIO's parser reads and the application answers. All three run on the connection's event loop.
final class ConnectionActivity {
    /// The timeouts.
    struct Limits: Sendable {
        var header: TimeAmount
        var idle: TimeAmount
        var body: TimeAmount
        var send: TimeAmount
    }

    let limits: Limits
    /// Requests whose head has arrived and whose answer has not been written whole.
    private(set) var requestsOpen = 0
    /// Whether a request's body is being received.
    private(set) var isReadingBody = false
    /// When the first byte of a head still incomplete arrived.
    private(set) var headStart: NIODeadline?
    /// When bytes last arrived.
    private(set) var lastRead: NIODeadline
    /// Since when nothing has been asked or answered: the connection's start, else the end of the last answer.
    private(set) var idleSince: NIODeadline
    /// Whether a request has been answered on the connection (so that an idle wait is a kept-alive one).
    private(set) var hasAnswered = false
    /// Since when the connection has not been writable, while it is not.
    private(set) var unwritableSince: NIODeadline?
    /// Called when the deadline may have moved earlier.
    var deadlineMayHaveMoved: () -> Void = {}
    /// Called once an error answered before its request's body arrived has been sent: the connection closes,
    /// rather than read (and drop) a body that may be gigabytes.
    var answeredBeforeBody: () -> Void = {}

    init(limits: Limits, now: NIODeadline = .now()) {
        self.limits = limits
        lastRead = now
        idleSince = now
    }

    /// Which deadline applies now, and when it falls; nil when none does.
    var deadline: (kind: Kind, at: NIODeadline)? {
        if isReadingBody { return (.body, lastRead + limits.body) }
        if let unwritableSince { return (.send, unwritableSince + limits.send) }
        if let headStart { return (.header, headStart + limits.header) }
        if requestsOpen > 0 { return nil }
        return hasAnswered ? (.idle, idleSince + limits.idle) : (.header, idleSince + limits.header)
    }

    /// The kinds of deadline, as the log names them.
    enum Kind: String {
        case header, body, send, idle
    }

    // MARK: Events

    /// Bytes arrived: outside a body, they begin a head (or continue one already begun).
    func bytesArrived(_ now: NIODeadline = .now()) {
        lastRead = now
        if !isReadingBody, headStart == nil {
            headStart = now
            deadlineMayHaveMoved()
        }
    }

    /// A head arrived whole and went to the application.
    func headReceived() {
        headStart = nil
        requestsOpen += 1
        isReadingBody = true
    }

    /// The request's body ended.
    func requestEnded() {
        isReadingBody = false
        deadlineMayHaveMoved()
    }

    /// The application wrote the end of an answer.
    func responseEnded(_ now: NIODeadline = .now()) {
        // An answer to a head the parser refused ends a request that never began.
        requestsOpen = max(0, requestsOpen - 1)
        hasAnswered = true
        if requestsOpen == 0 {
            idleSince = now
            deadlineMayHaveMoved()
        }
    }

    /// A request was answered before the application (a rendition from memory).
    func answeredEarly(_ now: NIODeadline = .now()) {
        headStart = nil
        hasAnswered = true
        if requestsOpen == 0 { idleSince = now }
    }

    /// Bytes of a head not yet complete are held after the requests before them were dealt with.
    func headPending(_ now: NIODeadline = .now()) {
        if headStart == nil {
            headStart = now
            deadlineMayHaveMoved()
        }
    }

    func writabilityChanged(isWritable: Bool, _ now: NIODeadline = .now()) {
        if isWritable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = now
            deadlineMayHaveMoved()
        }
    }
}

/// First in the pipeline: notes the bytes that arrive and the connection's writability, and closes the
/// connection when its deadline passes (with `408 Request Timeout` when a head was begun and nothing else is
/// under way).
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let activity: ConnectionActivity
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    private var isClosing = false
    /// Closed for output after a 408: what arrives is dropped.
    private var isLingering = false

    init(activity: ConnectionActivity) {
        self.activity = activity
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        activity.deadlineMayHaveMoved = {
            let (handler, context) = loopBound.value
            handler.schedule(context: context)
        }
        activity.answeredBeforeBody = {
            let (handler, context) = loopBound.value
            handler.closeLingering(context: context, answer: nil)
        }
        schedule(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        activity.deadlineMayHaveMoved = {}
        activity.answeredBeforeBody = {}
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isLingering else { return }
        activity.bytesArrived()
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        activity.writabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// Makes sure a timer fires no later than the current deadline. A deadline that moves later (a body's
    /// next read) keeps the timer, which looks again when it fires.
    private func schedule(context: ChannelHandlerContext) {
        guard !isClosing, let (_, at) = activity.deadline else { return }
        if let timerDeadline, timerDeadline <= at { return }
        timer?.cancel()
        timerDeadline = at
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: at) {
            let (handler, context) = loopBound.value
            handler.timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        timerDeadline = nil
        guard let (kind, at) = activity.deadline else { return }
        guard at <= .now() else { return schedule(context: context) }
        isClosing = true
        guard kind == .header, activity.requestsOpen == 0 else {
            context.close(promise: nil)
            return
        }
        closeLingering(context: context, answer: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    }

    /// A lingering close, as nginx's: the answer (`answer`, or the one already sent) goes out, then only this side
    /// is closed, and what the client still sends is read and dropped for a moment before the connection closes.
    /// Closing at once with the client's bytes unread makes the kernel answer them with a reset, which destroys
    /// the answer on its way.
    private func closeLingering(context: ChannelHandlerContext, answer: String?) {
        guard !isLingering else { return }
        isClosing = true
        timer?.cancel()
        let sent = context.eventLoop.makePromise(of: Void.self)
        if let answer {
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(string: answer))), promise: sent)
        } else {
            sent.succeed()
        }
        isLingering = true
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        sent.futureResult.whenComplete { _ in loopBound.value.close(mode: .output, promise: nil) }
        timer = context.eventLoop.scheduleTask(in: Self.linger) { loopBound.value.close(promise: nil) }
    }

    /// How long a connection closed with a 408 goes on reading (and dropping) what the client sends.
    static let linger: TimeAmount = .seconds(2)
}

/// After NIO's HTTP/1 parser: tells ``ConnectionActivity`` where requests begin and end, and where the
/// application's answers end.
final class RequestLifecycleObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let activity: ConnectionActivity
    private let ledger: ResponseLedger

    init(activity: ConnectionActivity, ledger: ResponseLedger) {
        self.activity = activity
        self.ledger = ledger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: activity.headReceived()
        case .body: break
        case .end: activity.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where activity.isReadingBody && activity.requestsOpen == 1 && head.status.code >= 400:
            // An error answered before the request's body arrived (a declared length past a limit) refuses the
            // body: the connection closes once the answer is sent, and says so. (With a request pipelined behind
            // this one, the body being read is the next request's, and the connection stays.)
            closesAfterAnswer = true
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            ledger.finished += 1
            activity.responseEnded()
            guard closesAfterAnswer else { return context.write(data, promise: promise) }
            closesAfterAnswer = false
            let written = promise ?? context.eventLoop.makePromise(of: Void.self)
            let activity = NIOLoopBound(activity, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in activity.value.answeredBeforeBody() }
            context.writeAndFlush(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Whether the answer being written closes the connection once it is sent.
    private var closesAfterAnswer = false
}
