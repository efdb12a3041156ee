import Foundation
import SepiaCodecs
import Testing

@testable import SepiaLibrary

/// A Live Photo's still and movie become one asset, whichever is committed first: by their Apple content
/// identifier, or, without one, by base name and a capture time that agrees to the second — never by name
/// alone. Committed straight to the store, as the importer does once each file is stored.
@Suite struct LivePhotoPairingTests {
    let library: PhotoLibrary
    let store: any LibraryStore

    init() throws {
        library = try TestLibrary.open()
        store = library.store
    }

    static let date = Date(timeIntervalSince1970: 1_690_877_730)

    /// A still or a movie as the importer prepares it.
    static func part(
        _ type: MediaType, name: String, identifier: String? = nil, date: Date = date, source: CreationDateSource = .capture
    ) -> NewAsset {
        let id = UUID().uuidString.lowercased()
        let hash = ContentHash.of(Array((name + id).utf8))
        let format: ImageFormat = type == .image ? .heic : .jpeg
        let asset = Asset(
            id: id, mediaType: type, pixelWidth: 1920, pixelHeight: 1440, creationDate: date, creationDateOffset: 7200,
            creationDateSource: source, modificationDate: date, addedDate: date, location: nil, isFavorite: false, isHidden: false,
            originalFilename: name, contentHash: hash, originalFormat: format, originalByteCount: 1000, originalOrientation: 1,
            originalWidth: 1920, originalHeight: 1440, cameraMake: "Apple", cameraModel: "iPhone 13", currentAdjustmentID: nil,
            revision: 1, duration: type == .video ? 2 : 0, contentIdentifier: identifier, rowID: 0)
        let resource = AssetResource(
            assetLocalIdentifier: id, type: type == .image ? .photo : .video, originalFilename: name, contentHash: hash, format: format,
            byteCount: 1000, pixelWidth: 1920, pixelHeight: 1440, duration: asset.duration)
        return NewAsset(asset: asset, resources: [resource])
    }

    func commit(_ part: NewAsset) throws -> CommitResult {
        try store.commit([.createAsset(part)], files: .exists { _ in true })
    }

    @Test("a still and then its movie, by content identifier, whatever their names: one Live Photo, one change")
    func stillFirst() throws {
        let still = Self.part(.image, name: "Paris_sunset.HEIC", identifier: "5D8C2A1B-9F3E-4D7C-8B46-1A2B3C4D5E44")
        _ = try commit(still)
        let before = try store.currentGeneration()
        let movie = Self.part(.video, name: "IMG_0004.MOV", identifier: "5D8C2A1B-9F3E-4D7C-8B46-1A2B3C4D5E44")
        let result = try commit(movie)
        #expect(result.pairedAssets == [movie.asset.id: still.asset.id])
        #expect(try store.allAssetIDs() == [still.asset.id])
        let asset = try #require(try store.assets(ids: [still.asset.id]).first)
        #expect(asset.isLivePhoto && asset.mediaType == .image && asset.duration == 0)
        #expect(asset.originalVersion == "original", "the still stays the original")
        #expect(try store.resources(assetIDs: [asset.id]).map(\.type) == [.photo, .pairedVideo])
        let log = try #require(try store.changeLog(after: before, limit: 10))
        #expect(log.count == 1 && log[0].id == still.asset.id && log[0].operation == .update)
    }

    @Test("a movie and then its still: the movie's asset becomes the Live Photo, showing the still under a new version")
    func movieFirst() throws {
        let movie = Self.part(.video, name: "IMG_0001.MOV", identifier: "2F1A6E0C-5B7D-4C8E-9A31-0D2E4F6A8B11")
        _ = try commit(movie)
        let still = Self.part(.image, name: "IMG_0001.HEIC", identifier: "2F1A6E0C-5B7D-4C8E-9A31-0D2E4F6A8B11")
        let result = try commit(still)
        #expect(result.pairedAssets == [still.asset.id: movie.asset.id])
        let asset = try #require(try store.assets(ids: [movie.asset.id]).first)
        #expect(asset.isLivePhoto && asset.mediaType == .image && asset.duration == 0)
        #expect(asset.contentHash == still.asset.contentHash && asset.originalFormat == .heic)
        #expect(asset.originalVersion != "original", "renditions of the movie's poster are not the still's")
        #expect(try store.resources(assetIDs: [asset.id]).map(\.type) == [.photo, .pairedVideo])
        #expect(try store.asset(contentHash: movie.asset.contentHash)?.id == asset.id, "the movie is found as part of it")
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test("without identifiers, parts pair only with the same base name and capture times within a second")
    func byNameAndTime() throws {
        let still = Self.part(.image, name: "IMG_0100.JPG")
        _ = try commit(still)
        // Same name, an hour later: not a pair.
        let later = Self.part(.video, name: "IMG_0100.MOV", date: Self.date.addingTimeInterval(3600))
        #expect(try commit(later).pairedAssets.isEmpty)
        // Same time, another name: not a pair.
        #expect(try commit(Self.part(.video, name: "IMG_0101.MOV")).pairedAssets.isEmpty)
        // Same name, same time to the second, the date only from the file: not a pair either.
        let copied = Self.part(.image, name: "IMG_0200.JPG", source: .file)
        _ = try commit(copied)
        #expect(try commit(Self.part(.video, name: "IMG_0200.MOV", source: .file)).pairedAssets.isEmpty)
        // Same name (another case), capture time half a second off: a pair.
        let movie = Self.part(.video, name: "img_0100.mov", date: Self.date.addingTimeInterval(0.5))
        #expect(try commit(movie).pairedAssets == [movie.asset.id: still.asset.id])
    }

    @Test("different identifiers never pair, whatever the names; an orphan part is an ordinary asset; a Live Photo takes no second movie")
    func falsePairsAndOrphans() throws {
        let still = Self.part(.image, name: "IMG_0005.HEIC", identifier: "C1D2E3F4-0A1B-4C2D-8E3F-6A7B8C9D0E55")
        _ = try commit(still)
        let movie = Self.part(.video, name: "IMG_0005.MOV", identifier: "E6F7A8B9-2C3D-4E5F-9A6B-7C8D9E0F1A56")
        #expect(try commit(movie).pairedAssets.isEmpty)
        let orphan = Self.part(.video, name: "IMG_0007.MOV", identifier: "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C77")
        #expect(try commit(orphan).pairedAssets.isEmpty)
        #expect(try store.assets(ids: [orphan.asset.id]).first?.mediaType == .video)

        let live = Self.part(.image, name: "A.HEIC", identifier: "11111111-2222-4333-8444-555555555555")
        _ = try commit(live)
        _ = try commit(Self.part(.video, name: "A.MOV", identifier: "11111111-2222-4333-8444-555555555555"))
        let second = Self.part(.video, name: "A2.MOV", identifier: "11111111-2222-4333-8444-555555555555")
        #expect(try commit(second).pairedAssets.isEmpty, "a Live Photo already has its movie")
        #expect(try store.allAssetIDs().count == 5)
    }

    @Test("deleting a Live Photo releases both its files; the same movie again is a duplicate of it")
    func deleteAndDuplicates() throws {
        let still = Self.part(.image, name: "B.HEIC", identifier: "AAAAAAAA-2222-4333-8444-555555555555")
        let movie = Self.part(.video, name: "B.MOV", identifier: "AAAAAAAA-2222-4333-8444-555555555555")
        _ = try commit(still)
        _ = try commit(movie)
        var again = Self.part(.video, name: "copy.MOV", identifier: "AAAAAAAA-2222-4333-8444-555555555555")
        again.resources[0].contentHash = movie.resources[0].contentHash
        again.asset.contentHash = movie.resources[0].contentHash
        #expect(throws: LibraryError.self) { try commit(again) }
        let result = try store.commit([.deleteAssets([still.asset.id])], files: .exists { _ in true })
        #expect(Set(result.releasedFiles.map(\.hash)) == [still.asset.contentHash, movie.asset.contentHash])
        #expect(try store.resources(assetIDs: [still.asset.id]).isEmpty)
    }
}
