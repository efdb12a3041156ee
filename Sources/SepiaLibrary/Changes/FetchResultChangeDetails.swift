public import Foundation

/// What changed in a fetch result (PhotoKit's `PHFetchResultChangeDetails`).
///
/// Apply the details in PhotoKit's order to turn the old result into the new one:
///
/// 1. remove the objects at ``removedIndexes`` (indexes in the old result);
/// 2. insert ``insertedObjects()`` at ``insertedIndexes`` (indexes in the new result), in increasing order;
/// 3. for each move, take the object at `from` (an index once steps 1 and 2 are done) to `to` (an index in the
///    new result): moved objects land at their `to` indexes and every other object keeps its relative order;
/// 4. the objects at ``changedIndexes`` (indexes in the new result) have new properties.
///
/// A collection view does the same with `performBatchUpdates`: delete, insert, move, then reload the changed
/// items. When ``hasIncrementalChanges`` is false, the index sets are nil: reload everything from
/// ``fetchResultAfterChanges``.
public struct FetchResultChangeDetails<Object: LibraryObject>: Sendable {
    /// A move from an index once removals and insertions are applied, to an index in the new result.
    public struct Move: Sendable, Hashable {
        /// The index once removals and insertions are applied.
        public var from: Int
        /// The index in the new result.
        public var to: Int
    }

    /// The result the details start from.
    public let fetchResultBeforeChanges: FetchResult<Object>
    /// The result after the changes: hold this one from now on.
    public let fetchResultAfterChanges: FetchResult<Object>
    /// Whether the index sets describe the changes. When false, reload.
    public let hasIncrementalChanges: Bool
    /// Indexes, in the old result, of the objects no longer in the result.
    public let removedIndexes: IndexSet?
    /// Indexes, in the new result, of the objects that joined it.
    public let insertedIndexes: IndexSet?
    /// Indexes, in the new result, of the objects whose properties changed.
    public let changedIndexes: IndexSet?
    /// The objects that moved.
    public let moves: [Move]

    init(before: FetchResult<Object>, after: FetchResult<Object>, diff: ChangeDiff?) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        hasIncrementalChanges = diff != nil
        removedIndexes = diff?.removed
        insertedIndexes = diff?.inserted
        changedIndexes = diff?.changed
        moves = diff?.moves.map { Move(from: $0.from, to: $0.to) } ?? []
    }

    /// Whether any object moved.
    public var hasMoves: Bool { !moves.isEmpty }

    /// Calls `body` with each move's `from` and `to`.
    public func enumerateMoves(_ body: (_ from: Int, _ to: Int) -> Void) {
        for move in moves { body(move.from, move.to) }
    }

    /// Whether anything changed at all.
    public var isEmpty: Bool {
        hasIncrementalChanges
            && (removedIndexes?.isEmpty ?? true) && (insertedIndexes?.isEmpty ?? true) && (changedIndexes?.isEmpty ?? true)
            && moves.isEmpty
    }

    /// The removed objects, as they were.
    public func removedObjects() throws(LibraryError) -> [Object] {
        try (removedIndexes ?? []).map { (i) throws(LibraryError) in try fetchResultBeforeChanges.object(at: i) }
    }

    /// The inserted objects.
    public func insertedObjects() throws(LibraryError) -> [Object] {
        try (insertedIndexes ?? []).map { (i) throws(LibraryError) in try fetchResultAfterChanges.object(at: i) }
    }

    /// The changed objects, as they are now.
    public func changedObjects() throws(LibraryError) -> [Object] {
        try (changedIndexes ?? []).map { (i) throws(LibraryError) in try fetchResultAfterChanges.object(at: i) }
    }
}
