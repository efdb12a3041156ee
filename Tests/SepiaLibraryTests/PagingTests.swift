import Foundation
import GRDB
import SepiaImage
import Testing

@testable import SepiaLibrary

@Suite("Pages of fetches, the change log as entries, album limits")
struct PagingTests {
    @Test("a page's total follows imports, hiding, showing and deletion, with and without hidden assets")
    func keptTotals() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(5, to: library)
        func totals() throws -> (Int, Int) {
            var all = FetchOptions()
            all.includeHiddenAssets = true
            return (try library.fetchAssetPage(limit: 1).total, try library.fetchAssetPage(options: all, limit: 1).total)
        }
        #expect(try totals() == (5, 5))
        try await library.performChanges { changes in
            changes.setHidden(true, for: ids[0])
            changes.setHidden(true, for: ids[1])
            changes.setHidden(true, for: ids[1])
        }
        #expect(try totals() == (3, 5))
        try await library.performChanges { changes in
            changes.setHidden(false, for: ids[0])
            changes.deleteAssets([ids[1], ids[2]])
        }
        #expect(try totals() == (3, 3))
        #expect(try library.fetchAssets().count == 3)
        #expect(try await library.check(verifyingHashes: false).isSound)
    }

    @Test(
        "paging through any order gives exactly the fetch's order, whatever the page size",
        arguments: [
            [AssetSortDescriptor(.creationDate, ascending: false)], [AssetSortDescriptor(.creationDate)],
            [AssetSortDescriptor(.originalFilename)], [AssetSortDescriptor(.pixelWidth, ascending: false)], [],
        ])
    func pagesMatchTheFetch(sort: [AssetSortDescriptor]) async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        // Given photos with ties in every sort key but the row key…
        var prepared: [PreparedAsset] = []
        for i in 0..<23 {
            prepared.append(
                try await library.prepareAsset(
                    data: TestLibrary.uniqueJPEG(i, width: 16 + (i % 3), height: 16), filename: "p\(i % 5).jpg",
                    fileDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(i % 4) * 3600)))
        }
        try await library.performChanges { changes in prepared.forEach { changes.createAsset(from: $0) } }
        let options = FetchOptions(sortDescriptors: sort)
        let expected = try library.fetchAssets(options).allObjects().map(\.id)
        for size in [1, 4, 7, 23, 50] {
            var ids: [String] = []
            var cursor: AssetCursor?
            repeat {
                let page = try library.fetchAssetPage(options: options, after: cursor, limit: size)
                #expect(page.total == 23)
                ids += page.assets.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(ids == expected, "page size \(size)")
        }
    }

    @Test("a cursor survives its token, refuses another order, and an album pages in the album's order")
    func cursorsAndAlbums() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(6, to: library)
        let outcome = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Order")
            changes.addAssets(ids.reversed(), to: album.localIdentifier)
        }
        let album = try library.album(try #require(outcome.createdAlbumIDs.first))
        let first = try library.fetchAssetPage(album, limit: 4)
        #expect(first.assets.map(\.id) == Array(ids.reversed().prefix(4)))
        let cursor = try AssetCursor(token: try #require(first.nextCursor).token)
        #expect(try library.fetchAssetPage(album, after: cursor, limit: 4).assets.map(\.id) == [ids[1], ids[0]])
        #expect(throws: LibraryError.self) { try library.fetchAssetPage(after: cursor, limit: 4) }
        #expect(throws: LibraryError.self) { try AssetCursor(token: "not a cursor") }
        // The album-limit predicate: only what is in the album.
        let inAlbum = try library.fetchAssetPage(options: FetchOptions(predicate: .inAlbums([album.id]) && .identifiers([ids[0], "x"])))
        #expect(inAlbum.assets.map(\.id) == [ids[0]])
    }

    @Test("the change log lists each commit's entries in order, and says when it no longer reaches back")
    func changeLog() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let start = try library.currentGeneration()
        let ids = try await TestLibrary.addPhotos(2, to: library)
        try await library.performChanges { $0.setFavorite(true, for: ids[0]) }
        try await library.performChanges { $0.deleteAssetsPermanently([ids[1]]) }
        let entries = try #require(try library.changeLog(after: start))
        #expect(entries.map(\.operation) == [.insert, .insert, .update, .delete])
        #expect(entries.map(\.id) == [ids[0], ids[1], ids[0], ids[1]])
        #expect(entries.map(\.generation) == entries.map(\.generation).sorted())
        #expect(try library.changeLog(after: start, limit: 1)?.count == 1)
        #expect(try library.changeLog(after: try library.currentGeneration())?.isEmpty == true)
        let store = try #require(library.store as? SQLLibraryStore)
        try store.pruneChangeLog(keep: 1)
        #expect(try library.changeLog(after: start) == nil)
    }

    @Test("the disk cache keeps to its budget by removing the least recently used renditions")
    func diskBudget() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try PhotoLibrary.open(
            at: folder,
            configuration: LibraryConfiguration(
                diskCacheLimit: 60_000, renderContext: RenderContext(options: RenderOptions(threadCount: 2)), watchesMemoryPressure: false))
        defer { library.close() }
        let index = try #require(library.imageStore.diskIndex)
        let store = library.imageStore
        func rendition(_ seed: Int) -> Rendition {
            Rendition(data: Array(TestLibrary.uniqueJPEG(seed, width: 64, height: 64)), pixelSize: IntSize(width: 64, height: 64))
        }
        let size = rendition(0).data.count
        // Given renditions written one after the other, the first one read after each…
        var keys: [RenditionKey] = []
        for i in 0..<(60_000 / size + 4) {
            let key = RenditionKey(assetID: "asset-\(i)", version: "original", size: IntSize(width: 64, height: 64), mode: .aspectFit)
            try store.writeToDisk(rendition(i), for: key)
            keys.append(key)
            _ = store.diskRendition(for: keys[0])
            try await Task.sleep(for: .milliseconds(5))
        }
        // Wait for the first scan (it runs on a thread of its own) to have joined.
        try await Task.sleep(for: .milliseconds(300))
        try store.writeToDisk(
            rendition(999), for: RenditionKey(assetID: "last", version: "original", size: IntSize(width: 64, height: 64), mode: .aspectFit))
        // …the cache is within its budget, the oldest unused went first, and the one read survived.
        let onDisk = TestLibrary.files(under: folder + "/cache")
        let bytes = onDisk.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: folder + "/cache/" + $1)[.size] as? Int) ?? 0) }
        #expect(bytes <= 60_000)
        #expect(index.totalBytes == bytes)
        #expect(index.evicted.files > 0)
        #expect(store.diskRendition(for: keys[0]) != nil)
        #expect(store.diskRendition(for: keys[1]) == nil)
    }
}
