import Logging
import ServiceLifecycle

/// Asks for the `faces` job of every library of the deployment — the owner's and each user's — when the server
/// starts and then every `interval`, so that assets added without an upload (`sepia import`, a library migrated
/// in) and assets a pass could not read are indexed even while nobody uploads. Every server with job workers
/// asks, which costs nothing: a library has one faces job, and a run that finds nothing to index is done at once.
struct FaceIndexRequests: Service {
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

    /// Asks for the faces of every library, and wakes this server's workers.
    func schedule() {
        do {
            // The owner's library is keyed "" in the queue, as its other jobs are.
            let libraries = [""] + (try accounts.users().filter { !$0.libraryPath.isEmpty }.map(\.id))
            for library in libraries {
                try queue.request(.faces, library: library, subject: "")
            }
            wakeUps.signal()
        } catch {
            logger.warning("cannot queue the indexing of faces", metadata: ["error": "\(error)"])
        }
    }
}
