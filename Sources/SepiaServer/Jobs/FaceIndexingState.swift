import SepiaLibrary
import Synchronization

/// What this server knows of its face indexing beyond the job table: where each library's pass has reached (so
/// that an asset that could not be read is tried once a pass, not first in every run), and why it cannot find
/// faces at all, when it cannot (the models missing or damaged, the engine not loaded).
///
/// Both are this server's own: another server that takes a library's job starts its pass from the first asset
/// still to index, and reports its own problem.
final class FaceIndexingState: Sendable {
    private struct State {
        var cursors: [String: Asset] = [:]
        var problem: String?
    }

    private let state = Mutex(State())

    init() {}

    /// The last asset the pass of `library` (a job's library key) tried; nil at the start of a pass.
    func cursor(library: String) -> Asset? {
        state.withLock { $0.cursors[library] }
    }

    /// Records the last asset the pass of `library` tried.
    func setCursor(_ asset: Asset, library: String) {
        state.withLock { $0.cursors[library] = asset }
    }

    /// Ends the pass of `library`: the next run starts from the first asset still to index.
    func endPass(library: String) {
        _ = state.withLock { $0.cursors.removeValue(forKey: library) }
    }

    /// Why this server cannot find faces; nil when it can, or has not tried.
    var problem: String? { state.withLock { $0.problem } }

    /// Records why faces cannot be found; true when that is news (to be logged), false when it was known.
    func noteProblem(_ message: String) -> Bool {
        state.withLock { state in
            defer { state.problem = message }
            return state.problem != message
        }
    }

    /// Records that faces were found; returns the problem that was known until then, if any.
    func clearProblem() -> String? {
        state.withLock { state in
            defer { state.problem = nil }
            return state.problem
        }
    }
}
