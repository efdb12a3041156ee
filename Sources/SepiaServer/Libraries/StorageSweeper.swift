import Logging
import SepiaLibrary
import ServiceLifecycle

/// Removes, every `interval`, the objects of shared storage that no row of an open library names and that
/// are older than an hour: uploads that failed before their commit, files of deleted assets. Any number of
/// servers may sweep the same bucket (``PhotoLibrary/sweepStorage(olderThan:)`` is safe against commits
/// anywhere).
struct StorageSweeper: Service {
    let libraries: LibraryRegistry
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // The wait ends early when the server shuts down.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            guard !Task.isCancelled && !Task.isShuttingDownGracefully else { return }
            for library in libraries.openLibraries {
                do {
                    let report = try await library.library.sweepStorage()
                    if !report.removed.isEmpty {
                        logger.info(
                            "removed objects no row names",
                            metadata: ["library": "\(library.library.path)", "count": "\(report.removed.count)"])
                    }
                } catch {
                    logger.warning("cannot sweep object storage", metadata: ["library": "\(library.library.path)", "error": "\(error)"])
                }
            }
        }
    }
}
