import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Synchronization
import Testing

@testable import SepiaLibrary

/// Recently Deleted, as Photos has it: deleting moves an asset there for 30 days with its files, edits and album
/// memberships; it leaves every other fetch; Recover puts it back where it was; a purge deletes for good what
/// has been there long enough, files and all. The library's clock is moved by hand ("31 days later").
@Suite struct RecentlyDeletedTests {
    static let identifier = "3C1F0B7A-64D2-4E9B-A815-7E2D4C9B0F31"

    /// A file scripts/testdata-raw makes (a DNG and its JPEG of the same shot).
    static func rawFixture(_ name: String) throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = repository.appendingPathComponent(".build/testdata/raw-tiff/pair/" + name).path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("\(path) is missing: run scripts/testdata-raw, which makes the RAW+JPEG pair")
            throw CancellationError()
        }
        return path
    }

    @Test("a deleted photo leaves every fetch, smart album, album, count and year but Recently Deleted, keeps its files, and Recover puts it back")
    func deleteAndRecover() async throws {
        // Given a favourite, edited photo second in an album of three
        let clock = TestClock()
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder, clock: clock)
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(4, to: library)
        let albumID = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Trip")
            changes.addAssets([ids[0], ids[1], ids[2]], to: album.localIdentifier)
            changes.setFavorite(true, for: ids[1])
        }.createdAlbumIDs[0]
        let edited = try await library.edit(try library.asset(ids[1]), recipe: EditRecipe(filters: [SepiaTone(intensity: 0.8)]))
        let originals = TestLibrary.files(under: folder + "/originals")
        let renders = TestLibrary.files(under: folder + "/renders")
        #expect(originals.count == 4 && renders.count == 1)
        let yearTotal = try library.years().map(\.assetCount).reduce(0, +)

        // When it is deleted
        try await library.performChanges { $0.deleteAssets([ids[1]]) }

        // Then it is in Recently Deleted, with the date of its deletion and 30 days left
        let deleted = try library.asset(ids[1])
        #expect(deleted.trashedDate == clock.now && deleted.isRecentlyDeleted)
        #expect(library.daysLeftInRecentlyDeleted(deleted) == 30)
        #expect(library.purgeDate(of: deleted) == clock.now.addingTimeInterval(30 * 86_400))
        #expect(try library.fetchAssets(in: .recentlyDeleted).allObjects().map(\.id) == [ids[1]])
        #expect(try library.fetchAssetPage(in: .recentlyDeleted, limit: 10).assets.map(\.id) == [ids[1]])
        // …and in no other fetch, smart album, album, count or year
        #expect(try library.fetchAssets().allObjects().map(\.id) == [ids[0], ids[2], ids[3]])
        #expect(try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).count == 3)
        #expect(try library.fetchAssets(in: .favorites).count == 0)
        #expect(try library.fetchAssets(in: .edited).count == 0)
        #expect(try library.fetchAssets(FetchOptions(predicate: .identifier(ids[1]), includeHiddenAssets: true)).count == 0)
        let album = try library.album(albumID)
        #expect(album.assetCount == 2)
        #expect(try library.fetchAssets(in: album).allObjects().map(\.id) == [ids[0], ids[2]])
        #expect(try library.fetchAssets(FetchOptions(predicate: .inAlbums([albumID]))).count == 2)
        let smart = Dictionary(uniqueKeysWithValues: try library.smartAlbums().map { ($0.id, $0.assetCount) })
        #expect(smart[SmartAlbum.recentlyDeleted.id] == 1)
        #expect(smart[SmartAlbum.favorites.id] == 0)
        #expect(smart[SmartAlbum.recents.id] == 3)
        #expect(try library.album("Recently Deleted").kind == .smart(.recentlyDeleted))
        #expect(try library.years().map(\.assetCount).reduce(0, +) == yearTotal - 1)
        #expect(try library.fetchAssetPage(limit: 10).total == 3)
        #expect(try library.fetchAssetPage(options: FetchOptions(includeHiddenAssets: true), limit: 10).total == 3)
        // Its original and its edit's render stay, and the library checks sound
        #expect(TestLibrary.files(under: folder + "/originals") == originals)
        #expect(TestLibrary.files(under: folder + "/renders") == renders)
        #expect(FileManager.default.fileExists(atPath: try await library.currentPath(of: deleted)))
        #expect(try await library.check().isSound)

        // Nothing but a recovery or a deletion for good changes it
        let refused: [(ChangeRequests) -> Void] = [
            { $0.setFavorite(false, for: ids[1]) }, { $0.setHidden(true, for: ids[1]) }, { $0.addAssets([ids[1]], to: albumID) },
            { $0.revertToOriginal(ids[1]) }, { $0.setLocation(nil, for: ids[1]) },
            { $0.setUserMetadata(UserMetadata(title: "Kept", rating: 4), for: ids[1]) },
            { $0.shiftCreationDates(of: [ids[1]], by: 3600) }, { $0.revertCreationDate(of: [ids[1]]) },
        ]
        for change in refused {
            let error = await #expect(throws: LibraryError.self) { try await library.performChanges(change) }
            #expect(error?.code == .inRecentlyDeleted)
        }

        // Deleting it again keeps its date
        clock.advance(days: 2)
        try await library.performChanges { $0.deleteAssets([ids[1]]) }
        #expect(try library.asset(ids[1]).trashedDate == deleted.trashedDate)
        #expect(library.daysLeftInRecentlyDeleted(try library.asset(ids[1])) == 28)

        // When it is recovered, it is back everywhere: in its album at its place, a favourite, with its edit
        try await library.performChanges { $0.recoverAssets([ids[1]]) }
        let back = try library.asset(ids[1])
        #expect(back.trashedDate == nil && back.isFavorite && back.currentAdjustmentID == edited.currentAdjustmentID)
        #expect(library.daysLeftInRecentlyDeleted(back) == nil && library.purgeDate(of: back) == nil)
        #expect(try library.fetchAssets(in: try library.album(albumID)).allObjects().map(\.id) == [ids[0], ids[1], ids[2]])
        #expect(try library.album(albumID).assetCount == 3)
        #expect(try library.fetchAssets(in: .favorites).count == 1)
        #expect(try library.fetchAssets(in: .recentlyDeleted).count == 0)
        #expect(try library.fetchAssetPage(limit: 10).total == 4)
        // Recovering what is not deleted changes nothing
        let generation = try library.currentGeneration()
        try await library.performChanges { $0.recoverAssets([ids[0]]) }
        #expect(try library.currentGeneration() == generation)

        // An album reordered while a member is deleted keeps that member after the one it followed
        try await library.performChanges { $0.deleteAssets([ids[1]]) }
        try await library.performChanges { $0.moveAssets(at: IndexSet(integer: 1), to: 0, in: albumID) }
        #expect(try library.fetchAssets(in: try library.album(albumID)).allObjects().map(\.id) == [ids[2], ids[0]])
        try await library.performChanges { $0.insertAssets([ids[3]], at: 1, in: albumID) }
        #expect(try library.fetchAssets(in: try library.album(albumID)).allObjects().map(\.id) == [ids[2], ids[3], ids[0]])
        try await library.performChanges { $0.recoverAssets([ids[1]]) }
        #expect(try library.fetchAssets(in: try library.album(albumID)).allObjects().map(\.id) == [ids[2], ids[3], ids[0], ids[1]])
        #expect(try await library.check().isSound)
    }

    @Test("the days left count down; a purge 31 days later deletes for good, with the edit, the files and the cached images")
    func purge() async throws {
        let clock = TestClock()
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder, clock: clock)
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(3, to: library)
        _ = try await library.edit(try library.asset(ids[0]), recipe: EditRecipe(filters: [SepiaTone(intensity: 0.5)]))
        #expect(FileManager.default.fileExists(atPath: library.folder.cacheFolder(assetID: ids[0])))
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        clock.advance(days: 10)
        try await library.performChanges { $0.deleteAssets([ids[1]]) }
        #expect(try library.fetchAssets(in: .recentlyDeleted).allObjects().map(\.id) == [ids[1], ids[0]], "newest deletion first")
        func daysLeft(_ id: String) throws -> Int? { library.daysLeftInRecentlyDeleted(try library.asset(id)) }
        #expect(try daysLeft(ids[0]) == 20 && daysLeft(ids[1]) == 30)

        // 29½ days after the first deletion: a day left, nothing to purge
        clock.advance(days: 19.5)
        #expect(try daysLeft(ids[0]) == 1)
        #expect(try library.purgeRecentlyDeleted().isEmpty)
        #expect(TestLibrary.files(under: folder + "/originals").count == 3)

        // 31 days after: purged, with everything it had
        clock.advance(days: 1.5)
        #expect(try daysLeft(ids[0]) == 0)
        let observed = try library.fetchAssets(in: .recentlyDeleted)
        let before = try library.currentGeneration()
        #expect(try library.purgeRecentlyDeleted() == [ids[0]])
        #expect(throws: LibraryError.self) { try library.asset(ids[0]) }
        #expect(TestLibrary.files(under: folder + "/originals").count == 2)
        #expect(TestLibrary.files(under: folder + "/renders").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: library.folder.cacheFolder(assetID: ids[0])))
        #expect(try library.changeLog(after: before)?.map(\.operation) == [.delete])
        let details = try library.changeDetails(from: observed)
        #expect(details.removedIndexes == IndexSet(integer: 1) && details.insertedIndexes == IndexSet())
        #expect(try details.removedObjects().map(\.id) == [ids[0]])
        // Again: nothing more is due
        #expect(try library.purgeRecentlyDeleted().isEmpty)
        #expect(try library.fetchAssets(in: .recentlyDeleted).allObjects().map(\.id) == [ids[1]])
        #expect(try await library.check().isSound)

        // Deleting for good, from Recently Deleted or straight from the library
        try await library.performChanges { $0.deleteAssetsPermanently([ids[1], ids[2]]) }
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty)
        #expect(try library.fetchAssetPage(limit: 10).total == 0)
        #expect(try library.fetchAssets(in: .recentlyDeleted).count == 0)
        #expect(try await library.check().isSound)
    }

    @Test("the retention is the library's configuration: with 7 days, a photo has 7 days left and goes after 7")
    func retention() async throws {
        let clock = TestClock()
        let folder = TestLibrary.temporaryFolder()
        var configuration = LibraryConfiguration(
            renderContext: RenderContext(options: RenderOptions(threadCount: 2)), watchesMemoryPressure: false,
            database: TestLibrary.database(for: folder))
        configuration.recentlyDeletedRetention = .seconds(7 * 86_400)
        configuration.clock = { clock.now }
        let library = try PhotoLibrary.open(at: folder, configuration: configuration)
        defer { library.close() }
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        try await library.performChanges { $0.deleteAssets([id]) }
        #expect(library.daysLeftInRecentlyDeleted(try library.asset(id)) == 7)
        clock.advance(days: 6.99)
        #expect(try library.purgeRecentlyDeleted().isEmpty)
        clock.advance(days: 0.01)
        #expect(try library.purgeRecentlyDeleted() == [id])
    }

    /// Instants as `Date()` gives them (seconds since 2001, fractional): the deletion date goes to the database as
    /// seconds since 1970 and back, a round trip that moves its last binary digit for about one instant in four,
    /// as it does for the first of these.
    @Test(
        "days are counted from the instant of the deletion, whatever its fraction of a second: 30, then 1 on the last day, due at 30",
        arguments: [795_876_517.926_659_5, 786_123_456.789_012, 700_000_000.0])
    func daysFromAnyInstant(_ start: Double) async throws {
        let clock = TestClock(Date(timeIntervalSinceReferenceDate: start))
        let library = try TestLibrary.open(clock: clock)
        defer { library.close() }
        let id = try await TestLibrary.addPhotos(1, to: library, startingAt: 700)[0]
        try await library.performChanges { $0.deleteAssets([id]) }
        func daysLeft() throws -> Int? { library.daysLeftInRecentlyDeleted(try library.asset(id)) }
        #expect(try daysLeft() == 30)
        clock.advance(days: 1)
        #expect(try daysLeft() == 29)
        clock.advance(days: 28)
        #expect(try daysLeft() == 1)
        #expect(try library.purgeRecentlyDeleted().isEmpty)
        clock.advance(days: 1)
        #expect(try daysLeft() == 0)
        #expect(try library.purgeRecentlyDeleted() == [id])
    }

    @Test("a Live Photo and a RAW+JPEG pair keep every file while deleted and once recovered; a purge removes them all")
    func resourcesKeptThenPurged() async throws {
        // Given a Live Photo (still and movie) and a RAW+JPEG pair, imported from a folder
        let source = TestLibrary.temporaryFolder("roll")
        try TestVideos.liveStill(identifier: Self.identifier, jpeg: TestLibrary.uniqueJPEG(21, width: 64, height: 48)).write(
            to: URL(fileURLWithPath: source + "/IMG_0100.JPG"))
        try TestVideos.clip("IMG_0100.MOV", in: source, keys: ["com.apple.quicktime.content.identifier": Self.identifier], pattern: 4)
        for name in ["IMG_0001.DNG", "IMG_0001.JPG"] {
            try FileManager.default.copyItem(atPath: try Self.rawFixture(name), toPath: source + "/" + name)
        }
        let clock = TestClock()
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder, clock: clock)
        defer { library.close() }
        let summary = try await AssetImporter(library: library, concurrency: 1).importFiles([source])
        #expect(summary.imported == 2 && summary.paired == 2, "\(summary)")
        let assets = try library.fetchAssets().allObjects()
        let live = try #require(assets.first { $0.isLivePhoto })
        let pair = try #require(assets.first { $0.mediaSubtypes.contains(.photoRAWPair) })
        let liveFiles = try library.resources(for: live)
        let pairFiles = try library.resources(for: pair)
        #expect(liveFiles.map(\.type) == [.photo, .pairedVideo])
        #expect(pairFiles.map(\.type) == [.photo, .alternatePhoto])
        let stored = TestLibrary.files(under: folder + "/originals")
        #expect(stored.count == 4)

        // When both are deleted, every file stays, and each can still be read
        try await library.performChanges { $0.deleteAssets([live.id, pair.id]) }
        #expect(try library.fetchAssets().count == 0)
        #expect(try library.resources(for: try library.asset(live.id)) == liveFiles)
        #expect(try library.resources(for: try library.asset(pair.id)) == pairFiles)
        #expect(TestLibrary.files(under: folder + "/originals") == stored)
        for resource in liveFiles + pairFiles {
            #expect(FileManager.default.fileExists(atPath: try await library.path(of: resource)), "\(resource.type)")
        }
        #expect(try await library.check().isSound)

        // A movie with the deleted Live Photo's identifier does not join it: it comes in as a video of its own
        let stray = try TestVideos.clip(
            "IMG_0101.MOV", in: TestLibrary.temporaryFolder("stray"), keys: ["com.apple.quicktime.content.identifier": Self.identifier],
            pattern: 5)
        let strayImport = try await AssetImporter(library: library, concurrency: 1).importFiles([stray])
        #expect(strayImport.imported == 1 && strayImport.paired == 0, "\(strayImport)")
        #expect(try library.resources(for: try library.asset(live.id)).map(\.type) == [.photo, .pairedVideo])
        let strayID = try #require(try library.fetchAssets(with: .video).firstObject()).id

        // Recovered, the Live Photo has both parts; deleted again and purged 31 days on, both go with the pair's
        try await library.performChanges { $0.recoverAssets([live.id]) }
        #expect(try library.fetchAssets().allObjects().first { $0.id == live.id }?.isLivePhoto == true)
        #expect(try library.resources(for: try library.asset(live.id)) == liveFiles)
        try await library.performChanges { $0.deleteAssets([live.id]) }
        clock.advance(days: 31)
        #expect(Set(try library.purgeRecentlyDeleted()) == [live.id, pair.id])
        let remaining = TestLibrary.files(under: folder + "/originals")
        #expect(remaining.count == 1, "only the stray movie's file: \(remaining)")
        #expect(try library.resources(for: try library.asset(strayID)).count == 1)
        #expect(try await library.check().isSound)
    }

    @Test("observers see a deletion as a removal, as a deletion for good shows, and a recovery as an insertion; the log says trash and recover")
    func observation() async throws {
        let library = try TestLibrary.open(clock: TestClock())
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(5, to: library)
        let albumID = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Two")
            changes.addAssets([ids[1], ids[3]], to: album.localIdentifier)
        }.createdAlbumIDs[0]
        let all = try library.fetchAssets()
        let album = try library.fetchAssets(in: try library.album(albumID))
        let albums = try library.fetchAlbums()
        let deleted = try library.fetchAssets(in: .recentlyDeleted)
        let start = try library.currentGeneration()
        var allChanges = library.changes(for: all).makeAsyncIterator()
        var deletedChanges = library.changes(for: deleted).makeAsyncIterator()

        // A deletion: a removal from the results that showed the asset, an insertion into Recently Deleted
        try await library.performChanges { $0.deleteAssets([ids[3]]) }
        let trash = try #require(await allChanges.next())
        #expect(trash.hasIncrementalChanges)
        #expect(trash.removedIndexes == IndexSet(integer: 3))
        #expect(trash.insertedIndexes == IndexSet() && trash.changedIndexes == IndexSet() && trash.moves.isEmpty)
        #expect(try trash.removedObjects().map(\.id) == [ids[3]])
        #expect(try trash.fetchResultAfterChanges.allObjects().map(\.id) == [ids[0], ids[1], ids[2], ids[4]])
        let fromAlbum = try library.changeDetails(from: album)
        #expect(fromAlbum.removedIndexes == IndexSet(integer: 1) && fromAlbum.insertedIndexes == IndexSet())
        #expect(try library.changeDetails(from: albums).changedIndexes == IndexSet(integer: 0), "the album's count changed")
        let intoDeleted = try #require(await deletedChanges.next())
        #expect(intoDeleted.insertedIndexes == IndexSet(integer: 0) && intoDeleted.removedIndexes == IndexSet())
        #expect(try intoDeleted.insertedObjects().map(\.id) == [ids[3]])

        // A deletion for good of another asset shows the same way (and Recently Deleted hears nothing of it)
        try await library.performChanges { $0.deleteAssetsPermanently([ids[4]]) }
        let permanent = try #require(await allChanges.next())
        #expect(permanent.removedIndexes == IndexSet(integer: 3))
        #expect(permanent.insertedIndexes == IndexSet() && permanent.changedIndexes == IndexSet() && permanent.moves.isEmpty)

        // A recovery: an insertion where the asset belongs, a removal from Recently Deleted
        try await library.performChanges { $0.recoverAssets([ids[3]]) }
        let recovery = try #require(await allChanges.next())
        #expect(recovery.insertedIndexes == IndexSet(integer: 3))
        #expect(recovery.removedIndexes == IndexSet() && recovery.changedIndexes == IndexSet() && recovery.moves.isEmpty)
        #expect(try recovery.insertedObjects().map(\.id) == [ids[3]])
        let outOfDeleted = try #require(await deletedChanges.next())
        #expect(outOfDeleted.removedIndexes == IndexSet(integer: 0) && outOfDeleted.insertedIndexes == IndexSet())
        let backInAlbum = try library.changeDetails(from: fromAlbum.fetchResultAfterChanges)
        #expect(backInAlbum.insertedIndexes == IndexSet(integer: 1))

        // The change log, which the server's change stream reads, names each
        let log = try #require(try library.changeLog(after: start)).filter { $0.entity == .asset }
        #expect(log.map(\.operation) == [.trash, .delete, .recover])
        #expect(log.map(\.id) == [ids[3], ids[4], ids[3]])
    }

    @Test("importing a photo that is in Recently Deleted recovers it into its albums; re-running the same import leaves it deleted")
    func duplicateImport() async throws {
        let library = try TestLibrary.open(clock: TestClock())
        defer { library.close() }
        let data = TestLibrary.uniqueJPEG(501)
        let original = TestLibrary.temporaryFolder("import") + "/IMG_0005.jpg"
        try data.write(to: URL(fileURLWithPath: original))
        _ = try await AssetImporter(library: library, concurrency: 1).importFiles([original])
        let id = try #require(try library.fetchAssets().firstObject()).id
        let kept = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "Kept")
            changes.addAssets([id], to: album.localIdentifier)
        }.createdAlbumIDs[0]
        try await library.performChanges { $0.deleteAssets([id]) }

        // A change block adding the same bytes is refused as a duplicate that names the deleted photo
        let error = await #expect(throws: LibraryError.self) {
            try await library.performChanges { $0.createAsset(from: data, filename: "copy.jpg") }
        }
        #expect(error?.code == .duplicate && error?.relatedID == id)
        #expect(error?.reason.contains("Recently Deleted") == true, "\(String(describing: error))")

        // The same import again (the same file, unchanged) reads nothing: the photo stays deleted
        let again = try await AssetImporter(library: library, concurrency: 1).importFiles([original])
        #expect(again.alreadyImported == 1 && again.recovered == 0, "\(again)")
        #expect(try library.asset(id).isRecentlyDeleted)

        // The file imported from elsewhere, into an album: the photo comes back, into both albums
        let copy = TestLibrary.temporaryFolder("copy") + "/IMG_0005 copy.jpg"
        try data.write(to: URL(fileURLWithPath: copy))
        let results = Mutex<[ImportItemResult]>([])
        let summary = try await AssetImporter(library: library, albumTitle: "Again", concurrency: 1).importFiles([copy]) { result, _ in
            results.withLock { $0.append(result) }
        }
        #expect(summary.recovered == 1 && summary.imported == 0 && summary.duplicates == 0, "\(summary)")
        let result = try #require(results.withLock { $0 }.first)
        #expect(result.status == .recovered && result.assetID == id)
        #expect(try library.asset(id).trashedDate == nil)
        #expect(try library.fetchAssets(in: try library.album(kept)).allObjects().map(\.id) == [id])
        #expect(try library.fetchAssets(in: try library.album("Again")).allObjects().map(\.id) == [id])
        #expect(try library.fetchAssets().count == 1)
        #expect(try await library.check().isSound)
    }

    @Test("two libraries on one database purge at the same moment: each asset is deleted once and neither fails")
    func concurrentPurge() async throws {
        let clock = TestClock()
        let folder = TestLibrary.temporaryFolder()
        let first = try TestLibrary.open(at: folder, clock: clock)
        // Another opening of the same library, as another server or process has: the same database.
        let second = try TestLibrary.open(at: folder, clock: clock)
        defer {
            first.close()
            second.close()
        }
        for round in 0..<3 {
            let ids = try await TestLibrary.addPhotos(12, to: first, startingAt: round * 100)
            try await first.performChanges { $0.deleteAssets(ids) }
            clock.advance(days: 31)
            async let one = Task.detached { try first.purgeRecentlyDeleted() }.value
            async let other = Task.detached { try second.purgeRecentlyDeleted() }.value
            let (a, b) = try await (one, other)
            #expect(Set(a).isDisjoint(with: b), "round \(round)")
            #expect(Set(a + b) == Set(ids), "round \(round)")
            #expect(try first.fetchAssets(in: .recentlyDeleted).count == 0)
            #expect(try second.fetchAssets(in: .recentlyDeleted).count == 0)
        }
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty)
        #expect(try first.fetchAssetPage(limit: 1).total == 0)
        #expect(try await first.check().isSound)
    }
}
