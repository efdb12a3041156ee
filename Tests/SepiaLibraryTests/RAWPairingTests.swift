import Foundation
import SepiaCodecs
import Testing

@testable import SepiaLibrary

/// A camera's RAW file and its JPEG of the same shot become one asset, whichever comes first: same base name,
/// capture times that agree to the second on the camera's clock. The asset shows the JPEG and keeps the RAW as
/// its alternate photo, as Photos does.
@Suite struct RAWPairingTests {
    let library: PhotoLibrary
    let store: any LibraryStore

    init() throws {
        library = try TestLibrary.open()
        store = library.store
    }

    static let date = Date(timeIntervalSince1970: 1_690_877_730)

    /// A RAW or JPEG file as the importer prepares it; `offset` is the capture time's UTC offset, when recorded.
    static func photo(_ name: String, raw: Bool, date: Date = date, offset: Int? = nil, source: CreationDateSource = .capture) -> NewAsset {
        let id = UUID().uuidString.lowercased()
        let hash = ContentHash.of(Array((name + id).utf8))
        let format: ImageFormat = raw ? .cameraRAW : .jpeg
        let size = raw ? (6016, 4016) : (6000, 4000)
        let asset = Asset(
            id: id, mediaType: .image, pixelWidth: size.0, pixelHeight: size.1, creationDate: date, creationDateOffset: offset,
            creationDateSource: source, modificationDate: date, addedDate: date, location: nil, isFavorite: false, isHidden: false,
            originalFilename: name, contentHash: hash, originalFormat: format, originalByteCount: raw ? 25_000_000 : 8_000_000,
            originalOrientation: 1, originalWidth: size.0, originalHeight: size.1, cameraMake: "NIKON CORPORATION", cameraModel: "NIKON Z 6",
            currentAdjustmentID: nil, revision: 1, duration: 0, contentIdentifier: nil, rowID: 0)
        let resource = AssetResource(
            assetLocalIdentifier: id, type: .photo, originalFilename: name, contentHash: hash, format: format, byteCount: asset.originalByteCount,
            pixelWidth: size.0, pixelHeight: size.1)
        return NewAsset(asset: asset, resources: [resource])
    }

    func commit(_ part: NewAsset) throws -> CommitResult {
        try store.commit([.createAsset(part)], files: .exists { _ in true })
    }

    @Test("the JPEG and then its RAW: the RAW joins as the alternate photo, one change")
    func jpegFirst() throws {
        let jpeg = Self.photo("DSC_0042.JPG", raw: false, offset: 7200)
        _ = try commit(jpeg)
        let before = try store.currentGeneration()
        // The RAW file records no offset: its clock reads 2 h later than the JPEG's UTC instant.
        let raw = Self.photo("DSC_0042.NEF", raw: true, date: Self.date.addingTimeInterval(7200))
        let result = try commit(raw)
        #expect(result.pairedAssets == [raw.asset.id: jpeg.asset.id])
        #expect(try store.allAssetIDs() == [jpeg.asset.id])
        let asset = try #require(try store.assets(ids: [jpeg.asset.id]).first)
        #expect(asset.mediaSubtypes.contains(.photoRAWPair))
        #expect(asset.originalFormat == .jpeg && asset.originalVersion == "original")
        #expect(try store.resources(assetIDs: [asset.id]).map(\.type) == [.photo, .alternatePhoto])
        let log = try #require(try store.changeLog(after: before, limit: 10))
        #expect(log.count == 1 && log[0].id == jpeg.asset.id && log[0].operation == .update)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test("the RAW and then its JPEG: the asset shows the JPEG under a new version and keeps the RAW")
    func rawFirst() throws {
        let raw = Self.photo("IMG_7781.CR2", raw: true)
        _ = try commit(raw)
        let jpeg = Self.photo("img_7781.jpg", raw: false)
        let result = try commit(jpeg)
        #expect(result.pairedAssets == [jpeg.asset.id: raw.asset.id])
        #expect(result.reversionedAssetIDs == [raw.asset.id])
        let asset = try #require(try store.assets(ids: [raw.asset.id]).first)
        #expect(asset.mediaSubtypes.contains(.photoRAWPair))
        #expect(asset.originalFormat == .jpeg && asset.contentHash == jpeg.asset.contentHash)
        #expect(asset.pixelWidth == 6000 && asset.originalFilename == "img_7781.jpg")
        #expect(asset.originalVersion != "original", "renditions of the RAW are not taken for the JPEG's")
        let resources = try store.resources(assetIDs: [asset.id])
        #expect(Set(resources.map(\.type)) == [.photo, .alternatePhoto])
        #expect(resources.first { $0.type == .alternatePhoto }?.format == .cameraRAW)
        #expect(try store.asset(contentHash: raw.asset.contentHash)?.id == asset.id, "the RAW is found as part of it")
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test("no pair: another name, another second, two JPEGs, two RAWs, a file date, a third file")
    func notPairs() throws {
        _ = try commit(Self.photo("DSC_0001.JPG", raw: false))
        #expect(try commit(Self.photo("DSC_0002.NEF", raw: true)).pairedAssets.isEmpty, "another name")
        #expect(try commit(Self.photo("DSC_0001.NEF", raw: true, date: Self.date.addingTimeInterval(3))).pairedAssets.isEmpty, "3 s apart")
        #expect(try commit(Self.photo("DSC_0003.JPG", raw: false)).pairedAssets.isEmpty)
        #expect(try commit(Self.photo("DSC_0003.JPEG", raw: false)).pairedAssets.isEmpty, "two JPEGs")
        #expect(try commit(Self.photo("DSC_0004.NEF", raw: true, source: .file)).pairedAssets.isEmpty)
        #expect(try commit(Self.photo("DSC_0004.JPG", raw: false, source: .file)).pairedAssets.isEmpty, "file dates never pair")
        let raw = Self.photo("DSC_0005.NEF", raw: true)
        _ = try commit(raw)
        #expect(try commit(Self.photo("DSC_0005.JPG", raw: false)).pairedAssets.count == 1)
        #expect(try commit(Self.photo("DSC_0005.TIF", raw: false)).pairedAssets.isEmpty, "an asset pairs once")
    }

    @Test("use RAW as original, and the JPEG again: the files trade places, each under a new version")
    func useRAW() async throws {
        let jpeg = Self.photo("DSC_0050.JPG", raw: false)
        let raw = Self.photo("DSC_0050.NEF", raw: true)
        _ = try commit(jpeg)
        _ = try commit(raw)
        try await library.performChanges { $0.useRAW(true, for: jpeg.asset.id) }
        var asset = try library.asset(jpeg.asset.id)
        #expect(asset.originalFormat == .cameraRAW && asset.contentHash == raw.asset.contentHash && asset.pixelWidth == 6016)
        #expect(asset.originalFilename == "DSC_0050.NEF" && asset.originalVersion != "original")
        let rawVersion = asset.originalVersion
        #expect(try store.resources(assetIDs: [asset.id]).first { $0.type == .photo }?.format == .cameraRAW)
        #expect(try store.resources(assetIDs: [asset.id]).first { $0.type == .alternatePhoto }?.format == .jpeg)
        let generation = try store.currentGeneration()
        try await library.performChanges { $0.useRAW(true, for: jpeg.asset.id) }
        #expect(try store.currentGeneration() == generation, "already showing the RAW: nothing changes")
        try await library.performChanges { $0.useRAW(false, for: jpeg.asset.id) }
        asset = try library.asset(jpeg.asset.id)
        #expect(asset.originalFormat == .jpeg && asset.contentHash == jpeg.asset.contentHash && asset.originalVersion != rawVersion)
        #expect(try store.integrityProblems().isEmpty)
        let single = Self.photo("DSC_0051.JPG", raw: false)
        _ = try commit(single)
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.useRAW(true, for: single.asset.id) } }
    }

    /// The real files: a DNG and its JPEG from scripts/testdata-raw, through the importer.
    @Test("importing a camera folder with a RAW+JPEG pair makes one asset showing the JPEG")
    func importedPair() async throws {
        let pair = RAWFixtures.folder("pair")
        let summary = try await AssetImporter(library: library, concurrency: 2, batchSize: 1).importFiles([pair])
        #expect(summary.imported == 1 && summary.paired == 1, "\(summary)")
        let assets = try library.fetchAssets()
        #expect(assets.count == 1)
        let asset = try #require(try assets.firstObject())
        #expect(asset.mediaSubtypes.contains(.photoRAWPair))
        #expect(asset.originalFormat == .jpeg)
        #expect(try library.resources(for: asset).map(\.format).sorted { $0.rawValue < $1.rawValue } == [.jpeg, .cameraRAW])
        #expect(try await library.check().isSound)
    }
}

/// The RAW and TIFF files scripts/testdata-raw makes in `.build/testdata/raw-tiff`.
enum RAWFixtures {
    static func folder(_ name: String) -> String {
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = repository.appendingPathComponent(".build/testdata/raw-tiff/" + name).path
        guard FileManager.default.fileExists(atPath: path) else { fatalError("\(path) is missing: run scripts/testdata-raw") }
        return path
    }
}
