import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaTestSupport
import Testing

@testable import SepiaServer

/// What an upload reads of itself: its first bytes, judged as they arrive, are its only sniff (the import that
/// follows does not sniff the stored file again), and a video's headers are read once, by the one demuxer the
/// upload opens, which then decodes the poster. The photos are the corpus `scripts/testdata-raw` makes; the clips
/// are made here by ffmpeg.
@Suite("What an upload reads")
struct UploadReadTests {
    /// A file of the test corpus, recorded as a failure when the corpus is missing.
    static func fixture(_ relative: String) throws -> Data {
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = repository.appendingPathComponent(".build/testdata/" + relative).path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("the test corpus is missing \(relative): run scripts/testdata-raw")
            throw TestVideos.Failure(description: "missing " + path)
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// One upload, what it becomes, and how many times FFmpeg's demuxer opens it.
    struct Upload: Sendable {
        let name: String
        let bytes: Data
        let format: String
        let isVideo: Bool
        let demuxerOpens: Int
    }

    @Test("a JPEG, a TIFF, a DNG and MKV, AVI, MPEG-TS and MP4 clips: each upload sniffs once, a video's headers are read once")
    func sniffsOnce() async throws {
        let folder = TestVideos.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func clip(_ name: String, pattern: Int, codec: [String]? = nil) throws -> Data {
            let path =
                try codec.map { try TestVideos.clip(name, in: folder, pattern: pattern, codec: $0) }
                ?? TestVideos.clip(name, in: folder, pattern: pattern)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        // A keyframe every half second, as AVCHD cameras write (a poster time that no keyframe follows is decoded
        // again from the start, on a demuxer of its own).
        let cameraTS = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15", "-c:a", "aac"]
        let uploads = [
            Upload(name: "photo.jpg", bytes: TestImages.jpeg(41, width: 96, height: 64), format: "jpeg", isVideo: false, demuxerOpens: 0),
            // A TIFF and a RAW file are both TIFF-structured: their IFDs, further in than the first bytes, say which.
            Upload(name: "scan.tif", bytes: try Self.fixture("raw-tiff/tiff/rgb8_none.tif"), format: "tiff", isVideo: false, demuxerOpens: 0),
            Upload(name: "scene.dng", bytes: try Self.fixture("raw-tiff/raw/rggb_preview.dng"), format: "raw", isVideo: false, demuxerOpens: 0),
            // MKV, AVI and MPEG-TS headers are read by FFmpeg's demuxer, which the poster decode then goes on with.
            Upload(name: "clip.mkv", bytes: try clip("clip.mkv", pattern: 1), format: "mkv", isVideo: true, demuxerOpens: 1),
            Upload(
                name: "old.avi", bytes: try clip("old.avi", pattern: 2, codec: ["-c:v", "mpeg4", "-c:a", "mp3"]), format: "avi", isVideo: true,
                demuxerOpens: 1),
            Upload(name: "camera.mts", bytes: try clip("camera.ts", pattern: 3, codec: cameraTS), format: "mts", isVideo: true, demuxerOpens: 1),
            // An MP4's headers are read by Sepia from its moov box and its keyframe decoded by libavcodec alone.
            Upload(name: "plain.mp4", bytes: try clip("plain.mp4", pattern: 4), format: "mp4", isVideo: true, demuxerOpens: 0),
        ]
        try await TestServer().withOwner { owner in
            for upload in uploads {
                let counter = MediaReadCounter()
                let response = try await MediaReadCounter.$current.withValue(counter) { try await owner.upload(upload.bytes, filename: upload.name) }
                #expect(response.status == .created, "\(upload.name): \(String(buffer: response.body))")
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let asset = try #require(body["asset"] as? [String: Any])
                #expect(asset["originalFormat"] as? String == upload.format, "\(upload.name): \(asset)")
                #expect(asset["mediaType"] as? String == (upload.isVideo ? "video" : "image"), "\(upload.name)")
                #expect(counter.sniffs == 1, "\(upload.name): sniffed \(counter.sniffs) times")
                #expect(counter.probes == (upload.isVideo ? 1 : 0), "\(upload.name): its headers read \(counter.probes) times")
                #expect(counter.demuxerOpens == upload.demuxerOpens, "\(upload.name): the demuxer opened \(counter.demuxerOpens) times")
            }
        }
    }

    @Test("an upload of no format Sepia reads is still refused on its first bytes, with the same words")
    func refusedOnItsHead() async throws {
        let server = TestServer()
        try await server.withOwner { owner in
            let counter = MediaReadCounter()
            let gif = Data("GIF89a".utf8) + Data(count: 100_000)
            let response = try await MediaReadCounter.$current.withValue(counter) { try await owner.upload(gif, filename: "anim.gif") }
            #expect(response.status == .unsupportedMediaType)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(body["message"] as? String == "GIF files are not accepted; Sepia accepts " + UploadHandler.accepted, "\(body)")
            #expect(counter.sniffs == 1)
            #expect(server.storedFiles().isEmpty)
        }
    }
}
