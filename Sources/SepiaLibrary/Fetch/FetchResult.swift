import Synchronization

/// The ordered result of a fetch (PhotoKit's `PHFetchResult`): an immutable snapshot of which objects matched,
/// in order, at one moment. Counting and indexing cost nothing; objects are read from the database lazily, a
/// page at a time, and kept. To follow later changes, take ``FetchResultChangeDetails/fetchResultAfterChanges``
/// from the library's change stream.
///
/// ```swift
/// let recents = try library.fetchAssets(FetchOptions(sortDescriptors: [.init(.creationDate, ascending: false)]))
/// print(recents.count)
/// for asset in try recents.objects(in: 0..<min(60, recents.count)) { … }
/// ```
public final class FetchResult<Object: LibraryObject>: Sendable {
    /// The keys of the matched objects, in order.
    let rowIDs: [Int64]
    /// The change generation the snapshot reflects.
    let generation: Int64
    /// How to re-run the fetch and read its objects.
    let source: FetchSource<Object>
    private let pages = Mutex<[Int: [Object]]>([:])
    private let positions = Mutex<[Int64: Int]?>(nil)

    /// Objects are read this many at a time.
    static var pageSize: Int { 100 }

    init(rowIDs: [Int64], generation: Int64, source: FetchSource<Object>) {
        self.rowIDs = rowIDs
        self.generation = generation
        self.source = source
    }

    /// The number of objects.
    public var count: Int { rowIDs.count }

    /// Whether there are none.
    public var isEmpty: Bool { rowIDs.isEmpty }

    /// The object at `index`.
    public func object(at index: Int) throws(LibraryError) -> Object {
        guard rowIDs.indices.contains(index) else {
            throw LibraryError(.invalidRequest, "index \(index) is outside the fetch result's \(count) objects")
        }
        let page = index / Self.pageSize
        return try self.page(page)[index - page * Self.pageSize]
    }

    /// The objects in `range`.
    public func objects(in range: Range<Int>) throws(LibraryError) -> [Object] {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw LibraryError(.invalidRequest, "range \(range) is outside the fetch result's \(count) objects")
        }
        guard !range.isEmpty else { return [] }
        var objects: [Object] = []
        objects.reserveCapacity(range.count)
        for page in (range.lowerBound / Self.pageSize)...((range.upperBound - 1) / Self.pageSize) {
            let start = page * Self.pageSize
            let loaded = try self.page(page)
            let lower = max(range.lowerBound, start) - start
            let upper = min(range.upperBound, start + loaded.count) - start
            objects += loaded[lower..<upper]
        }
        return objects
    }

    /// Every object, in order.
    public func allObjects() throws(LibraryError) -> [Object] {
        try objects(in: 0..<count)
    }

    /// The first object, if any.
    public func firstObject() throws(LibraryError) -> Object? {
        isEmpty ? nil : try object(at: 0)
    }

    /// The last object, if any.
    public func lastObject() throws(LibraryError) -> Object? {
        isEmpty ? nil : try object(at: count - 1)
    }

    /// The index of `object`, if the result holds it.
    public func index(of object: Object) -> Int? {
        index(ofRowID: source.rowID(object))
    }

    /// Whether the result holds `object`.
    public func contains(_ object: Object) -> Bool {
        index(of: object) != nil
    }

    func index(ofRowID rowID: Int64) -> Int? {
        positions.withLock { map in
            if map == nil {
                var built: [Int64: Int] = [:]
                built.reserveCapacity(rowIDs.count)
                for (i, key) in rowIDs.enumerated() { built[key] = i }
                map = built
            }
            return map![rowID]
        }
    }

    private func page(_ page: Int) throws(LibraryError) -> [Object] {
        if let cached = pages.withLock({ $0[page] }) { return cached }
        let keys = Array(rowIDs[(page * Self.pageSize)..<min(rowIDs.count, (page + 1) * Self.pageSize)])
        let found = try source.load(keys)
        var objects: [Object] = []
        objects.reserveCapacity(keys.count)
        for key in keys {
            guard let object = found[key] else {
                throw LibraryError(
                    .objectDeleted,
                    "an object of this fetch result was deleted after the result was made; fetch again or take the result after the changes")
            }
            objects.append(object)
        }
        pages.withLock { $0[page] = objects }
        return objects
    }

    /// Keeps already-read objects so a new result does not read them again.
    func seed(from other: FetchResult<Object>, excluding changed: Set<Int64>) {
        // Only pages whose keys are identical and unchanged can be reused.
        let theirs = other.pages.withLock { $0 }
        guard !theirs.isEmpty else { return }
        var reused: [Int: [Object]] = [:]
        for (page, objects) in theirs {
            let start = page * Self.pageSize
            let end = min(rowIDs.count, start + Self.pageSize)
            guard end - start == objects.count, end <= other.rowIDs.count,
                rowIDs[start..<end].elementsEqual(other.rowIDs[start..<end]),
                !rowIDs[start..<end].contains(where: changed.contains)
            else { continue }
            reused[page] = objects
        }
        pages.withLock { $0.merge(reused) { a, _ in a } }
    }
}

/// How a ``FetchResult`` re-runs its fetch and reads its objects.
struct FetchSource<Object: LibraryObject>: Sendable {
    /// Re-runs the fetch.
    let refetch: @Sendable () throws(LibraryError) -> Snapshot
    /// Reads objects by key.
    let load: @Sendable ([Int64]) throws(LibraryError) -> [Int64: Object]
    /// An object's key.
    let rowID: @Sendable (Object) -> Int64
    /// Which change-log keys count as changes of these objects.
    let changedKeys: @Sendable (ChangeLogSlice) -> Set<Int64>
    /// Whether change details should be incremental.
    let wantsIncrementalChangeDetails: Bool
}
