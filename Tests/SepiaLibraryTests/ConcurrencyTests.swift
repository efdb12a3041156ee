import Foundation
import Testing

@testable import SepiaLibrary

@Suite struct ConcurrencyTests {
    @Test("writers and readers at once, through two handles on the same library, never see 'database is locked'")
    func threads() async throws {
        let folder = TestLibrary.temporaryFolder()
        let first = try TestLibrary.open(at: folder)
        let second = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(20, to: first)
        let album = try await first.performChanges { $0.createAlbum(title: "Busy") }.createdAlbumIDs[0]

        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<6 {
                let library = worker % 2 == 0 ? first : second
                group.addTask {
                    var failures: [String] = []
                    for i in 0..<25 {
                        do {
                            switch (worker + i) % 4 {
                            case 0:
                                try await library.performChanges { $0.setFavorite(i % 2 == 0, for: ids[(worker * 3 + i) % ids.count]) }
                            case 1:
                                try await library.performChanges { $0.addAssets([ids[(worker + i) % ids.count]], to: album) }
                            case 2:
                                _ = try library.fetchAssets(FetchOptions(predicate: .isFavorite)).allObjects()
                                _ = try library.fetchAssets(in: try library.album(album)).allObjects()
                            default:
                                try await TestLibrary.addPhotos(1, to: library, startingAt: 10_000 + worker * 100 + i)
                            }
                        } catch {
                            failures.append("\(error)")
                        }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for try await f in group { all += f }
            return all
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(try await first.check().isSound)
        #expect(try first.fetchAssets().count == (try second.fetchAssets().count))
    }

    @Test("a change in one handle reaches another handle's observer through the change log")
    func observedAcrossHandles() async throws {
        let folder = TestLibrary.temporaryFolder()
        let watcher = try TestLibrary.open(at: folder, pollInterval: .milliseconds(20))
        let writer = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(3, to: writer)
        let result = try watcher.fetchAssets()
        #expect(result.count == 3)
        var iterator = watcher.changes(for: result).makeAsyncIterator()
        try await writer.performChanges { $0.setHidden(true, for: ids[1]) }
        let details = try #require(await iterator.next())
        #expect(details.removedIndexes == IndexSet(integer: 1))
        #expect(details.fetchResultAfterChanges.count == 2)
    }
}
