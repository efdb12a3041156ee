import Synchronization

/// A thread-safe cache with a total-cost limit and true least-recently-used eviction: reading an entry makes
/// it the most recent, and inserting evicts from the least recent end until the total cost fits. (Linux's
/// `NSCache` evicts the cheapest entry first — the newest one when costs are equal — and reading does not
/// count as use.) All operations are O(1).
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int  // index of the next more recent entry, or -1
        var older: Int  // index of the next less recent entry, or -1
    }

    private struct Storage {
        var entries: [Entry?] = []
        var free: [Int] = []
        var index: [Key: Int] = [:]
        var newest = -1
        var oldest = -1
        var totalCost = 0
        var costLimit: Int

        mutating func unlink(_ i: Int) {
            let entry = entries[i]!
            if entry.newer >= 0 { entries[entry.newer]!.older = entry.older } else { newest = entry.older }
            if entry.older >= 0 { entries[entry.older]!.newer = entry.newer } else { oldest = entry.newer }
        }

        mutating func pushNewest(_ i: Int) {
            entries[i]!.older = newest
            entries[i]!.newer = -1
            if newest >= 0 { entries[newest]!.newer = i }
            newest = i
            if oldest < 0 { oldest = i }
        }

        mutating func remove(at i: Int) -> Entry {
            unlink(i)
            let entry = entries[i]!
            entries[i] = nil
            free.append(i)
            index[entry.key] = nil
            totalCost -= entry.cost
            return entry
        }

        mutating func evict(toCost limit: Int) -> Int {
            var evicted = 0
            while totalCost > limit, oldest >= 0 {
                _ = remove(at: oldest)
                evicted += 1
            }
            return evicted
        }
    }

    private let storage: Mutex<Storage>

    /// A cache holding at most `costLimit` in total cost.
    public init(costLimit: Int) {
        storage = Mutex(Storage(costLimit: costLimit))
    }

    /// The value for `key`, which becomes the most recently used.
    public func value(for key: Key) -> Value? {
        storage.withLock { s -> Value? in
            guard let i = s.index[key] else { return nil }
            s.unlink(i)
            s.pushNewest(i)
            return s.entries[i]!.value
        }
    }

    /// Whether `key` is cached, without counting as a use.
    func contains(_ key: Key) -> Bool {
        storage.withLock { $0.index[key] != nil }
    }

    /// Stores `value` as the most recently used entry and evicts the least recently used ones until the
    /// total cost fits. A value costlier than the whole limit is not kept.
    public func insert(_ value: Value, for key: Key, cost: Int) {
        storage.withLock { s in
            if let i = s.index[key] { _ = s.remove(at: i) }
            guard cost <= s.costLimit else { return }
            let entry = Entry(key: key, value: value, cost: cost, newer: -1, older: -1)
            let i: Int
            if let reused = s.free.popLast() {
                s.entries[reused] = entry
                i = reused
            } else {
                s.entries.append(entry)
                i = s.entries.count - 1
            }
            s.index[key] = i
            s.totalCost += cost
            s.pushNewest(i)
            _ = s.evict(toCost: s.costLimit)
        }
    }

    /// Removes one entry.
    func removeValue(for key: Key) {
        storage.withLock { s in
            if let i = s.index[key] { _ = s.remove(at: i) }
        }
    }

    /// Removes every entry whose key matches.
    func removeAll(where predicate: (Key) -> Bool) {
        storage.withLock { s in
            for (key, i) in s.index where predicate(key) { _ = s.remove(at: i) }
        }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`; returns how many went.
    @discardableResult
    func trim(toCost cost: Int) -> Int {
        storage.withLock { $0.evict(toCost: max(0, cost)) }
    }

    /// The total cost of the entries.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// The number of entries.
    var count: Int { storage.withLock { $0.index.count } }

    /// The cost limit.
    var costLimit: Int {
        get { storage.withLock { $0.costLimit } }
        set {
            storage.withLock { s in
                s.costLimit = newValue
                _ = s.evict(toCost: newValue)
            }
        }
    }

    /// Keys from most to least recently used.
    var keysByRecency: [Key] {
        storage.withLock { s in
            var keys: [Key] = []
            var i = s.newest
            while i >= 0 {
                keys.append(s.entries[i]!.key)
                i = s.entries[i]!.older
            }
            return keys
        }
    }
}
