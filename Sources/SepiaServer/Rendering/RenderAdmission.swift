import Foundation
import HTTPTypes
import Synchronization

/// Bounds the renders in flight on this server — previews, saves, strips, renditions that are not cached — so
/// that the memory and the cores they take follow the configuration, not the number of connections: at most
/// ``Limits/maximum`` at once on the server and ``Limits/maximumPerAccount`` for one account (a share link's
/// visitors count as one account of their own, the link's). A render past a limit waits its turn, first come
/// first served among the accounts that have room; at most ``Limits/queueLength`` wait on the server and
/// ``Limits/queuePerAccount`` for one account, each at most ``Limits/queueTimeout``. Past any of these the
/// request is answered `503` with `Retry-After`.
final class RenderAdmission: Sendable {
    /// The bounds.
    struct Limits: Sendable {
        /// Renders in flight on the server.
        var maximum: Int
        /// Renders in flight for one account.
        var maximumPerAccount: Int
        /// Renders waiting on the server.
        var queueLength: Int
        /// Renders waiting for one account.
        var queuePerAccount: Int
        /// How long a render may wait for its turn.
        var queueTimeout: Duration
    }

    /// Why a render was not admitted.
    enum Refusal: String, Error, Sendable {
        /// The queue (the server's or the account's) was full.
        case queueFull = "queue_full"
        /// The render waited for its turn longer than the queue timeout.
        case queueTimeout = "queue_timeout"
    }

    let limits: Limits
    let metrics: ServerMetrics

    private struct Waiter {
        var id: UInt64
        var account: String
        /// Nil until the waiting task has registered it.
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var running = 0
        var peak = 0
        var runningByAccount: [String: Int] = [:]
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
        /// How waits ended before their task registered its continuation.
        var outcomes: [UInt64: Result<Void, any Error>] = [:]
    }

    private let state = Mutex(State())

    init(limits: Limits, metrics: ServerMetrics) {
        self.limits = limits
        self.metrics = metrics
        metrics.recordRenders(inFlight: 0, queued: 0)
    }

    /// Runs `work` once admitted, counted against `account` until it ends.
    ///
    /// - Throws: ``APIError`` `503` with `Retry-After` when the queue is full or the wait times out;
    ///   `CancellationError` when the task is cancelled while it waits; whatever `work` throws.
    func run<T: Sendable>(account: String, _ work: () async throws -> T) async throws -> T {
        try await admit(account: account)
        defer { release(account: account) }
        return try await work()
    }

    /// Takes a slot for `account`, waiting for one if need be.
    private func admit(account: String) async throws {
        let ticket = state.withLock { state -> Result<UInt64?, Refusal> in
            if hasRoom(for: account, in: state) {
                take(account, in: &state)
                return .success(nil)
            }
            guard state.waiting.count < limits.queueLength,
                state.waiting.count(where: { $0.account == account }) < limits.queuePerAccount
            else { return .failure(.queueFull) }
            state.nextID += 1
            state.waiting.append(Waiter(id: state.nextID, account: account))
            return .success(state.nextID)
        }
        let id: UInt64
        switch ticket {
        case .success(nil):
            publish()
            return
        case .success(let waiting?):
            id = waiting
            publish()
        case .failure(let refusal):
            throw refuse(refusal)
        }

        let timeout = Task { [limits] in
            try await Task.sleep(for: limits.queueTimeout)
            self.end(id, timedOut: true)
        }
        defer { timeout.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if let outcome = state.outcomes.removeValue(forKey: id) { return outcome }
                    if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                        state.waiting[index].continuation = continuation
                        return nil
                    }
                    return .failure(RenderAdmissionLost())
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            end(id, timedOut: false)
        }
    }

    /// Ends a wait that has not been admitted: timed out (`503`) or cancelled.
    private func end(_ id: UInt64, timedOut: Bool) {
        let ended = state.withLock { state -> (continuation: CheckedContinuation<Void, any Error>?, found: Bool) in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return (nil, false) }
            let waiter = state.waiting.remove(at: index)
            if waiter.continuation == nil {
                state.outcomes[id] = .failure(timedOut ? refuse(.queueTimeout) : CancellationError())
            }
            return (waiter.continuation, true)
        }
        guard ended.found else { return }
        ended.continuation?.resume(throwing: timedOut ? refuse(.queueTimeout) : CancellationError())
        publish()
    }

    /// Gives `account`'s slot back and admits the waiters that now have room.
    private func release(account: String) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.running -= 1
            let count = (state.runningByAccount[account] ?? 1) - 1
            state.runningByAccount[account] = count > 0 ? count : nil
            var admitted: [CheckedContinuation<Void, any Error>] = []
            var index = 0
            while index < state.waiting.count, state.running < limits.maximum {
                let waiter = state.waiting[index]
                guard hasRoom(for: waiter.account, in: state) else {
                    index += 1
                    continue
                }
                take(waiter.account, in: &state)
                state.waiting.remove(at: index)
                if let continuation = waiter.continuation {
                    admitted.append(continuation)
                } else {
                    state.outcomes[waiter.id] = .success(())
                }
            }
            return admitted
        }
        for continuation in admitted { continuation.resume() }
        publish()
    }

    private func hasRoom(for account: String, in state: State) -> Bool {
        state.running < limits.maximum && state.runningByAccount[account, default: 0] < limits.maximumPerAccount
    }

    private func take(_ account: String, in state: inout State) {
        state.running += 1
        state.peak = max(state.peak, state.running)
        state.runningByAccount[account, default: 0] += 1
    }

    private func refuse(_ refusal: Refusal) -> APIError {
        metrics.countRenderRefusal(refusal.rawValue)
        let seconds = max(1, Int(limits.queueTimeout.components.seconds / 2))
        let message =
            switch refusal {
            case .queueFull: "the server is rendering as much as it may and its queue is full; try again in \(seconds) s"
            case .queueTimeout:
                "the server is rendering as much as it may, and this render waited \(limits.queueTimeout.components.seconds) s for its turn; try again in \(seconds) s"
            }
        return APIError(.serviceUnavailable, "unavailable", message, headers: [.retryAfter: String(seconds)])
    }

    /// Publishes the counts in `/metrics`.
    private func publish() {
        let (running, waiting) = state.withLock { ($0.running, $0.waiting.count) }
        metrics.recordRenders(inFlight: running, queued: waiting)
    }

    /// A wait that was neither queued nor ended: a broken invariant.
    private struct RenderAdmissionLost: Error {}

    /// The most renders that were in flight at once since the server started.
    var peakInFlight: Int { state.withLock { $0.peak } }

    /// Renders in flight and waiting, now.
    var counts: (inFlight: Int, queued: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }
}
