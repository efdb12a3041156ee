import Foundation
import Synchronization

/// How far the playable versions being encoded, and the indexing of faces, have come on any server of the
/// deployment: the job table is read once a second while at least one change stream of this server listens (the
/// same queries for all of them, whatever their number), and each listener is given what concerns its own library.
final class JobProgressFeed: Sendable {
    /// An encode's progress by asset identifier, 0 to 1.
    typealias Progress = [String: Double]

    /// What a listener is told each time the table is read.
    struct Update: Sendable, Equatable {
        /// The encodes running now.
        var assets: Progress = [:]
        /// The part of the library whose faces are found (0 to 1) while its face job is in the queue; nil otherwise.
        var faces: Double?
    }

    private struct Listener {
        var library: String
        var continuation: AsyncStream<Update>.Continuation
    }

    private struct State {
        var listeners: [UUID: Listener] = [:]
        var polling = false
    }

    private let queue: JobQueue
    private let interval: Duration
    private let state = Mutex(State())

    init(queue: JobQueue, interval: Duration = .seconds(1)) {
        self.queue = queue
        self.interval = interval
    }

    /// What concerns `library`, a value each time the table is read (one without encodes when none runs); the
    /// stream ends, and the listener is removed, when the caller's task stops iterating it.
    func updates(library: String) -> AsyncStream<Update> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        let start = state.withLock { state -> Bool in
            state.listeners[id] = Listener(library: library, continuation: continuation)
            guard !state.polling else { return false }
            state.polling = true
            return true
        }
        if start { Task { await self.poll() } }
        return stream
    }

    /// Reads the table while anyone listens; stops when the last listener has gone.
    private func poll() async {
        while true {
            let running = (try? queue.running(.playableVideo)) ?? []
            let faces = (try? queue.reportedProgress(.faces)) ?? [:]
            let listeners = state.withLock { state -> [Listener]? in
                if state.listeners.isEmpty {
                    state.polling = false
                    return nil
                }
                return Array(state.listeners.values)
            }
            guard let listeners else { return }
            var byLibrary: [String: Progress] = [:]
            for job in running { byLibrary[job.library, default: [:]][job.subject] = job.progress }
            for listener in listeners {
                listener.continuation.yield(Update(assets: byLibrary[listener.library] ?? [:], faces: faces[listener.library]))
            }
            try? await Task.sleep(for: interval)
        }
    }
}
