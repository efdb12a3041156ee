import Synchronization

/// The groups a library found last, with what they were found from: the threshold, the predicate, and the
/// library's state as far as groups go (its change generation, how many hashes it holds, its dismissals). A
/// request whose state is unchanged is answered from here; one computation runs at a time per library, so that
/// any number of requests cost one pass over the hashes per change, whoever sends them.
final class DuplicateGroupsCache: Sendable {
    struct Key: Hashable {
        var threshold: Int
        var predicate: AssetPredicate?
        var state: [Int64]
    }

    private let last = Mutex<(key: Key, groups: [DuplicateGroup])?>(nil)
    private let computing = Mutex(())

    /// The groups for `key`, from the last computation when it was for the same key, else from `compute`.
    func groups(
        for key: () throws(LibraryError) -> Key, compute: (Key) throws(LibraryError) -> [DuplicateGroup]
    ) throws(LibraryError)
        -> [DuplicateGroup]
    {
        try computing.withLock { _ throws(LibraryError) in
            // The state is read once the lock is held: a request that waited for another's computation finds it.
            let key = try key()
            if let hit = last.withLock({ $0 }), hit.key == key { return hit.groups }
            let groups = try compute(key)
            last.withLock { $0 = (key, groups) }
            return groups
        }
    }
}
