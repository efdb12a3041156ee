import Foundation
import Testing

@testable import SepiaLibrary

@Suite struct FetchTests {
    @Test("fetch options: predicates, sorts, limits and hidden assets, as PhotoKit defines them")
    func options() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(10, to: library)
        try await library.performChanges { changes in
            changes.setFavorite(true, for: ids[2])
            changes.setFavorite(true, for: ids[5])
            changes.setHidden(true, for: ids[5])
            changes.setHidden(true, for: ids[7])
        }
        // Oldest first by default; hidden left out.
        let all = try library.fetchAssets()
        #expect(try all.allObjects().map(\.id) == ids.enumerated().filter { ![5, 7].contains($0.offset) }.map(\.element))
        #expect(try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).count == 10)

        // Newest first with a limit: the documented "latest photo" pattern.
        let latest = try library.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.creationDate, ascending: false)], fetchLimit: 1))
        #expect(try latest.allObjects().map(\.id) == [ids[9]])

        #expect(try library.fetchAssets(FetchOptions(predicate: .isFavorite)).allObjects().map(\.id) == [ids[2]])
        #expect(try library.fetchAssets(FetchOptions(predicate: .isFavorite, includeHiddenAssets: true)).count == 2)
        #expect(try library.fetchAssets(in: .hidden).allObjects().map(\.id) == [ids[5], ids[7]])
        #expect(try library.fetchAssets(in: .favorites).count == 1)

        let third = try library.asset(ids[3]).creationDate
        let after = try library.fetchAssets(FetchOptions(predicate: .created(after: third) && !.isFavorite))
        #expect(try after.allObjects().map(\.id) == [ids[4], ids[6], ids[8], ids[9]])
        let either = try library.fetchAssets(FetchOptions(predicate: .identifier(ids[0]) || .identifiers([ids[1], ids[9]])))
        #expect(try either.allObjects().map(\.id) == [ids[0], ids[1], ids[9]])
        #expect(try library.fetchAssets(FetchOptions(predicate: .filenameContains("PHOTO-1"))).count == 1)
        #expect(try library.fetchAssets(FetchOptions(predicate: .filenameContains("%"))).count == 0)
        #expect(try library.fetchAssets(FetchOptions(predicate: .size(.pixelWidth, .equal, 24))).count == 8)
        let byName = try library.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.originalFilename, ascending: false)]))
        #expect(try byName.firstObject()?.originalFilename == "photo-9.jpg")
    }

    @Test("fetch results: count, random access across pages, index(of:), and objects read lazily")
    func results() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(230, to: library)
        let result = try library.fetchAssets()
        #expect(result.count == 230)
        #expect(try result.object(at: 0).id == ids[0])
        #expect(try result.object(at: 229).id == ids[229])
        #expect(try result.objects(in: 95..<205).map(\.id) == Array(ids[95..<205]))
        let asset = try library.asset(ids[150])
        #expect(result.index(of: asset) == 150)
        #expect(result.contains(asset))
        #expect(throws: LibraryError.self) { try result.object(at: 230) }
        #expect(try result.lastObject()?.id == ids[229])

        // A snapshot: deleting afterwards does not change it, and its objects can still be read.
        try await library.performChanges { $0.deleteAssets([ids[150]]) }
        #expect(result.count == 230)
        #expect(try result.object(at: 150).id == ids[150])
        #expect(try library.fetchAssets().count == 229)
    }

    @Test("user albums keep the user's order; smart albums follow their rules; the timeline groups by year and month")
    func albumsAndTimeline() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(6, to: library)
        let outcome = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "  Lisbon ")
            changes.addAssets([ids[4], ids[1], ids[3]], to: album.localIdentifier)
            changes.insertAssets([ids[0]], at: 1, in: album.localIdentifier)
            changes.addAssets([ids[1]], to: album.localIdentifier)  // already there: stays in place
            changes.createAlbum(title: "Porto")
        }
        let lisbonID = outcome.createdAlbumIDs[0]
        var lisbon = try library.album("Lisbon")
        #expect(lisbon.id == lisbonID && lisbon.title == "Lisbon" && lisbon.assetCount == 4)
        #expect(try library.fetchAssets(in: lisbon).allObjects().map(\.id) == [ids[4], ids[0], ids[1], ids[3]])
        #expect(try library.fetchAlbums().allObjects().map(\.title) == ["Lisbon", "Porto"])

        // Move the first two to the end, then remove one.
        try await library.performChanges { changes in
            changes.moveAssets(at: IndexSet([0, 1]), to: 2, in: lisbonID)
            changes.removeAssets([ids[3]], from: lisbonID)
        }
        lisbon = try library.album(lisbonID)
        #expect(try library.fetchAssets(in: lisbon).allObjects().map(\.id) == [ids[1], ids[4], ids[0]])
        // Sorting overrides the album order.
        let sorted = try library.fetchAssets(in: lisbon, options: FetchOptions(sortDescriptors: [AssetSortDescriptor(.creationDate)]))
        #expect(try sorted.allObjects().map(\.id) == [ids[0], ids[1], ids[4]])

        // Smart albums cannot be edited; bad indexes are refused; nothing changes.
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.addAssets([ids[0]], to: SmartAlbum.favorites.id) } }
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { $0.moveAssets(at: IndexSet([7]), to: 0, in: lisbonID) }
        }
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.createAlbum(title: " ") } }

        try await library.performChanges { changes in
            changes.setFavorite(true, for: ids[0])
        }
        let smart = try library.smartAlbums()
        #expect(smart.map(\.title) == ["Recents", "Favorites", "Videos", "Live Photos", "Edited", "Hidden", "Recently Deleted"])
        #expect(smart.map(\.assetCount) == [6, 1, 0, 0, 0, 0, 0])

        // Photo dates are one hour apart from 2020-09-13 12:26:40 UTC.
        let years = try library.years()
        #expect(years.map(\.year) == [2020])
        #expect(years[0].assetCount == 6)
        let months = try library.months(in: 2020)
        #expect(months.map(\.month) == [9])
        #expect(try library.fetchAssets(in: months[0]).count == 6)

        // Deleting an album keeps its photos.
        try await library.performChanges { $0.deleteAlbums([lisbonID]) }
        #expect(try library.fetchAlbums().count == 1)
        #expect(try library.fetchAssets().count == 6)
    }

    @Test("asset references: full identifiers and unique prefixes")
    func references() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(3, to: library)
        #expect(try library.asset(matching: ids[1]).id == ids[1])
        #expect(try library.asset(matching: String(ids[1].prefix(12)).uppercased()).id == ids[1])
        #expect(throws: LibraryError.self) { try library.asset(matching: "abc") }
        #expect(throws: LibraryError.self) { try library.asset(matching: "ffffffff-0000") }
    }
}
