/// Groups near-identical pictures by their perceptual hashes: two items are duplicates when their hashes differ
/// in at most `threshold` bits, and a group is every item joined to another by that relation (so a burst's
/// frames, each near the next, are one group). Pairs the user said are not duplicates are never joined directly.
///
/// The pairs are found by multi-index hashing (Norouzi, Punjani and Fleet, 2012): the 64 bits are four 16-bit
/// chunks, and two hashes within `threshold` bits agree within `threshold / 4` bits on at least one chunk, so
/// each item is compared only with those that share a chunk up to that many flipped bits, found in a table
/// per chunk. A threshold past 15 compares every pair.
struct DuplicateFinder {
    /// The largest threshold the chunk tables serve; past it every pair is compared.
    static let largestIndexedThreshold = 15

    var threshold: Int

    /// The groups of two or more among `hashes` (indices into it), each sorted; `dismissed` holds pairs of
    /// indices (smaller first) never joined directly.
    func groups(_ hashes: [UInt64], dismissed: Set<IndexPair> = []) -> [[Int]] {
        var sets = DisjointSets(count: hashes.count)
        forEachPair(hashes) { a, b in
            if !dismissed.contains(IndexPair(a, b)) { sets.union(a, b) }
        }
        var members: [Int: [Int]] = [:]
        for index in hashes.indices {
            let root = sets.find(index)
            members[root, default: []].append(index)
        }
        return members.values.filter { $0.count > 1 }.map { $0.sorted() }
    }

    /// Calls `body` with every pair (a < b) within the threshold, possibly more than once.
    func forEachPair(_ hashes: [UInt64], _ body: (Int, Int) -> Void) {
        guard hashes.count > 1, threshold >= 0 else { return }
        if threshold > Self.largestIndexedThreshold {
            for a in hashes.indices {
                for b in (a + 1)..<hashes.count where (hashes[a] ^ hashes[b]).nonzeroBitCount <= threshold { body(a, b) }
            }
            return
        }
        let radius = threshold / 4
        let masks = Self.masks(within: radius)
        for chunk in 0..<4 {
            let table = ChunkTable(hashes, chunk: chunk)
            for a in hashes.indices {
                let key = Int(truncatingIfNeeded: hashes[a] >> (16 * chunk)) & 0xFFFF
                for mask in masks {
                    table.forEachItem(withKey: key ^ mask) { b in
                        if b > a, (hashes[a] ^ hashes[b]).nonzeroBitCount <= threshold { body(a, b) }
                    }
                }
            }
        }
    }

    /// Every 16-bit mask of at most `radius` set bits.
    static func masks(within radius: Int) -> [Int] {
        (0..<(1 << 16)).filter { $0.nonzeroBitCount <= radius }
    }

    /// The items of each value of one 16-bit chunk, in one array (counting sort).
    private struct ChunkTable {
        var starts: [Int32]
        var items: [Int32]

        init(_ hashes: [UInt64], chunk: Int) {
            var starts = [Int32](repeating: 0, count: (1 << 16) + 1)
            let keys = hashes.map { Int(truncatingIfNeeded: $0 >> (16 * chunk)) & 0xFFFF }
            for key in keys { starts[key + 1] += 1 }
            for i in 1..<starts.count { starts[i] += starts[i - 1] }
            var next = starts
            var items = [Int32](repeating: 0, count: hashes.count)
            for (index, key) in keys.enumerated() {
                items[Int(next[key])] = Int32(index)
                next[key] += 1
            }
            self.starts = starts
            self.items = items
        }

        func forEachItem(withKey key: Int, _ body: (Int) -> Void) {
            for i in Int(starts[key])..<Int(starts[key + 1]) { body(Int(items[i])) }
        }
    }
}

/// Two indices, the smaller first.
struct IndexPair: Hashable {
    let first: Int
    let second: Int

    init(_ a: Int, _ b: Int) {
        (first, second) = a < b ? (a, b) : (b, a)
    }
}

/// Union–find with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        var a = find(a)
        var b = find(b)
        guard a != b else { return }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = a
        size[a] += size[b]
    }
}
