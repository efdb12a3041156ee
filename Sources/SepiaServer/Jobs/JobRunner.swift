import Foundation
import Logging
import SepiaImage
import SepiaLibrary
import ServiceLifecycle
import Synchronization

/// Takes jobs from the deployment's queue and does them, on `workers` tasks, until the server shuts down.
/// Every server runs one; between them each job is done once (``JobQueue``). A worker with nothing to do
/// looks again every `pollInterval`, or at once when this server adds a job. On shutdown a worker finishes
/// the job in hand (a render, seconds at most) and takes no other. Jobs render at ``RenderPriority/background``:
/// the renders people are waiting for (previews, Auto, a thumbnail not made yet) go first.
struct JobRunner: Service {
    let queue: JobQueue
    let accounts: AccountStore
    let libraries: LibraryRegistry
    let metrics: ServerMetrics
    let workers: Int
    /// How long a job taken stays this server's before another may take it again.
    let lease: TimeInterval
    let pollInterval: Duration
    let wakeUps: JobWakeUps
    let logger: Logger

    func run() async throws {
        let stopping = StopFlag()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for _ in 0..<max(1, workers) {
                    group.addTask { await work(until: stopping) }
                }
            }
        } onGracefulShutdown: {
            stopping.stop()
            wakeUps.signal()
        }
    }

    private func work(until stopping: StopFlag) async {
        while !Task.isCancelled && !stopping.isStopped {
            let job: Job?
            do {
                job = try queue.take(lease: lease)
            } catch {
                logger.warning("cannot take a job from the queue", metadata: ["error": "\(error)"])
                job = nil
            }
            guard let job else {
                await wakeUps.wait(upTo: pollInterval)
                continue
            }
            await RenderPriority.$current.withValue(.background) { await perform(job) }
        }
    }

    /// Does one job and records how it went.
    func perform(_ job: Job) async {
        let start = ContinuousClock.now
        do {
            try await execute(job)
            try queue.complete(job)
            metrics.recordJob(job.kind.rawValue, outcome: "done", duration: ContinuousClock.now - start)
        } catch {
            let final = job.attempts >= queue.maximumAttempts
            metrics.recordJob(job.kind.rawValue, outcome: final ? "failed" : "retried", duration: ContinuousClock.now - start)
            logger.warning(
                final ? "a job failed for good" : "a job failed and will be retried",
                metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)", "subject": "\(job.subject)", "error": "\(error)"])
            try? queue.fail(job, error: "\(error)")
        }
    }

    private func execute(_ job: Job) async throws {
        switch job.kind {
        case .renditions:
            // A job for a user removed since has nothing to do.
            guard let library = try openLibrary(job.library) else { return }
            try await library.library.prepareStandardRenditions(ofAsset: job.subject)
        case .playableVideo:
            guard let library = try openLibrary(job.library) else { return }
            try await makePlayableVersion(job, in: library.library)
        case .purgeRecentlyDeleted:
            guard let library = try openLibrary(job.library) else { return }
            let purged = try library.library.purgeRecentlyDeleted()
            if !purged.isEmpty {
                logger.info(
                    "purged Recently Deleted", metadata: ["library": "\(library.library.path)", "count": "\(purged.count)"])
            }
        }
    }

    /// Encodes a playable version, publishing its progress in `/metrics` and, once a second, in the job's row
    /// (which every server's change stream reads), and renewing the job's lease every tenth of it, so that
    /// another server does not take the job while this one works on it.
    private func makePlayableVersion(_ job: Job, in library: PhotoLibrary) async throws {
        let clock = ContinuousClock()
        let renewed = Mutex(clock.now)
        let reported = Mutex<ContinuousClock.Instant?>(nil)
        let (queue, lease, metrics, logger) = (queue, lease, metrics, logger)
        metrics.recordEncodeProgress(0)
        defer { metrics.recordEncodeProgress(nil) }
        try? queue.report(job, progress: 0)
        try await library.preparePlayableVersion(ofAsset: job.subject) { done in
            metrics.recordEncodeProgress(done)
            let now = clock.now
            let renew = renewed.withLock { last -> Bool in
                guard now - last > .seconds(lease / 10) else { return false }
                last = now
                return true
            }
            let report = reported.withLock { last -> Bool in
                if let last, now - last < .seconds(1) { return false }
                last = now
                return true
            }
            do {
                if renew { try queue.extend(job, lease: lease) }
                if report { try queue.report(job, progress: done) }
            } catch {
                logger.warning("cannot record a job's lease or progress", metadata: ["job": "\(job.id)", "error": "\(error)"])
            }
            return true
        }
    }

    private func openLibrary(_ userID: String) throws -> UserLibrary? {
        if userID.isEmpty { return try libraries.openOwnerLibrary() }
        guard let user = try accounts.user(id: userID) else { return nil }
        return try libraries.library(for: user)
    }
}

/// Set once when the workers are to stop.
final class StopFlag: Sendable {
    private let flag = Atomic(false)

    func stop() {
        flag.store(true, ordering: .sequentiallyConsistent)
    }

    var isStopped: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// Wakes this server's idle job workers when it adds a job, so that they need not wait for their next look.
final class JobWakeUps: Sendable {
    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// Waits that ended before their continuation was registered.
        var ended: Set<UUID> = []
        /// A signal no worker was waiting for, kept for the next to wait.
        var pending = false
    }

    private let state = Mutex(State())

    /// Wakes every waiting worker (or the next to wait).
    func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.waiters.isEmpty { state.pending = true }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Waits for a signal, at most `limit`.
    func wait(upTo limit: Duration) async {
        if state.withLock({ state in
            defer { state.pending = false }; return state.pending
        }) {
            return
        }
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let endedAlready = self.state.withLock { state in
                        if state.ended.remove(id) != nil { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if endedAlready { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                self.end(id)
            }
            _ = await group.next()
            group.cancelAll()
        }
        // A signal may have resumed the wait before its timer ended it: forget the timer's mark.
        _ = state.withLock { $0.ended.remove(id) }
    }

    private func end(_ id: UUID) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.ended.insert(id)
            return nil
        }
        waiter?.resume()
    }
}
