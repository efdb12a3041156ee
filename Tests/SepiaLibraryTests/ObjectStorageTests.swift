import Foundation
import SepiaCodecs
import SepiaImage
import SepiaObjectStore
import Testing

@testable import SepiaLibrary

/// A library whose originals and renders are in a real S3 API (OpenStack Swift's `s3api`, started by
/// `scripts/object-store`; `scripts/test` runs this suite that way): the durability rules, local copies,
/// the sweeper racing a commit, and a store that refuses writes.
@Suite(.enabled(if: ObjectStore.endpoint != nil, "needs a store: scripts/object-store run DIR -- swift test --filter ObjectStorageTests"))
struct ObjectStorageTests {
    let folder = TestLibrary.temporaryFolder("s3")
    let client: S3Client

    init() async throws {
        client = try await ObjectStore.client(prefix: "library-\(UUID().uuidString)/")
    }

    func open(_ client: S3Client? = nil, clock: TestClock? = nil) throws -> PhotoLibrary {
        var configuration = LibraryConfiguration(
            changePollInterval: .milliseconds(50), renderContext: RenderContext(options: RenderOptions(threadCount: 2)),
            watchesMemoryPressure: false, storage: .objectStorage(client ?? self.client), database: TestLibrary.database(for: folder))
        if let clock { configuration.clock = { clock.now } }
        return try PhotoLibrary.open(at: folder, configuration: configuration)
    }

    /// The keys of the originals and renders in the bucket (renditions, derived data, are counted apart).
    func objectKeys() async throws -> [String] {
        var keys: [String] = []
        for try await object in client.listAll() where !object.key.hasPrefix("renditions/") { keys.append(object.key) }
        return keys.sorted()
    }

    /// The keys of the renditions of `assetID` in the bucket.
    func renditionKeys(_ assetID: String) async throws -> [String] {
        var keys: [String] = []
        for try await object in client.listAll(prefix: "renditions/\(assetID)/") { keys.append(object.key) }
        return keys.sorted()
    }

    @Test func renditionsAreSharedThroughTheBucket() async throws {
        let library = try open()
        defer { library.close() }
        let id = try #require(try await TestLibrary.addPhotos(1, to: library).first)
        let thumbnail = RenditionKey(assetID: id, version: "original", size: RenditionRenderer.thumbnail, mode: .aspectFit)
        let preview = RenditionKey(assetID: id, version: "original", size: RenditionRenderer.preview, mode: .aspectFit)
        #expect(try await renditionKeys(id) == [preview, thumbnail].map { "renditions/\(id)/\($0.fileName)" })

        // Another machine (a folder of its own on the same bucket) has neither on disk, and downloads each
        // rather than rendering it.
        let otherFolder = TestLibrary.temporaryFolder("s3-other")
        let other = try PhotoLibrary.open(
            at: otherFolder,
            configuration: LibraryConfiguration(
                renderContext: RenderContext(options: RenderOptions(threadCount: 1)), watchesMemoryPressure: false,
                storage: .objectStorage(client), database: TestLibrary.database(for: otherFolder)))
        defer { other.close() }
        #expect(other.imageStore.rendition(for: thumbnail) == nil)
        let downloaded = try #require(await other.imageStore.anyRendition(for: thumbnail))
        #expect(downloaded.data == library.imageStore.rendition(for: thumbnail)?.data)
        #expect(other.imageStore.diskKeys(assetID: id, version: "original") == [thumbnail], "kept in the other machine's disk cache")

        // Deleting the asset for good removes its renditions from the bucket too.
        try await library.performChanges { $0.deleteAssetsPermanently([id]) }
        let deadline = Date() + 60
        while try await !renditionKeys(id).isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await renditionKeys(id).isEmpty)
    }

    @Test("a photo in Recently Deleted keeps its objects; purged, its original, render and renditions leave the bucket")
    func purgedAssetsLeaveTheBucket() async throws {
        let clock = TestClock()
        let library = try open(clock: clock)
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(2, to: library)
        let edited = try await library.edit(try library.asset(ids[0]), recipe: EditRecipe(filters: [SepiaTone(intensity: 0.6)]))
        let adjustment = try #require(try library.currentAdjustment(of: edited))
        let render = try #require(adjustment.renderedContentHash)
        let objects = try await objectKeys()
        #expect(objects.count == 3 && objects.contains("renders/\(render.prefix(2))/\(render).jpg"))
        #expect(try await !renditionKeys(ids[0]).isEmpty)

        // Deleted: everything stays, even for a sweep with no grace period
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        try await Task.sleep(for: .milliseconds(1500))  // the store dates objects to the second
        #expect(try await library.sweepStorage(olderThan: .zero).removed.isEmpty)
        #expect(try await objectKeys() == objects)
        #expect(try await !renditionKeys(ids[0]).isEmpty, "Recently Deleted shows its thumbnails")

        // Purged 31 days on: the rows go at once, the objects with the next sweep, the renditions with the purge
        clock.advance(days: 31)
        #expect(try library.purgeRecentlyDeleted() == [ids[0]])
        let sweep = try await library.sweepStorage(olderThan: .zero)
        let original = try library.asset(ids[1]).contentHash
        #expect(Set(sweep.removed) == Set(objects.filter { !$0.contains(original) }))
        #expect(try await objectKeys() == ["originals/\(original.prefix(2))/\(original).jpg"])
        let deadline = Date() + 60
        while try await !renditionKeys(ids[0]).isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await renditionKeys(ids[0]).isEmpty)
        #expect(try await library.check().isSound)
    }

    @Test func filesLiveInTheBucketAndTheLibraryStaysSound() async throws {
        let library = try open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(3, to: library)
        let assets = try ids.map { try library.asset($0) }
        #expect(try await objectKeys() == assets.map { "originals/\($0.contentHash.prefix(2))/\($0.contentHash).jpg" }.sorted())
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty, "nothing is kept in the folder's originals/")

        // An edit's render goes to the bucket too; reverting keeps it (the history names it).
        let edited = try await library.edit(assets[0], recipe: EditRecipe(steps: [.init(filter: "CISepiaTone", parameters: [:])]))
        let renderHash = try #require(try library.currentAdjustment(of: edited)?.renderedContentHash)
        #expect(try await objectKeys().contains("renders/\(renderHash.prefix(2))/\(renderHash).jpg"))
        #expect(ContentHash.of(try [UInt8](Data(contentsOf: URL(fileURLWithPath: try await library.currentPath(of: edited))))) == renderHash)

        let report = try await library.check()
        #expect(report.isSound, "\(report.problems)")
        #expect(report.files == 4)
        #expect(report.bytesVerified > 0)

        // Deleting an asset for good leaves its object to the sweeper, which removes it once it is older than the
        // grace period, and nothing else.
        try await library.performChanges { $0.deleteAssetsPermanently([ids[2]]) }
        #expect(try await objectKeys().count == 4)
        #expect(try await library.sweepStorage(olderThan: .seconds(3600)).removed.isEmpty, "too young to sweep")
        try await Task.sleep(for: .milliseconds(1500))  // the store dates objects to the second
        let sweep = try await library.sweepStorage(olderThan: .zero)
        #expect(sweep.removed == ["originals/\(assets[2].contentHash.prefix(2))/\(assets[2].contentHash).jpg"])
        #expect(try await objectKeys().count == 3)
        #expect(try await library.check().isSound)
    }

    @Test func localCopiesAreFetchedAndChecked() async throws {
        let library = try open()
        defer { library.close() }
        let id = try #require(try await TestLibrary.addPhotos(1, to: library).first)
        let asset = try library.asset(id)
        let original = TestLibrary.uniqueJPEG(0)

        // A machine without the copy downloads it.
        try FileManager.default.removeItem(atPath: folder + "/objects")
        let path = try await library.originalPath(of: asset)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        // A damaged object is refused, never served or cached.
        try FileManager.default.removeItem(atPath: folder + "/objects")
        var damaged = original
        damaged[damaged.count / 2] ^= 0xFF
        try await client.put(damaged, key: StoredFile(kind: .original, hash: asset.contentHash, format: .jpeg).key)
        let error = await #expect(throws: LibraryError.self) { try await library.originalPath(of: asset) }
        #expect(error?.reason.contains("does not match its SHA-256") == true)
        #expect(TestLibrary.files(under: folder + "/objects").isEmpty)
        let report = try await library.check()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.contains("damaged") == true)
    }

    @Test func aCommitAfterASweepRemovedItsFileStoresItAgain() async throws {
        let library = try open()
        defer { library.close() }
        // The original is stored, then a sweep (from another server, with no grace) removes it before the
        // row naming it commits.
        let prepared = try await library.prepareAsset(data: TestLibrary.uniqueJPEG(7), filename: "raced.jpg")
        let key = "originals/\(prepared.asset.contentHash.prefix(2))/\(prepared.asset.contentHash).jpg"
        #expect(try await objectKeys() == [key])
        try await Task.sleep(for: .milliseconds(1500))  // the store dates objects to the second
        #expect(try await library.sweepStorage(olderThan: .zero).removed == [key])
        #expect(try await objectKeys().isEmpty)

        try await library.performChanges { $0.createAsset(from: prepared) }
        #expect(try await objectKeys() == [key], "the commit stored the original again")
        #expect(try await library.check().isSound)
    }

    @Test func aStoreThatRefusesWritesFailsTheImportCleanly() async throws {
        let refusing = S3Client(
            location: client.location, credentials: S3Credentials(accessKeyID: ObjectStore.credentials.accessKeyID, secretAccessKey: "wrong"))
        let library = try open(refusing)
        defer { library.close() }
        let error = await #expect(throws: LibraryError.self) {
            try await library.prepareAsset(data: TestLibrary.uniqueJPEG(1), filename: "refused.jpg")
        }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.description.contains("check the access key and the secret") == true)
        #expect(try library.fetchAssets().count == 0)
        #expect(try await objectKeys().isEmpty)
        #expect(TestLibrary.files(under: folder + "/cache").isEmpty, "no renditions of the refused photo are left")
        #expect(TestLibrary.files(under: folder + "/tmp").isEmpty)
    }
}

@Suite("Advice about --storage")
struct StorageAdviceTests {
    @Test("the location in advice is the one a person types: without the path Sepia adds, without a trailing slash")
    func givenLocation() {
        #expect(PhotoLibrary.givenLocation("s3://sepia/libraries/owner/", added: "libraries/owner/") == "s3://sepia")
        #expect(PhotoLibrary.givenLocation("s3://sepia/photos/libraries/owner/", added: "libraries/owner/") == "s3://sepia/photos")
        #expect(PhotoLibrary.givenLocation("s3://sepia/photos/", added: "") == "s3://sepia/photos")
        #expect(PhotoLibrary.givenLocation("s3://sepia/other/", added: "libraries/owner/") == "s3://sepia/other")
    }
}

/// The store `scripts/object-store` started, from its variables.
enum ObjectStore {
    static let environment = ProcessInfo.processInfo.environment
    static let endpoint = environment["SEPIA_S3_ENDPOINT"]
    static let credentials = S3Credentials(
        accessKeyID: environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "", secretAccessKey: environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? "")

    /// A client of the test bucket (created when missing) with keys under `prefix`.
    static func client(prefix: String) async throws -> S3Client {
        let region = environment["SEPIA_S3_REGION"] ?? "us-east-1"
        let location = try S3Location(parsing: "s3://sepia-tests/\(prefix)?endpoint=\(endpoint ?? "")&region=\(region)")
        let client = S3Client(location: location, credentials: credentials)
        if try await !client.bucketExists() { try await client.createBucket() }
        return client
    }
}
