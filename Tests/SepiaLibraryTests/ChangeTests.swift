import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaLibrary

@Suite struct ChangeTests {
    @Test("a change block happens entirely or not at all, and its files go with it")
    func atomicity() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(2, to: library)
        let before = TestLibrary.files(under: folder + "/originals")

        // Given a block that creates an asset and an album, favourites a photo, then fails
        do {
            try await library.performChanges { changes in
                changes.createAsset(from: TestLibrary.uniqueJPEG(1000), filename: "new.jpg")
                changes.createAlbum(title: "Half")
                changes.setFavorite(true, for: ids[0])
                changes.addAssets([ids[1]], to: "no-such-album")
            }
            Issue.record("the block should have failed")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.description.contains("no-such-album"))
        }
        // Then nothing happened: no asset, no album, no favourite, no stored file, no cached image
        #expect(try library.fetchAssets().count == 2)
        #expect(try library.fetchAlbums().count == 0)
        #expect(try library.asset(ids[0]).isFavorite == false)
        #expect(TestLibrary.files(under: folder + "/originals") == before)
        #expect(
            Set(
                try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").flatMap {
                    try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/" + $0)
                }) == Set(ids))
        #expect(try await library.check().isSound)
    }

    @Test("favorite, hide, date and location changes bump the revision; unchanged values do not")
    func properties() async throws {
        let library = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        let start = try library.asset(id)
        try await library.performChanges { $0.setFavorite(true, for: id) }
        let favorite = try library.asset(id)
        #expect(favorite.isFavorite && favorite.revision == start.revision + 1)
        #expect(favorite.modificationDate >= start.modificationDate)
        try await library.performChanges { $0.setFavorite(true, for: id) }
        #expect(try library.asset(id).revision == favorite.revision)

        let date = ISO8601DateFormatter().date(from: "1999-12-31T23:30:00Z")!
        try await library.performChanges { changes in
            changes.setCreationDate(date, offset: 3600, for: id)
            changes.setLocation(.init(latitude: 38.7, longitude: -9.1), for: id)
        }
        let moved = try library.asset(id)
        #expect(moved.creationDate == date && moved.creationDateOffset == 3600 && moved.creationDateSource == .user)
        #expect(moved.location?.latitude == 38.7)
        // 23:30 UTC at UTC+1 is 2000-01-01: the timeline follows the local date.
        #expect(try library.years().map(\.year) == [2000])
    }

    @Test("deleting an asset removes its original, renders, album memberships and cached images")
    func deletion() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let ids = try await TestLibrary.addPhotos(2, to: library)
        let asset = try await library.edit(try library.asset(ids[0]), recipe: .init(filters: [SepiaTone()]))
        let album = try await library.performChanges { changes in
            let album = changes.createAlbum(title: "A")
            changes.addAssets(ids, to: album.localIdentifier)
        }.createdAlbumIDs[0]
        let original = try await library.originalPath(of: asset)
        let render = try await library.currentPath(of: asset)
        #expect(FileManager.default.fileExists(atPath: render))

        try await library.performChanges { $0.deleteAssetsPermanently([ids[0]]) }
        #expect(!FileManager.default.fileExists(atPath: original))
        #expect(!FileManager.default.fileExists(atPath: render))
        #expect(!FileManager.default.fileExists(atPath: folder + "/cache/" + ids[0].prefix(2) + "/" + ids[0]))
        #expect(try library.album(album).assetCount == 1)
        #expect(throws: LibraryError.self) { try library.asset(ids[0]) }
        #expect(try await library.check().isSound)
    }
}
