import Foundation
import Synchronization

/// Why a job in hand was stopped before it finished.
enum JobStop: Sendable, Hashable {
    /// The server is shutting down: the job goes back to the queue, not counted as an attempt.
    case shutdown
    /// Its subject was deleted (to Recently Deleted or for good): there is nothing left to do.
    case subjectDeleted
    /// The job is no longer this server's: removed from the queue, or its lease ran out and another took it.
    case withdrawn
}

/// One job in hand: the task doing it, and why it was stopped, if it was. Stopping cancels the task; the work
/// sees the cancellation (an encode within a frame) and ends.
final class JobControl: Sendable {
    private let state = Mutex<(reason: JobStop?, task: Task<JobOutcome, any Error>?)>((nil, nil))

    /// The first reason the job was stopped for.
    var reason: JobStop? { state.withLock { $0.reason } }

    /// Stops the job for `reason` (the first reason given is kept).
    func stop(_ reason: JobStop) {
        let task = state.withLock { state -> Task<JobOutcome, any Error>? in
            if state.reason == nil { state.reason = reason }
            return state.task
        }
        task?.cancel()
    }

    /// Runs `work` as the job's task and waits for it; a stop before or during it cancels it.
    func run(_ work: @escaping @Sendable () async throws -> JobOutcome) async -> Result<JobOutcome, any Error> {
        let task = Task { try await work() }
        let stopped = state.withLock { state -> Bool in
            state.task = task
            return state.reason != nil
        }
        if stopped { task.cancel() }
        return await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            self.stop(.shutdown)
        }
    }
}

/// What a job's work came to, when it did not fail.
enum JobOutcome: Sendable, Hashable {
    /// Done (or found nothing to do): the job leaves the queue.
    case done
    /// Handed to another lane's workers (``Job/Lane``).
    case moved(Job.Lane)
    /// Done for this run, with more to do: due again at once, behind the jobs already due (``JobQueue/requeue(_:now:)``).
    case again
}

/// The jobs this server has in hand, so that a shutdown stops them all at once.
final class JobsInHand: Sendable {
    private let state = Mutex<(controls: [ObjectIdentifier: JobControl], stopping: Bool)>(([:], false))

    /// Adds a job; stops it at once if the server is shutting down already.
    func add(_ control: JobControl) {
        let stopping = state.withLock { state -> Bool in
            state.controls[ObjectIdentifier(control)] = control
            return state.stopping
        }
        if stopping { control.stop(.shutdown) }
    }

    func remove(_ control: JobControl) {
        _ = state.withLock { $0.controls.removeValue(forKey: ObjectIdentifier(control)) }
    }

    /// Stops every job in hand, and those added from now on.
    func stopAll() {
        let controls = state.withLock { state -> [JobControl] in
            state.stopping = true
            return Array(state.controls.values)
        }
        for control in controls { control.stop(.shutdown) }
    }
}
