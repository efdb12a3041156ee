import Logging
import ServiceLifecycle

/// Adds a job of one kind for every library of the deployment — the owner's and each user's — when the server starts
/// and then every `interval`, for work no request starts: the purge of Recently Deleted, so that what has been there
/// longer than the retention is deleted for good even while nobody uses the library; the faces of assets added
/// without an upload (`sepia import`, a library migrated in) or that a pass could not read, so that they are indexed
/// even while nobody uploads. Every server with job workers adds them, and any server's workers may take them, which
/// costs nothing: a purge waiting already is not added again and one that finds nothing due does nothing; a library
/// has one faces job, and a run that finds nothing to index is done at once.
struct EveryLibraryJob: Service {
    /// How the job is added to the queue.
    enum Adding: Sendable {
        /// ``JobQueue/enqueue(_:library:subject:now:)``: unless the same job is waiting already.
        case enqueue
        /// ``JobQueue/request(_:library:subject:now:)``: asked for again, for work that may have grown since.
        case request
    }

    let kind: Job.Kind
    let adding: Adding
    /// What the job does, for the log: "the purge of Recently Deleted".
    let work: String
    let queue: JobQueue
    let accounts: AccountStore
    let interval: Duration
    let wakeUps: JobWakeUps
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            schedule()
            // The wait ends early when the server shuts down.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Adds the job for every library, and wakes this server's workers.
    func schedule() {
        do {
            // The owner's library is keyed "" in the queue, as its other jobs are.
            let libraries = [""] + (try accounts.users().filter { !$0.libraryPath.isEmpty }.map(\.id))
            for library in libraries {
                switch adding {
                case .enqueue: try queue.enqueue(kind, library: library, subject: "")
                case .request: try queue.request(kind, library: library, subject: "")
                }
            }
            wakeUps.signal()
        } catch {
            logger.warning("cannot queue \(work)", metadata: ["error": "\(error)"])
        }
    }
}
