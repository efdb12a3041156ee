import Foundation

/// The result of ``PhotoLibrary/sweepStorage(olderThan:)``.
public struct SweepReport: Sendable, Hashable, Codable {
    /// Objects in storage older than the grace period.
    public var examined = 0
    /// Keys of the objects removed: no row named them.
    public var removed: [String] = []
}

extension PhotoLibrary {
    /// Removes objects from shared storage that no row names and that were stored longer than `gracePeriod`
    /// ago: originals of uploads that never committed, renders of edits that were undone and replaced, files
    /// of deleted assets. Any server may run it at any time, as often as it likes.
    ///
    /// It is safe while other servers store and commit files: each batch is removed inside a write
    /// transaction that first makes sure no row names the objects, and records them, so a commit naming one
    /// of them afterwards stores it again. The grace period only saves uploads in flight that work. An
    /// embedded library (SQLite and files in its folder) has nothing to sweep: opening it alone removes its
    /// leftovers.
    public func sweepStorage(olderThan gracePeriod: Duration = .seconds(3600)) async throws(LibraryError) -> SweepReport {
        var report = SweepReport()
        guard sharesStorage else { return report }
        let cutoff = Date().timeIntervalSince1970 - Double(gracePeriod.components.seconds)
        let old = try await blobs.storedFiles().filter { $0.date < cutoff }.map(\.file)
        report.examined = old.count
        let named = Set(try store.allFileReferences())
        let candidates = old.filter { !named.contains($0) }
        let store = self.store
        let blobs = self.blobs
        for start in stride(from: 0, to: candidates.count, by: 100) {
            let batch = Array(candidates[start..<min(start + 100, candidates.count)])
            report.removed += try await Self.onThreadOfItsOwn { () throws(LibraryError) -> [String] in
                var removed: [String] = []
                try store.withUnreferencedFiles(batch, recordingSweep: true) { (unreferenced) throws(LibraryError) in
                    let gone = try blobs.remove(unreferenced)
                    removed = gone.map(\.key)
                    return gone
                }
                return removed
            }
        }
        return report
    }

    /// Runs `work` on a new thread: work that waits for the network inside a database transaction must not
    /// hold one of the few threads Swift's concurrency shares.
    static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws(LibraryError) -> T) async throws(LibraryError) -> T {
        let result: Result<T, LibraryError> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Result { () throws(LibraryError) -> T in try work() })
            }.start()
        }
        return try result.get()
    }
}
