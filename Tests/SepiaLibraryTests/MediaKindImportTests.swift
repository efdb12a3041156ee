import Foundation
import GRDB
import SepiaCodecs
import SepiaTestSupport
import Testing

@testable import SepiaLibrary

/// What the media-kind seam holds an import and a playback to: a file is sniffed once and a video's headers are
/// read once, at import, where its opener judges whether browsers need a playable version; the library keeps the
/// answer with the resource, and a playback request or the job queue asks the row, never the file. A library
/// written before the answer was kept reads a movie's headers once, when first asked, and keeps it.
@Suite struct MediaKindImportTests {
    /// Runs `body` counting the sniffs and the reads of a video's headers it makes.
    static func counting<T>(_ body: () async throws -> T) async rethrows -> (T, MediaReadCounter) {
        let counter = MediaReadCounter()
        let result = try await MediaReadCounter.$current.withValue(counter) { try await body() }
        return (result, counter)
    }

    @Test("sepia import sniffs each file once and reads a video's headers once; the kind of each asset follows")
    func importSniffsOnce() async throws {
        let source = TestLibrary.temporaryFolder("kinds")
        let jpeg = source + "/photo.jpg"
        try TestLibrary.uniqueJPEG(1, width: 64, height: 48).write(to: URL(fileURLWithPath: jpeg))
        let raw = source + "/scene.dng"
        try FileManager.default.copyItem(atPath: TestLibrary.fixture("raw-tiff/raw/rggb_preview.dng"), toPath: raw)
        let mp4 = try TestVideos.clip("plain.mp4", in: source)
        let library = try TestLibrary.open()
        defer { library.close() }
        for (path, kind) in [(jpeg, MediaKind.photo), (raw, .raw), (mp4, .video)] {
            let importer = AssetImporter(library: library, concurrency: 1)
            let (summary, counter) = try await Self.counting { try await importer.importFiles([path]) }
            #expect(summary.imported == 1, "\(path): \(summary)")
            #expect(counter.sniffs == 1, "\(path): sniffed \(counter.sniffs) times")
            #expect(counter.probes == (kind == .video ? 1 : 0), "\(path): a video's headers read \(counter.probes) times")
            let asset = try #require(try library.fetchAssets().allObjects().first { path.hasSuffix($0.originalFilename) })
            #expect(asset.mediaKind == kind, "\(path)")
        }
    }

    @Test("a video prepared as an upload is, in any container: sniffed once, its headers read once, FFmpeg's demuxer opened once at most")
    func videoOpensItsDemuxerOnce() async throws {
        let source = TestLibrary.temporaryFolder("containers")
        let clips = [
            // Read by FFmpeg's demuxer, which the poster decode goes on with.
            (try TestVideos.clip("clip.mkv", in: source, pattern: 1), 1),
            (try TestVideos.clip("old.avi", in: source, pattern: 2, codec: ["-c:v", "mpeg4", "-c:a", "mp3"]), 1),
            // A keyframe every half second, as AVCHD cameras write.
            (
                try TestVideos.clip(
                    "camera.ts", in: source, pattern: 3, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15", "-c:a", "aac"]), 1
            ),
            // Read by Sepia from its moov box, its keyframe decoded by libavcodec alone.
            (try TestVideos.clip("plain.mp4", in: source, pattern: 4), 0),
        ]
        let library = try TestLibrary.open()
        defer { library.close() }
        for (path, opens) in clips {
            let (prepared, counter) = try await Self.counting {
                try await library.prepareAsset(fileAt: path, deferringPreview: true)
            }
            #expect(prepared.asset.mediaKind == .video, "\(path)")
            #expect(counter.sniffs == 1, "\(path): sniffed \(counter.sniffs) times")
            #expect(counter.probes == 1, "\(path): its headers read \(counter.probes) times")
            #expect(counter.demuxerOpens == opens, "\(path): the demuxer opened \(counter.demuxerOpens) times")
        }
    }

    @Test("whether a video needs a playable version is kept at import; playback and the job queue ask the row, not the file")
    func playbackAsksTheRow() async throws {
        let source = TestLibrary.temporaryFolder("playback")
        let plain = try TestVideos.clip("plain.mp4", in: source)
        let vp9 = try TestVideos.clip(
            "clip.mkv", in: source, pattern: 1, codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"])
        let library = try TestLibrary.open()
        defer { library.close() }
        _ = try await AssetImporter(library: library, concurrency: 1).importFiles([plain, vp9])
        let videos = try library.fetchAssets(with: .video).allObjects()
        let asIs = try #require(videos.first { $0.originalFilename == "plain.mp4" })
        let needing = try #require(videos.first { $0.originalFilename == "clip.mkv" })
        let asIsMotion = try #require(try library.resources(for: asIs).first)
        let needingMotion = try #require(try library.resources(for: needing).first)
        #expect(asIsMotion.needsPlayableVersion == false && asIsMotion.decodedPixels == nil)
        #expect(needingMotion.needsPlayableVersion == true)
        #expect((needingMotion.decodedPixels ?? 0) >= 50 * 320 * 240, "\(String(describing: needingMotion.decodedPixels))")

        // Requests for the motion while no version exists, and the job queue's questions: no file is read.
        let (answers, counter) = try await Self.counting {
            var answers: [AssetResource?] = []
            for _ in 0..<5 {
                answers.append(try await library.playableResource(of: asIs))
                answers.append(try await library.playableResource(of: needing))
            }
            let pixels = [try await library.playableVersionPixels(ofAsset: asIs.id), try await library.playableVersionPixels(ofAsset: needing.id)]
            #expect(pixels == [nil, needingMotion.decodedPixels])
            #expect(try await library.preparePlayableVersion(ofAsset: asIs.id) == false, "H.264 in MP4 plays as it is")
            return answers
        }
        #expect(counter.probes == 0 && counter.sniffs == 0, "\(counter.probes) probes, \(counter.sniffs) sniffs")
        #expect(answers.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element?.type == .video : $0.element == nil })

        // The answer is the row's: with the original gone from under it, playback still knows, and says so.
        try FileManager.default.removeItem(atPath: try await library.path(of: asIsMotion))
        #expect(try await library.playableResource(of: asIs)?.contentHash == asIsMotion.contentHash)
    }

    @Test(
        "a library written before the answer was kept gains the column; a movie's headers are read once when first asked, then the row answers",
        .enabled(if: !TestLibrary.onPostgreSQL, "the SQLite file is rolled back by hand"))
    func playbackMigration() async throws {
        let source = TestLibrary.temporaryFolder("before")
        let plain = try TestVideos.clip("plain.mp4", in: source)
        let hevc = try TestVideos.clip(
            "IMG_0500.MOV", in: source, pattern: 5, codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])
        let folder = TestLibrary.temporaryFolder()
        var library: PhotoLibrary? = try TestLibrary.open(at: folder)
        _ = try await AssetImporter(library: library!, concurrency: 1).importFiles([plain, hevc])
        library?.close()
        library = nil
        // The database as the previous version left it: without what "v8: playable versions" adds.
        let queue = try DatabaseQueue(path: folder + "/library.sqlite")
        try await queue.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE resource DROP COLUMN needsPlayableVersion; ALTER TABLE resource DROP COLUMN decodedPixels;
                    DELETE FROM grdb_migrations WHERE identifier = 'v8: playable versions';
                    """)
        }
        try queue.close()

        let reopened = try TestLibrary.open(at: folder)
        defer { reopened.close() }
        let videos = try reopened.fetchAssets(with: .video).allObjects()
        let asIs = try #require(videos.first { $0.originalFilename == "plain.mp4" })
        let needing = try #require(videos.first { $0.originalFilename == "IMG_0500.MOV" })
        for asset in [asIs, needing] {
            #expect(try reopened.resources(for: asset).map(\.needsPlayableVersion) == [nil], "not known before")
        }
        let (first, firstCount) = try await Self.counting {
            [try await reopened.playableResource(of: asIs)?.type, try await reopened.playableResource(of: needing)?.type]
        }
        #expect(first == [.video, nil])
        #expect(firstCount.probes == 2, "each movie's headers read once")
        #expect(try reopened.resources(for: asIs).first?.needsPlayableVersion == false)
        #expect(try reopened.resources(for: needing).first?.needsPlayableVersion == true)
        #expect((try reopened.resources(for: needing).first?.decodedPixels ?? 0) > 0)
        let (again, againCount) = try await Self.counting {
            [try await reopened.playableResource(of: asIs)?.type, try await reopened.playableResource(of: needing)?.type]
        }
        #expect(again == [.video, nil])
        #expect(againCount.probes == 0, "kept in the row")
        #expect(try await reopened.check().isSound)
        // The version is still made for the movie that needs one.
        #expect(try await reopened.preparePlayableVersion(ofAsset: needing.id))
        #expect(try await reopened.playableResource(of: needing)?.type == .fullSizeVideo)
    }
}
