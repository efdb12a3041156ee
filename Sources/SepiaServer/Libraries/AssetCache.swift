import SepiaLibrary
import Synchronization

/// The assets requests named recently, kept while the library does not change: every commit — by this
/// process at once, by another process within the library's polling interval — empties it. Requests for
/// renditions (a grid asks for hundreds a second) then need no database read to learn an asset's current
/// version.
final class AssetCache: Sendable {
    private struct State {
        var generation: Int64 = -1
        var assets: [String: Asset] = [:]
    }

    private let state = Mutex(State())
    private let library: PhotoLibrary
    private let capacity: Int

    init(library: PhotoLibrary, capacity: Int = 20_000) {
        self.library = library
        self.capacity = capacity
    }

    /// The asset with this identifier if it is in memory and the library has not changed since it was read;
    /// never reads the database.
    func cached(_ id: String) -> Asset? {
        let generation = library.knownGeneration
        return state.withLock { state in state.generation == generation ? state.assets[id] : nil }
    }

    /// The asset with this identifier, from memory while the library has not changed since it was read.
    func asset(_ id: String) throws(LibraryError) -> Asset {
        let generation = library.knownGeneration
        let hit = state.withLock { state -> Asset? in
            if state.generation != generation {
                state.generation = generation
                state.assets.removeAll(keepingCapacity: true)
            }
            return state.assets[id]
        }
        if let hit { return hit }
        let asset = try library.asset(id)
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.assets.count >= capacity { state.assets.removeAll(keepingCapacity: true) }
            state.assets[id] = asset
        }
        return asset
    }
}
