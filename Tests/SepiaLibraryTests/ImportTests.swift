import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaLibrary

@Suite struct ImportTests {
    @Test("an imported photo keeps its metadata: upright size, capture date and offset, place, camera, hash")
    func metadata() async throws {
        let library = try TestLibrary.open()
        let outcome = try await library.performChanges { changes in
            changes.createAsset(fromFile: TestLibrary.fixture("photos/iptc-orientation-3.jpg"))
            changes.createAsset(fromFile: TestLibrary.fixture("photos/iptc-date-offset.jpg"))
            changes.createAsset(fromFile: TestLibrary.fixture("photos/flower-orientation-6.jpg"))
        }
        let assets = try library.assets(outcome.createdAssetIDs)
        #expect(assets.count == 3)

        // Given a phone photo stored upside down (EXIF orientation 3) with a local time
        let iphone = assets[0]
        let file = try ImageDecoding.open(path: TestLibrary.fixture("photos/iptc-orientation-3.jpg"))
        #expect(iphone.pixelWidth == file.displaySize.width && iphone.pixelHeight == file.displaySize.height)
        #expect(iphone.originalOrientation == 3)
        #expect(iphone.creationDateSource == .capture)
        #expect(iphone.creationDateOffset == nil)
        #expect(iphone.creationDate == ISO8601DateFormatter().date(from: "2006-07-08T21:14:45Z"))
        #expect(iphone.cameraMake == "Nokia" && iphone.cameraModel == "N70-1")
        #expect(iphone.location == nil)
        #expect(iphone.originalFilename == "iptc-orientation-3.jpg")
        #expect(iphone.contentHash == (try ContentHash.ofFile(TestLibrary.fixture("photos/iptc-orientation-3.jpg"))))
        #expect(iphone.mediaType == .image && iphone.revision == 1 && !iphone.isFavorite && !iphone.isHidden)

        // An XMP date with its offset: 15:15:44 at UTC−4 is 19:15:44 UTC, shown in January 2022.
        let springs = assets[1]
        #expect(springs.creationDateOffset == -14_400)
        #expect(
            abs(
                springs.creationDate.timeIntervalSince1970 - (ISO8601DateFormatter().date(from: "2022-01-10T19:15:44Z")!.timeIntervalSince1970 + 0.31)
            ) < 0.01)
        #expect(springs.localCreationDate.hour == 15)
        #expect(abs((springs.location?.latitude ?? 0) - 39.115) < 1e-4)

        // Orientation 6: the stored landscape displays as portrait.
        let canon = assets[2]
        #expect(canon.pixelWidth < canon.pixelHeight)

        // The original is stored byte for byte under its hash; thumbnail and preview exist.
        let stored = try await library.originalPath(of: iphone)
        #expect(stored.hasSuffix("originals/\(iphone.contentHash.prefix(2))/\(iphone.contentHash).jpg"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: stored))
                == (try Data(contentsOf: URL(fileURLWithPath: TestLibrary.fixture("photos/iptc-orientation-3.jpg")))))
        let cached = library.imageStore.diskKeys(assetID: iphone.id, version: "original").map(\.size.width).sorted()
        #expect(cached == [256, 1440])
    }

    @Test("a zero date (0000:00:00 00:00:00) is missing: the file's date is used")
    func zeroDate() async throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: TestLibrary.fixture("photos/iptc-orientation-3.jpg")))
        let real = Data("2006:07:08 21:14:45".utf8)
        let zero = Data("0000:00:00 00:00:00".utf8)
        var replaced = 0
        while let range = bytes.range(of: real) {
            bytes.replaceSubrange(range, with: zero)
            replaced += 1
        }
        #expect(replaced >= 2)
        let folder = TestLibrary.temporaryFolder("zero-date")
        let path = folder + "/zero.jpg"
        try bytes.write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)

        let library = try TestLibrary.open()
        let prepared = try await library.prepareAsset(fileAt: path)
        #expect(prepared.asset.creationDateSource == .file)
        #expect(prepared.asset.creationDate == Date(timeIntervalSince1970: 1_500_000_000))
    }

    @Test("the same content twice is a duplicate naming the asset that has it")
    func duplicates() async throws {
        let library = try TestLibrary.open()
        let first = try await library.performChanges { $0.createAsset(fromFile: TestLibrary.fixture("photos/gps-datetime.jpg")) }
        let copy = TestLibrary.temporaryFolder("copy") + "/renamed.jpg"
        try FileManager.default.copyItem(atPath: TestLibrary.fixture("photos/gps-datetime.jpg"), toPath: copy)
        do {
            _ = try await library.prepareAsset(fileAt: copy)
            Issue.record("a duplicate was accepted")
        } catch {
            #expect(error.code == .duplicate)
            #expect(error.relatedID == first.createdAssetIDs.first)
            #expect(error.description.contains("renamed.jpg"))
        }
        #expect(try library.fetchAssets().count == 1)
    }

    @Test(
        "damaged and unsupported files are refused with the reason, and leave nothing behind",
        arguments: [
            "malformed/truncated_jpeg.jpg", "malformed/hopper.gif", "malformed/lottapixel.jpg", "malformed/text-file-named.jpg",
            "malformed/truncated_image.png", "malformed/empty.jpg",
        ])
    func refused(_ file: String) async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { $0.createAsset(fromFile: TestLibrary.fixture(file)) }
        }
        do {
            try await library.performChanges { $0.createAsset(fromFile: TestLibrary.fixture(file)) }
        } catch {
            #expect(error.code == .unreadableImage)
            #expect(error.description.contains((file as NSString).lastPathComponent))
        }
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty)
        #expect(TestLibrary.files(under: folder + "/cache").isEmpty)
        #expect(try await library.check().isSound)
    }

    @Test("the importer walks folders, commits in batches, reports every file, and a re-run reads nothing again")
    func importer() async throws {
        let source = TestLibrary.temporaryFolder("source")
        try FileManager.default.createDirectory(atPath: source + "/nested/.hidden", withIntermediateDirectories: true)
        for i in 0..<7 { try TestLibrary.uniqueJPEG(i).write(to: URL(fileURLWithPath: source + "/p\(i).jpg")) }
        try TestLibrary.uniqueJPEG(3).write(to: URL(fileURLWithPath: source + "/nested/copy-of-p3.jpg"))
        try TestLibrary.uniqueJPEG(99).write(to: URL(fileURLWithPath: source + "/nested/.hidden/secret.jpg"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: source + "/nested/readme.txt"))
        try FileManager.default.copyItem(atPath: TestLibrary.fixture("malformed/truncated_jpeg.jpg"), toPath: source + "/nested/broken.jpg")

        let library = try TestLibrary.open()
        let importer = AssetImporter(library: library, albumTitle: "Trip", concurrency: 2, batchSize: 3)
        let summary = try await importer.importFiles([source, source + "/missing.jpg"])
        #expect(summary.imported == 7)
        #expect(summary.duplicates == 1)
        #expect(summary.skipped == 2)
        #expect(summary.failed == 1)
        #expect(try library.fetchAssets().count == 7)
        let album = try library.album("Trip")
        #expect(album.assetCount == 7)

        let again = try await importer.importFiles([source])
        #expect(again.alreadyImported == 8, "unchanged files (and the known duplicate) are not read again")
        #expect(again.imported == 0 && again.skipped == 2)
        #expect(try library.fetchAssets().count == 7)
        #expect(try await library.check().isSound)
    }
}
