import NIOCore
import Synchronization

/// Whether the client of a connection is still there, for work that should stop when nobody waits for its
/// answer (a render). Hummingbird does not cancel a handler when its client goes away, so the connection's
/// ``ClientDepartureHandler`` reports it here: the client closed its side (it gave up, or its timeout fired),
/// or the connection closed. A client that half-closes after its request and still reads the answer is taken
/// for gone too, as Go's and nginx's servers take it.
final class ClientDeparture: Sendable {
    private struct State {
        var isGone = false
        var nextID = 0
        var watchers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Whether the client has gone.
    var isGone: Bool { state.withLock { $0.isGone } }

    /// Marks the client gone and calls every watcher once.
    func clientLeft() {
        let watchers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isGone else { return [] }
            state.isGone = true
            defer { state.watchers.removeAll() }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher() }
    }

    /// Runs `work` in a task of its own that is cancelled when the client goes (or when the calling task is
    /// cancelled), and waits for it to end: a render stops after the tile in hand, and the caller returns once
    /// it has.
    func cancellingWhenGone<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let id = state.withLock { state -> Int? in
            guard !state.isGone else { return nil }
            state.nextID += 1
            state.watchers[state.nextID] = { task.cancel() }
            return state.nextID
        }
        if id == nil { task.cancel() }
        defer {
            if let id { _ = state.withLock { $0.watchers.removeValue(forKey: id) } }
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// Reports to a connection's ``ClientDeparture`` that its client went: its input closed, or the connection
/// became inactive.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    let departure = ClientDeparture()

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { departure.clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        departure.clientLeft()
        context.fireChannelInactive()
    }

    /// The departure of the connection `channel`, when it has this handler (a test's in-process channel has not).
    static func departure(of channel: any Channel) async -> ClientDeparture? {
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ClientDepartureHandler.self).departure
        }.get()
    }
}
