import Foundation
import Synchronization

/// Tells observers that the library changed: at once for commits made through this process's library, and
/// for commits made by other processes on the same library, by polling the change log's generation (SQLite:
/// one cheap indexed read per interval, only while someone observes) or, on PostgreSQL, as soon as the
/// database announces them (`LISTEN`/`NOTIFY`), with a slow poll behind in case an announcement is lost.
final class ChangeMonitor: Sendable {
    /// Where announcements of other processes' commits come from: `listen` calls its handler with each
    /// commit's generation, or an empty message for "read the generation now".
    typealias Announcements = @Sendable (_ handler: @escaping @Sendable (Substring) -> Void) -> PostgresChangeListener.Registration

    private struct State {
        var subscribers: [UInt64: AsyncStream<Int64>.Continuation] = [:]
        var nextToken: UInt64 = 0
        var lastGeneration: Int64
        var poller: PollingThread?
        var listening: PostgresChangeListener.Registration?
    }

    private let state: Mutex<State>
    /// `state.lastGeneration`, readable without the lock (every request for an asset asks).
    private let known: Atomic<Int64>
    private let currentGeneration: @Sendable () -> Int64?
    private let announcements: Announcements?
    let interval: Duration

    /// With `announcements`, polling slows to once every 5 seconds (or `interval`, if longer).
    init(
        generation: Int64, interval: Duration, announcements: Announcements? = nil,
        currentGeneration: @escaping @Sendable () -> Int64?
    ) {
        state = Mutex(State(lastGeneration: generation))
        known = Atomic(generation)
        self.interval = announcements == nil ? interval : max(interval, .seconds(5))
        self.announcements = announcements
        self.currentGeneration = currentGeneration
    }

    /// The newest generation known: raised at once by this process's commits, and by polling for other
    /// processes' commits while anyone subscribes.
    var knownGeneration: Int64 { known.load(ordering: .acquiring) }

    /// A stream of generations, newest only, and the token to unsubscribe with.
    func subscribe() -> (AsyncStream<Int64>, UInt64) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let token = state.withLock { state -> UInt64 in
            let token = state.nextToken
            state.nextToken += 1
            state.subscribers[token] = continuation
            if state.poller == nil { state.poller = startPolling() }
            if state.listening == nil, let announcements {
                state.listening = announcements { [weak self] message in
                    guard let self else { return }
                    if let generation = Int64(message) {
                        didChange(generation: generation)
                    } else if message.isEmpty, let current = currentGeneration() {
                        didChange(generation: current)
                    }
                }
            }
            return token
        }
        return (stream, token)
    }

    func unsubscribe(_ token: UInt64) {
        let (continuation, poller, listening) = state.withLock {
            state -> (AsyncStream<Int64>.Continuation?, PollingThread?, PostgresChangeListener.Registration?) in
            let continuation = state.subscribers.removeValue(forKey: token)
            var poller: PollingThread?
            var listening: PostgresChangeListener.Registration?
            if state.subscribers.isEmpty {
                poller = state.poller
                state.poller = nil
                listening = state.listening
                state.listening = nil
            }
            return (continuation, poller, listening)
        }
        continuation?.finish()
        poller?.stop()
        listening?.cancel()
    }

    /// Reports a commit at `generation`.
    func didChange(generation: Int64) {
        let continuations = state.withLock { state -> [AsyncStream<Int64>.Continuation] in
            guard generation > state.lastGeneration else { return [] }
            state.lastGeneration = generation
            known.store(generation, ordering: .releasing)
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.yield(generation) }
    }

    /// Stops every stream.
    func finishAll() {
        let (continuations, poller, listening) = state.withLock { state in
            let all = Array(state.subscribers.values)
            state.subscribers = [:]
            let poller = state.poller
            state.poller = nil
            let listening = state.listening
            state.listening = nil
            return (all, poller, listening)
        }
        poller?.stop()
        listening?.cancel()
        for continuation in continuations { continuation.finish() }
    }

    private func startPolling() -> PollingThread {
        PollingThread(name: "sepia.change-monitor", interval: interval) { [weak self] in
            guard let self, let generation = self.currentGeneration() else { return }
            self.didChange(generation: generation)
        }
    }
}
