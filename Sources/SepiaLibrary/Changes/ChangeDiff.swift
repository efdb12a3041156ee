import Foundation

/// The difference between two ordered lists of unique keys, in PhotoKit's terms: removals (indexes before),
/// insertions (indexes after), changes (indexes after) and moves.
///
/// Moves are the fewest possible: the keys that stay are a longest increasing subsequence of the kept keys'
/// new positions, and every other kept key moves. A move's `from` is its index once the removals and
/// insertions are applied, and its `to` is its index after all changes.
struct ChangeDiff: Sendable, Equatable {
    var removed = IndexSet()
    var inserted = IndexSet()
    var changed = IndexSet()
    var moves: [Move] = []

    struct Move: Sendable, Equatable {
        var from: Int
        var to: Int
    }

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && changed.isEmpty && moves.isEmpty }

    static func compute(before: [Int64], after: [Int64], updated: Set<Int64>) -> ChangeDiff {
        var diff = ChangeDiff()
        if before == after {
            if !updated.isEmpty {
                for (i, key) in after.enumerated() where updated.contains(key) { diff.changed.insert(i) }
            }
            return diff
        }
        var afterIndex: [Int64: Int] = [:]
        afterIndex.reserveCapacity(after.count)
        for (i, key) in after.enumerated() { afterIndex[key] = i }
        var beforeKeys = Set<Int64>()
        beforeKeys.reserveCapacity(before.count)
        var kept: [Int64] = []
        kept.reserveCapacity(min(before.count, after.count))
        for (i, key) in before.enumerated() {
            beforeKeys.insert(key)
            if afterIndex[key] == nil { diff.removed.insert(i) } else { kept.append(key) }
        }
        for (i, key) in after.enumerated() where !beforeKeys.contains(key) { diff.inserted.insert(i) }

        // Which kept keys stay in place: a longest increasing subsequence of their new positions.
        let stays = longestIncreasingSubsequence(kept.map { afterIndex[$0]! })

        // The intermediate order: kept keys in their old order, inserted keys at their final indexes.
        var intermediateIndex: [Int64: Int] = [:]
        var next = 0
        for position in 0..<after.count {
            if diff.inserted.contains(position) { continue }
            intermediateIndex[kept[next]] = position
            next += 1
        }
        for (k, key) in kept.enumerated() where !stays[k] {
            diff.moves.append(.init(from: intermediateIndex[key]!, to: afterIndex[key]!))
        }
        diff.moves.sort { $0.to < $1.to }
        if !updated.isEmpty {
            for key in kept where updated.contains(key) { diff.changed.insert(afterIndex[key]!) }
        }
        return diff
    }

    /// Marks the elements of one longest strictly increasing subsequence of `values`. O(n log n).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []  // indexes into values: the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, value) in values.enumerated() {
            var lo = 0
            var hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < value { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var i = tails.last ?? -1
        while i >= 0 {
            marks[i] = true
            i = previous[i]
        }
        return marks
    }
}
