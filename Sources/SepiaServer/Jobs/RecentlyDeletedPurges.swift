import Logging
import ServiceLifecycle

/// Adds a job to purge Recently Deleted for every library of the deployment — the owner's and each user's — when
/// the server starts and then every `interval`, so that what has been there longer than the retention is deleted
/// for good even while nobody uses the library. Every server with job workers adds them, and any server's workers
/// may take them, which costs nothing: a job waiting already is not added again, and a purge that finds nothing
/// due does nothing.
struct RecentlyDeletedPurges: Service {
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

    /// Adds a purge of every library, and wakes this server's workers.
    func schedule() {
        do {
            // The owner's library is keyed "" in the queue, as its other jobs are.
            let libraries = [""] + (try accounts.users().filter { !$0.libraryPath.isEmpty }.map(\.id))
            for library in libraries {
                try queue.enqueue(.purgeRecentlyDeleted, library: library, subject: "")
            }
            wakeUps.signal()
        } catch {
            logger.warning("cannot queue the purge of Recently Deleted", metadata: ["error": "\(error)"])
        }
    }
}
