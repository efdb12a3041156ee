import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Synchronization
import Testing

@testable import SepiaLibrary

/// Videos join the library as assets of their own (media type video, duration, displayed size, the capture
/// date, place and camera of their QuickTime metadata, a thumbnail from the poster frame), and a Live Photo's
/// still and movie join as one asset, through `sepia import`'s importer: clips made by ffmpeg at test time.
@Suite struct VideoImportTests {
    static let identifier = "8A4E21C9-3B7F-4D25-9C61-2E5F0A7B3D19"

    @Test("an encode asked for in the background runs at a nice value of 10 on its thread; an interactive one at the process's own")
    func backgroundEncodeIsNiced() async throws {
        @Sendable func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        let own = niceness()
        let seen = Mutex<[Int32]>([])
        try await PhotoLibrary.onOwnThread { () throws(CodecError) in seen.withLock { $0.append(niceness()) } }
        try await RenderPriority.$current.withValue(.background) {
            try await PhotoLibrary.onOwnThread { () throws(CodecError) in seen.withLock { $0.append(niceness()) } }
        }
        #expect(seen.withLock { $0 } == [own, max(own, PhotoLibrary.backgroundNiceness)])
        #expect(niceness() == own, "the caller's thread keeps its nice value")
    }

    @Test("a folder of clips, a Live Photo pair and a damaged clip: videos, one Live Photo, a clear refusal, nothing half-stored")
    func cameraRoll() async throws {
        let source = TestLibrary.temporaryFolder("roll")
        let portrait = try TestVideos.clip(
            "IMG_0001.MOV", in: source, portrait: true,
            keys: [
                "com.apple.quicktime.creationdate": "2024-05-01T09:30:00-0700", "com.apple.quicktime.make": "Apple",
                "com.apple.quicktime.model": "iPhone 14", "com.apple.quicktime.location.ISO6709": "+37.3349-122.0090/",
            ])
        try TestVideos.clip(
            "clip.webm", in: source, pattern: 1, codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"])
        // A Live Photo whose parts have unrelated names: the content identifier pairs them.
        try TestVideos.liveStill(identifier: Self.identifier, jpeg: TestLibrary.uniqueJPEG(7, width: 64, height: 48)).write(
            to: URL(fileURLWithPath: source + "/Paris.jpg"))
        try TestVideos.clip("IMG_0002.MOV", in: source, keys: ["com.apple.quicktime.content.identifier": Self.identifier], pattern: 2)
        // A clip cut in half loses its index (ffmpeg writes the moov atom last): refused.
        let whole = try Data(contentsOf: URL(fileURLWithPath: portrait))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: source + "/broken.mp4"))

        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let importer = AssetImporter(library: library, albumTitle: nil, concurrency: 2, batchSize: 10)
        let results = Mutex<[ImportItemResult]>([])
        let summary = try await importer.importFiles([source]) { result, _ in results.withLock { $0.append(result) } }
        #expect(summary.imported + summary.paired == 4, "\(summary)")
        #expect(summary.paired == 1, "the Live Photo's second part joins the first")
        #expect(summary.failed + summary.skipped == 1, "the damaged clip")
        let broken = try #require(results.withLock { $0 }.first { $0.path.hasSuffix("broken.mp4") })
        #expect(broken.status == .skipped, "\(broken)")
        #expect(broken.reason?.contains("incomplete") == true, "\(broken)")

        let videos = try library.fetchAssets(with: .video).allObjects()
        #expect(videos.count == 2)
        let movie = try #require(videos.first { $0.originalFilename == "IMG_0001.MOV" })
        #expect(movie.mediaType == .video)
        #expect(abs(movie.duration - 2) < 0.1)
        #expect(movie.pixelWidth == 240 && movie.pixelHeight == 320, "shown upright: the display matrix turns it")
        #expect(movie.creationDateSource == .capture)
        #expect(movie.creationDate == ISO8601DateFormatter().date(from: "2024-05-01T16:30:00Z"))
        #expect(movie.creationDateOffset == -7 * 3600)
        #expect(movie.cameraModel == "iPhone 14")
        #expect(abs((movie.location?.latitude ?? 0) - 37.3349) < 1e-4 && abs((movie.location?.longitude ?? 0) + 122.009) < 1e-4)
        #expect(try library.resources(for: movie).map(\.type) == [.video])

        // The thumbnail is the poster frame, upright.
        let thumbnail = try await ImageManager(library: library).image(for: movie, targetSize: IntSize(width: 128, height: 128))
        let size = thumbnail.rendition.pixelSize
        #expect(size.width < size.height, "portrait: \(size)")

        let live = try #require(try library.fetchAssets().allObjects().first { $0.isLivePhoto })
        #expect(live.mediaType == .image && live.contentIdentifier == Self.identifier)
        #expect(try library.resources(for: live).map(\.type) == [.photo, .pairedVideo])
        #expect(try library.fetchAssets().count == 3, "two videos and one Live Photo")

        // The damaged clip left nothing: every stored original belongs to an asset's resource.
        let stored = TestLibrary.files(under: folder + "/originals").count
        var resources = 0
        for asset in try library.fetchAssets().allObjects() { resources += try library.resources(for: asset).count }
        #expect(stored == resources)
        let report = try await library.check()
        #expect(report.isSound)

        // The timeline's months and the check count the videos apart from the photos.
        let months = try library.years().flatMap { try library.months(in: $0.year) }
        #expect(months.map(\.videoCount).reduce(0, +) == 2 && months.map(\.assetCount).reduce(0, +) == 3, "\(months)")
        #expect(report.media == MediaCount(photos: 1, videos: 2) && report.media.description == "1 photo, 2 videos")

        // Importing again reads nothing; the same clip under another name is a duplicate.
        try FileManager.default.copyItem(atPath: portrait, toPath: source + "/copy.mov")
        let again = try await importer.importFiles([source])
        #expect(again.imported == 0 && again.duplicates == 1, "\(again)")
    }

    @Test("a Live Photo whose movie arrives first becomes one asset when its still arrives, and deleting it for good deletes both files")
    func movieFirst() async throws {
        let source = TestLibrary.temporaryFolder("live")
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let importer = AssetImporter(library: library, albumTitle: nil, concurrency: 1, batchSize: 10)
        let movie = try TestVideos.clip("IMG_0003.MOV", in: source, keys: ["com.apple.quicktime.content.identifier": Self.identifier], pattern: 3)
        _ = try await importer.importFiles([movie])
        #expect(try library.fetchAssets(with: .video).count == 1)

        let still = source + "/IMG_0003.JPG"
        try TestVideos.liveStill(identifier: Self.identifier, jpeg: TestLibrary.uniqueJPEG(8, width: 64, height: 48)).write(
            to: URL(fileURLWithPath: still))
        let summary = try await importer.importFiles([still])
        #expect(summary.paired == 1, "\(summary)")
        let assets = try library.fetchAssets().allObjects()
        #expect(assets.count == 1)
        let live = try #require(assets.first)
        #expect(live.isLivePhoto && live.mediaType == .image && live.pixelWidth == 64)
        #expect(try library.fetchAssets(with: .video).count == 0)
        #expect(try library.resources(for: live).map(\.type) == [.photo, .pairedVideo])
        // Its thumbnail is now the still's.
        let thumbnail = try await ImageManager(library: library).image(for: live, targetSize: IntSize(width: 64, height: 64))
        #expect(thumbnail.rendition.pixelSize == IntSize(width: 64, height: 48))

        try await library.performChanges { $0.deleteAssetsPermanently([live.id]) }
        #expect(try library.fetchAssets().count == 0)
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty, "both parts are gone")
        #expect(try await library.check().isSound)
    }

    @Test("an HEVC clip gets a playable version stored beside it as fullSizeVideo; an H.264 MP4 needs none; deleting removes both")
    func playableVersion() async throws {
        let source = TestLibrary.temporaryFolder("hevc")
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let hevc = try TestVideos.clip(
            "IMG_0500.MOV", in: source, pattern: 5, codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])
        let h264 = try TestVideos.clip("IMG_0501.MP4", in: source, pattern: 6)
        _ = try await AssetImporter(library: library, concurrency: 1).importFiles([hevc, h264])
        let videos = try library.fetchAssets(with: .video).allObjects()
        let movie = try #require(videos.first { $0.originalFilename == "IMG_0500.MOV" })
        let plain = try #require(videos.first { $0.originalFilename == "IMG_0501.MP4" })
        #expect(try await library.playableResource(of: movie) == nil, "not made yet")
        let progress = Mutex<[Double]>([])
        #expect(
            try await library.preparePlayableVersion(ofAsset: movie.id) { done in
                progress.withLock { $0.append(done) }; return true
            })
        #expect(progress.withLock { $0.last } == 1)
        let playable = try #require(try await library.playableResource(of: movie))
        #expect(playable.type == .fullSizeVideo && playable.format == .mp4 && playable.originalFilename == "IMG_0500.mp4")
        #expect(try library.asset(movie.id).revision == movie.revision + 1, "an update observers see")
        #expect(try await library.preparePlayableVersion(ofAsset: movie.id) == false, "made once")
        #expect(try await library.preparePlayableVersion(ofAsset: plain.id) == false, "H.264 in MP4 plays as it is")
        #expect(try await library.playableResource(of: plain)?.type == .video)
        #expect(try await library.check().isSound)

        try await library.performChanges { $0.deleteAssetsPermanently([movie.id, plain.id]) }
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty)
        #expect(try await library.check().isSound)
    }

    @Test("the sample-table attack is refused by the import with the reason, nothing stored; a cancelled task stops an encode, nothing stored")
    func runawayVideos() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        let attack = try SampleTableVideos.make(.shared, width: 640, height: 360, samples: 20_000)
        let results = Mutex<[ImportItemResult]>([])
        let summary = try await AssetImporter(library: library, concurrency: 1).importFiles([attack]) { result, _ in
            results.withLock { $0.append(result) }
        }
        #expect(summary.imported == 0 && summary.failed + summary.skipped == 1, "\(summary)")
        let refused = try #require(results.withLock { $0.first })
        #expect(refused.reason?.contains("19 998 of the video's 20 000 samples at bytes another sample uses") == true, "\(refused)")
        #expect(TestLibrary.files(under: folder + "/originals").isEmpty)

        // A long, plausible clip: its encode is under way when the task is cancelled, and stops.
        let long = try SampleTableVideos.make(.repeated, width: 640, height: 360, samples: 3000, rate: "30", pixelFormat: "yuv420p")
        _ = try await AssetImporter(library: library, concurrency: 1).importFiles([long])
        let video = try #require(try library.fetchAssets(with: .video).allObjects().first)
        let reports = Mutex<[Double]>([])
        // Cancelled from its own progress report at 2 %, not by a task polling it: on a loaded machine a poller
        // may not run before the encode is done.
        let encodeTask = Mutex<Task<Bool, any Error>?>(nil)
        let encode = Task {
            try await library.preparePlayableVersion(ofAsset: video.id) { done in
                reports.withLock { $0.append(done) }
                if done >= 0.02 { encodeTask.withLock { $0?.cancel() } }
                return true
            }
        }
        encodeTask.withLock { $0 = encode }
        // A report before the task was stored above.
        if reports.withLock({ $0.last ?? 0 }) >= 0.02 { encode.cancel() }
        let outcome = await encode.result
        #expect(throws: LibraryError.self) { try outcome.get() }
        #expect(reports.withLock { $0.last ?? 1 } < 0.5, "\(reports.withLock { $0.last ?? 1 })")
        #expect(try await library.playableResource(of: video) == nil)
        #expect(!TestLibrary.files(under: folder + "/tmp").contains { $0.contains(".mp4") })
        #expect(try await library.check().isSound)
    }
}
