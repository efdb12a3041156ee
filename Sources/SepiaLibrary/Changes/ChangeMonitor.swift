import Foundation
import Synchronization

/// Tells observers that the library changed: at once for commits made through this process's library, and by
/// polling the change log's generation for commits made by other processes on the same library.
///
/// Polling is the SQLite way (one cheap indexed read per interval, only while someone observes); a
/// PostgreSQL store would use `LISTEN`/`NOTIFY` instead.
final class ChangeMonitor: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<Int64>.Continuation] = [:]
        var nextToken: UInt64 = 0
        var lastGeneration: Int64
        var poller: PollingThread?
    }

    private let state: Mutex<State>
    /// `state.lastGeneration`, readable without the lock (every request for an asset asks).
    private let known: Atomic<Int64>
    private let currentGeneration: @Sendable () -> Int64?
    let interval: Duration

    init(generation: Int64, interval: Duration, currentGeneration: @escaping @Sendable () -> Int64?) {
        state = Mutex(State(lastGeneration: generation))
        known = Atomic(generation)
        self.interval = interval
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
            return token
        }
        return (stream, token)
    }

    func unsubscribe(_ token: UInt64) {
        let (continuation, poller) = state.withLock { state -> (AsyncStream<Int64>.Continuation?, PollingThread?) in
            let continuation = state.subscribers.removeValue(forKey: token)
            var poller: PollingThread?
            if state.subscribers.isEmpty {
                poller = state.poller
                state.poller = nil
            }
            return (continuation, poller)
        }
        continuation?.finish()
        poller?.stop()
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
        let (continuations, poller) = state.withLock { state in
            let all = Array(state.subscribers.values)
            state.subscribers = [:]
            let poller = state.poller
            state.poller = nil
            return (all, poller)
        }
        poller?.stop()
        for continuation in continuations { continuation.finish() }
    }

    private func startPolling() -> PollingThread {
        PollingThread(name: "sepia.change-monitor", interval: interval) { [weak self] in
            guard let self, let generation = self.currentGeneration() else { return }
            self.didChange(generation: generation)
        }
    }
}
