import Foundation
import SepiaImage
import Testing

@testable import SepiaLibrary

/// Applies change details to the old list in PhotoKit's order, as a collection view would, following the
/// rules documented on `FetchResultChangeDetails` (written independently of the library's diff).
func applyDetails<T: Equatable>(
    removed: IndexSet, inserted: IndexSet, inserting: [T], moves: [(from: Int, to: Int)], to old: [T]
) -> [T]? {
    var list = old
    for index in removed.reversed() {
        guard index < list.count else { return nil }
        list.remove(at: index)
    }
    for (index, object) in zip(inserted, inserting) {
        guard index <= list.count else { return nil }
        list.insert(object, at: index)
    }
    var final = [T?](repeating: nil, count: list.count)
    var fromIndexes = Set<Int>()
    for index in inserted { final[index] = list[index] }
    for move in moves {
        guard list.indices.contains(move.from), final.indices.contains(move.to), final[move.to] == nil else { return nil }
        final[move.to] = list[move.from]
        fromIndexes.insert(move.from)
    }
    var rest = list.indices.filter { !inserted.contains($0) && !fromIndexes.contains($0) }.map { list[$0] }.makeIterator()
    for i in final.indices where final[i] == nil {
        guard let next = rest.next() else { return nil }
        final[i] = next
    }
    guard rest.next() == nil else { return nil }
    return final.map { $0! }
}

@Suite struct ChangeDetailsTests {
    @Test("the diff of any two orderings, applied in PhotoKit's order, gives the new ordering, with the fewest moves")
    func diffProperty() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3000 {
            let universe = Int64(round % 40 + 1)
            let before = (0..<universe).filter { _ in Bool.random(using: &generator) }.shuffled(using: &generator)
            var after = (0..<universe).filter { _ in Int.random(in: 0..<3, using: &generator) > 0 }
            // Mostly small perturbations of `before`, sometimes a reshuffle.
            if round % 3 != 0 {
                after = before.filter { _ in Int.random(in: 0..<6, using: &generator) > 0 }
                for extra in (0..<universe) where !before.contains(extra) && Int.random(in: 0..<4, using: &generator) == 0 {
                    after.insert(extra, at: Int.random(in: 0...after.count, using: &generator))
                }
                if after.count > 1, Bool.random(using: &generator) {
                    let moved = after.remove(at: Int.random(in: 0..<after.count, using: &generator))
                    after.insert(moved, at: Int.random(in: 0...after.count, using: &generator))
                }
            } else {
                after.shuffle(using: &generator)
            }
            let updated = Set(before.filter { _ in Int.random(in: 0..<5, using: &generator) == 0 })
            let diff = ChangeDiff.compute(before: before, after: after, updated: updated)
            let applied = applyDetails(
                removed: diff.removed, inserted: diff.inserted, inserting: diff.inserted.map { after[$0] },
                moves: diff.moves.map { ($0.from, $0.to) }, to: before)
            #expect(applied == after, "before \(before) after \(after) diff \(diff)")
            // Changed: exactly the updated keys present before and after, at their new indexes.
            let expectedChanged = IndexSet(after.enumerated().filter { updated.contains($0.element) && before.contains($0.element) }.map(\.offset))
            #expect(diff.changed == expectedChanged)
            // Fewest moves: every kept key not in a longest increasing run of new positions.
            let kept = before.filter(after.contains)
            let positions = kept.map { after.firstIndex(of: $0)! }
            var best = [Int](repeating: 1, count: positions.count)
            for i in positions.indices {
                for j in 0..<i where positions[j] < positions[i] { best[i] = max(best[i], best[j] + 1) }
            }
            #expect(diff.moves.count == kept.count - (best.max() ?? 0))
            if applied != after { break }
        }
    }

    @Test("random change batches: every fetch result's details turn the old result into the new one")
    func libraryProperty() async throws {
        let library = try TestLibrary.open()
        var seed = 0
        var ids = try await TestLibrary.addPhotos(40, to: library, startingAt: seed)
        seed += 40
        let albumID = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Random")
            changes.addAssets(Array(ids.shuffled().prefix(15)), to: album.localIdentifier)
        }.createdAlbumIDs[0]
        var generator = SystemRandomNumberGenerator()

        func results() throws -> [FetchResult<Asset>] {
            [
                try library.fetchAssets(),
                try library.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.modificationDate, ascending: false)])),
                try library.fetchAssets(in: .favorites),
                try library.fetchAssets(in: try library.album(albumID)),
                try library.fetchAssets(FetchOptions(predicate: .isFavorite || .isHidden, includeHiddenAssets: true)),
                try library.fetchAssets(in: .recentlyDeleted),
            ]
        }
        // Deleted assets go to Recently Deleted; some come back, some are deleted for good from there.
        var trashed: [String] = []

        for round in 0..<25 {
            let old = try results()
            let oldIDs = try old.map { try $0.allObjects().map(\.id) }
            let oldRevisions = Dictionary(
                uniqueKeysWithValues: try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).allObjects().map { ($0.id, $0.revision) })
            let newPhotos = try await (0..<Int.random(in: 0...3, using: &generator)).asyncMap { i in
                try await library.prepareAsset(
                    data: TestLibrary.uniqueJPEG(seed + i), filename: "r\(seed + i).jpg",
                    fileDate: Date(timeIntervalSince1970: Double.random(in: 1.5e9...1.7e9, using: &generator)))
            }
            seed += newPhotos.count
            let deleting = Array(ids.shuffled(using: &generator).prefix(Int.random(in: 0...2, using: &generator)))
            let survivors = ids.filter { !deleting.contains($0) }
            let recovering = Array(trashed.shuffled(using: &generator).prefix(Int.random(in: 0...2, using: &generator)))
            let purging = Array(
                trashed.filter { !recovering.contains($0) }.shuffled(using: &generator).prefix(Int.random(in: 0...1, using: &generator)))
            let albumCount = try library.fetchAssets(in: try library.album(albumID), options: FetchOptions(includeHiddenAssets: true)).count
            try await library.performChanges { changes in
                if albumCount >= 2 {
                    // First, while the album is as counted: move its first member to the end.
                    changes.moveAssets(at: IndexSet(integer: 0), to: albumCount - 1, in: albumID)
                }
                for photo in newPhotos { changes.createAsset(from: photo) }
                changes.deleteAssets(deleting)
                changes.recoverAssets(recovering)
                changes.deleteAssetsPermanently(purging)
                for id in survivors.shuffled(using: &generator).prefix(4) {
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0: changes.setFavorite(Bool.random(using: &generator), for: id)
                    case 1: changes.setHidden(Int.random(in: 0..<4, using: &generator) == 0, for: id)
                    case 2: changes.setCreationDate(Date(timeIntervalSince1970: Double.random(in: 1.5e9...1.7e9, using: &generator)), for: id)
                    case 3: changes.addAssets([id], to: albumID)
                    default: changes.removeAssets([id], from: albumID)
                    }
                }
            }
            ids = survivors + newPhotos.map(\.localIdentifier) + recovering
            trashed = trashed.filter { !recovering.contains($0) && !purging.contains($0) } + deleting
            let newRevisions = Dictionary(
                uniqueKeysWithValues: try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).allObjects().map { ($0.id, $0.revision) })

            for (k, result) in old.enumerated() {
                let details = try library.changeDetails(from: result)
                #expect(details.hasIncrementalChanges)
                let newIDs = try details.fetchResultAfterChanges.allObjects().map(\.id)
                #expect(newIDs == (try results()[k].allObjects().map(\.id)))
                let applied = applyDetails(
                    removed: details.removedIndexes!, inserted: details.insertedIndexes!,
                    inserting: try details.insertedObjects().map(\.id), moves: details.moves.map { ($0.from, $0.to) }, to: oldIDs[k])
                #expect(applied == newIDs, "result \(k), round \(round)")
                #expect(try details.removedObjects().map(\.id) == details.removedIndexes!.map { oldIDs[k][$0] })
                // Every object in both results whose revision changed is reported as changed.
                for (index, id) in newIDs.enumerated() where oldIDs[k].contains(id) && oldRevisions[id] != newRevisions[id] {
                    #expect(details.changedIndexes!.contains(index), "result \(k) round \(round): \(id) changed but not reported")
                }
            }
        }
    }

    @Test("observers receive details for this process's commits; a result the commit does not touch stays quiet")
    func observation() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(5, to: library)
        let favorites = try library.fetchAssets(in: .favorites)
        let all = try library.fetchAssets()
        let favoriteChanges = library.changes(for: favorites)
        let allChanges = library.changes(for: all)
        let renamed = try await library.performChanges { $0.createAlbum(title: "Unrelated") }
        _ = renamed
        try await library.performChanges { $0.setFavorite(true, for: ids[3]) }

        var iterator = favoriteChanges.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.insertedIndexes == IndexSet(integer: 0))
        #expect(try first.insertedObjects().map(\.id) == [ids[3]])
        var allIterator = allChanges.makeAsyncIterator()
        let allFirst = try #require(await allIterator.next())
        #expect(allFirst.changedIndexes == IndexSet(integer: 3), "the album commit did not touch this result; the favourite did")

        try await library.performChanges { $0.deleteAssets([ids[3]]) }
        let second = try #require(await iterator.next())
        #expect(second.removedIndexes == IndexSet(integer: 0))
        #expect(try second.removedObjects().map(\.id) == [ids[3]])
        #expect(second.fetchResultAfterChanges.count == 0)
    }

    @Test("results that do not want incremental details get a reload signal")
    func nonIncremental() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(3, to: library)
        let result = try library.fetchAssets(FetchOptions(wantsIncrementalChangeDetails: false))
        try await library.performChanges { $0.setHidden(true, for: ids[1]) }
        let details = try library.changeDetails(from: result)
        #expect(!details.hasIncrementalChanges)
        #expect(details.removedIndexes == nil && details.insertedIndexes == nil && details.changedIndexes == nil)
        #expect(details.fetchResultAfterChanges.count == 2)
    }
}

extension Range where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for i in self { out.append(try await transform(i)) }
        return out
    }
}
