import Foundation
import Logging
import SepiaImage
import SepiaLibrary
import ServiceLifecycle
import Synchronization

/// Takes jobs from the deployment's queue and does them until the server shuts down: `workers` tasks take the
/// quick lane's jobs (an upload's preview, a purge, a run of a library's faces, a short clip's playable version) and `longWorkers` the long
/// lane's (the playable versions of videos with more than `longEncodePixels` pixels of frames, moved there by
/// the quick worker that took them), so that a long encode never holds up the rest. Every server runs one;
/// between them each job is done once (``JobQueue``). A worker with nothing to do looks again every
/// `pollInterval`, or at once when this server adds a job.
///
/// A job in hand is stopped (``JobControl``) when the server shuts down — an encode within a frame — and goes
/// back to the queue without counting as an attempt; an encode also stops, and its job leaves the queue, when its
/// video is deleted (to Recently Deleted or for good), and stops when the job is no longer this server's. A job
/// that fails for a reason that will not change fails for good at once (``JobFailure``). Jobs render at
/// ``RenderPriority/background``: the renders people are waiting for (previews, Auto, a thumbnail not made yet)
/// go first.
struct JobRunner: Service {
    let queue: JobQueue
    let accounts: AccountStore
    let libraries: LibraryRegistry
    let metrics: ServerMetrics
    let workers: Int
    let longWorkers: Int
    /// The pixels of frames (frames × width × height) past which a playable version is a long lane's job.
    let longEncodePixels: Int
    /// How long a job taken stays this server's before another may take it again.
    let lease: TimeInterval
    let pollInterval: Duration
    let wakeUps: JobWakeUps
    let logger: Logger
    /// How often an encode in hand looks whether its video was deleted, and (every other time) renews its lease.
    var watchInterval: Duration = .milliseconds(500)
    /// This server's face indexing: where each library's pass is, and why faces cannot be found, if they cannot.
    var faceIndexingState = FaceIndexingState()
    /// How faces are found (the models, the search).
    var faceIndexing = FaceIndexing()
    /// The most assets one run of a `faces` job indexes.
    var faceBatch = 8
    /// How long a run of a `faces` job goes on starting assets.
    var faceRunTime: Duration = .seconds(2)
    /// Called after each asset a `faces` run indexes (``FaceIndexJob/assetFinished``).
    var faceAssetFinished: (@Sendable () -> Void)?

    func run() async throws {
        let stopping = StopFlag()
        let inHand = JobsInHand()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for _ in 0..<max(1, workers) {
                    group.addTask { await work(.quick, until: stopping, inHand: inHand) }
                }
                for _ in 0..<max(0, longWorkers) {
                    group.addTask { await work(.long, until: stopping, inHand: inHand) }
                }
            }
        } onGracefulShutdown: {
            stopping.stop()
            inHand.stopAll()
            wakeUps.signal()
        }
    }

    private func work(_ lane: Job.Lane, until stopping: StopFlag, inHand: JobsInHand) async {
        while !Task.isCancelled && !stopping.isStopped {
            let job: Job?
            do {
                job = try queue.take(lane, lease: lease)
            } catch {
                logger.warning("cannot take a job from the queue", metadata: ["error": "\(error)"])
                job = nil
            }
            guard let job else {
                await wakeUps.wait(upTo: pollInterval)
                continue
            }
            await RenderPriority.$current.withValue(.background) { await perform(job, inHand: inHand) }
        }
    }

    /// Does one job and records how it went.
    func perform(_ job: Job, inHand: JobsInHand = JobsInHand()) async {
        let start = ContinuousClock.now
        let control = JobControl()
        inHand.add(control)
        let result = await control.run { try await execute(job, control: control) }
        inHand.remove(control)
        let kind = job.kind.rawValue
        do {
            switch result {
            case .success(.done):
                if try !queue.complete(job) {
                    // Asked for again while it ran (a library's faces, an upload meanwhile): due again.
                    wakeUps.signal()
                }
                metrics.recordJob(kind, outcome: "done", duration: ContinuousClock.now - start)
            case .success(.again):
                try queue.requeue(job)
                metrics.recordJob(kind, outcome: "continued", duration: ContinuousClock.now - start)
                wakeUps.signal()
            case .success(.moved(let lane)):
                logger.info("a long job moved to its lane", metadata: ["job": "\(job.id)", "kind": "\(kind)", "lane": "\(lane.rawValue)"])
                wakeUps.signal()
            case .failure(let error):
                // A video deleted just as its encode started can make the encode fail (its file is gone) before the
                // watch has seen it: that job was stopped by the deletion, not failed.
                let reason = control.reason ?? (job.kind == .playableVideo && videoIsGone(job) ? .subjectDeleted : nil)
                try finish(job, after: error, reason: reason, duration: ContinuousClock.now - start)
            }
        } catch {
            logger.warning("cannot record how a job went", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
    }

    /// Records a job that did not finish: given back on shutdown, removed when its subject was deleted, failed for
    /// good when it will never succeed, else retried later.
    private func finish(_ job: Job, after error: any Error, reason: JobStop?, duration: Duration) throws {
        let kind = job.kind.rawValue
        let fields: Logger.Metadata = ["job": "\(job.id)", "kind": "\(kind)", "subject": "\(job.subject)", "error": "\(error)"]
        switch reason {
        case .shutdown:
            try queue.release(job)
            metrics.recordJob(kind, outcome: "released", duration: duration)
            logger.info("a job was stopped by the shutdown and goes back to the queue", metadata: fields)
        case .subjectDeleted:
            try queue.complete(job)
            metrics.recordJob(kind, outcome: "cancelled", duration: duration)
            logger.info("a job was stopped: its video was deleted", metadata: fields)
        case .withdrawn:
            metrics.recordJob(kind, outcome: "cancelled", duration: duration)
            logger.info("a job was stopped: it is no longer this server's", metadata: fields)
        case nil:
            if JobFailure.isPermanent(error) {
                try queue.failForGood(job, error: "\(error)")
                metrics.recordJob(kind, outcome: "failed", duration: duration)
                logger.warning("a job failed for good", metadata: fields)
            } else {
                let final = job.attempts >= queue.maximumAttempts
                try queue.fail(job, error: "\(error)")
                metrics.recordJob(kind, outcome: final ? "failed" : "retried", duration: duration)
                logger.warning(final ? "a job failed for good" : "a job failed and will be retried", metadata: fields)
            }
        }
    }

    private func execute(_ job: Job, control: JobControl) async throws -> JobOutcome {
        switch job.kind {
        case .renditions:
            // A job for a user removed since has nothing to do.
            guard let library = try openLibrary(job.library) else { return .done }
            try await library.library.prepareStandardRenditions(ofAsset: job.subject)
        case .playableVideo:
            guard let library = try openLibrary(job.library) else { return .done }
            return try await makePlayableVersion(job, in: library.library, control: control)
        case .purgeRecentlyDeleted:
            guard let library = try openLibrary(job.library) else { return .done }
            let purged = try library.library.purgeRecentlyDeleted()
            if !purged.isEmpty {
                logger.info(
                    "purged Recently Deleted", metadata: ["library": "\(library.library.path)", "count": "\(purged.count)"])
            }
        case .faces:
            guard let library = try openLibrary(job.library) else { return .done }
            var run = FaceIndexJob(
                queue: queue, state: faceIndexingState, indexing: faceIndexing, batch: faceBatch, lease: lease, metrics: metrics, logger: logger)
            run.runTime = faceRunTime
            run.assetFinished = faceAssetFinished
            return try await run.run(job, in: library.library, control: control)
        }
        return .done
    }

    /// Encodes a playable version (a quick lane's worker first moves a long one to the long lane), publishing its
    /// progress in `/metrics` and, once a second, in the job's row (which every server's change stream reads),
    /// renewing the job's lease as it goes, and stopping when the video is deleted or the job withdrawn.
    private func makePlayableVersion(_ job: Job, in library: PhotoLibrary, control: JobControl) async throws -> JobOutcome {
        if job.lane == .quick && longWorkers > 0, let pixels = try await library.playableVersionPixels(ofAsset: job.subject),
            pixels > longEncodePixels
        {
            try queue.move(job, to: .long)
            return .moved(.long)
        }
        let progress = EncodeProgress()
        let (metrics, lane) = (metrics, job.lane.rawValue)
        metrics.recordEncodeProgress(0, lane: lane, job: job.id)
        defer { metrics.recordEncodeProgress(nil, lane: lane, job: job.id) }
        try queue.extend(job, lease: lease, progress: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await library.preparePlayableVersion(ofAsset: job.subject) { done in
                    progress.fraction.withLock { $0 = done }
                    metrics.recordEncodeProgress(done, lane: lane, job: job.id)
                    return true
                }
            }
            group.addTask { try await watch(job, in: library, control: control, progress: progress) }
            // The encode ends first (or throws); the watch only ends by stopping the job.
            try await group.next()
            group.cancelAll()
        }
        return .done
    }

    /// While an encode runs: every `watchInterval`, stops the job when its video is gone or in Recently Deleted,
    /// and every other time renews the lease with the progress, stopping the job when the row is no longer this
    /// server's. Ends when the job's task is cancelled.
    private func watch(_ job: Job, in library: PhotoLibrary, control: JobControl, progress: EncodeProgress) async throws {
        var beat = false
        while true {
            try await Task.sleep(for: watchInterval)
            do {
                if try library.asset(job.subject).isRecentlyDeleted { control.stop(.subjectDeleted) }
            } catch {
                // Not found: deleted for good. Anything else: the library cannot be read just now, and is looked at
                // again next time.
                if error.code == .notFound { control.stop(.subjectDeleted) }
            }
            beat.toggle()
            guard beat else { continue }
            do {
                if try !queue.extend(job, lease: lease, progress: progress.fraction.withLock { $0 }) { control.stop(.withdrawn) }
            } catch {
                logger.warning("cannot record a job's lease or progress", metadata: ["job": "\(job.id)", "error": "\(error)"])
            }
        }
    }

    /// How far an encode has come, written by its thread, read by its watch.
    private final class EncodeProgress: Sendable {
        let fraction = Mutex<Double>(0)
    }

    /// Whether a job's video is deleted for good or in Recently Deleted (false when that cannot be known now).
    private func videoIsGone(_ job: Job) -> Bool {
        let opened: UserLibrary?
        do { opened = try openLibrary(job.library) } catch { return false }
        guard let library = opened else { return true }
        do {
            return try library.library.asset(job.subject).isRecentlyDeleted
        } catch {
            return error.code == .notFound
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
