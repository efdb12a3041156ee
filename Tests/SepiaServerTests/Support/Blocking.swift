import Foundation

/// Runs blocking work (a socket read, a child process) on a thread of its own, not on one of the few threads
/// Swift's concurrency shares, which an in-process server under test needs: on a 2-core machine two tests
/// blocked on them at once would leave the server no thread to answer with.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread {
            do {
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
