import Synchronization

/// Work done once for every caller that asks for the same key while it runs (a rendition several requests want),
/// and stopped when none of them waits any more.
///
/// Each caller waits for the shared result in its own task: when that task is cancelled (its client went away)
/// the caller stops waiting at once with `CancellationError`, and the work goes on for the others. When the
/// last caller leaves, the work's task is cancelled (a render stops within a band) and forgotten, so a caller
/// that comes later starts the work again rather than joining a cancelled one.
final class SharedWork<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private enum Waiter {
        /// Added, its continuation not registered yet.
        case arriving
        case waiting(CheckedContinuation<Value, any Error>)
    }

    private struct Entry {
        let id: Int
        let task: Task<Void, Never>
        var waiters: [Int: Waiter] = [:]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID = 0
        /// Works started and not ended yet, abandoned ones included until they stop.
        var running = 0
        /// How the waits of callers that had not registered their continuation yet ended.
        var outcomes: [Int: Result<Value, any Error>] = [:]
    }

    private let state = Mutex(State())

    /// Runs `work` for `key` unless it is already running, and waits for its result.
    ///
    /// - Throws: what `work` throws; `CancellationError` when the calling task is cancelled while it waits.
    func run(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = state.withLock { state -> Int in
            state.nextID += 1
            let waiter = state.nextID
            if state.entries[key] == nil {
                state.nextID += 1
                let id = state.nextID
                let task = Task {
                    let result: Result<Value, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    self.finish(key, entry: id, with: result)
                }
                state.entries[key] = Entry(id: id, task: task)
                state.running += 1
            }
            state.entries[key]?.waiters[waiter] = .arriving
            return waiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let ended = state.withLock { state -> Result<Value, any Error>? in
                    if let outcome = state.outcomes.removeValue(forKey: waiter) { return outcome }
                    state.entries[key]?.waiters[waiter] = .waiting(continuation)
                    return nil
                }
                if let ended { continuation.resume(with: ended) }
            }
        } onCancel: {
            leave(key, waiter)
        }
    }

    /// How many callers wait for `key`'s work now (0 when none runs).
    func waiters(for key: Key) -> Int {
        state.withLock { $0.entries[key]?.waiters.count ?? 0 }
    }

    /// How many works are running, whether anyone still waits for them or they are stopping.
    var running: Int { state.withLock { $0.running } }

    /// Hands the work's result to every caller still waiting for it.
    private func finish(_ key: Key, entry id: Int, with result: Result<Value, any Error>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            state.running -= 1
            // The entry is gone when its last caller left (and may have been replaced since).
            guard let entry = state.entries[key], entry.id == id else { return [] }
            state.entries[key] = nil
            var continuations: [CheckedContinuation<Value, any Error>] = []
            for (waiter, wait) in entry.waiters {
                switch wait {
                case .arriving: state.outcomes[waiter] = result
                case .waiting(let continuation): continuations.append(continuation)
                }
            }
            return continuations
        }
        for continuation in waiting { continuation.resume(with: result) }
    }

    /// A caller's task was cancelled: it stops waiting, and the work stops when it was the last.
    private func leave(_ key: Key, _ waiter: Int) {
        let (wait, abandoned) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            guard var entry = state.entries[key], let wait = entry.waiters.removeValue(forKey: waiter) else { return (nil, nil) }
            if case .arriving = wait { state.outcomes[waiter] = .failure(CancellationError()) }
            if entry.waiters.isEmpty {
                state.entries[key] = nil
                return (wait, entry.task)
            }
            state.entries[key] = entry
            return (wait, nil)
        }
        abandoned?.cancel()
        if case .waiting(let continuation) = wait { continuation.resume(throwing: CancellationError()) }
    }
}
