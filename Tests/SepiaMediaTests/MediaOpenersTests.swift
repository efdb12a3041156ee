import Foundation
import SepiaCodecs
import SepiaImage
import SepiaMedia
import SepiaTestSupport
import Testing

/// The list of media openers: which kind each file of the test corpus makes, how each opener opens it, and that
/// a file is sniffed once and a video's headers read once from the first bytes to the decoded picture. The
/// photos are the corpus `scripts/testdata` makes; the clips are made here by ffmpeg.
@Suite struct MediaOpenersTests {
    /// The test corpus (`SEPIA_TESTDATA`, else the repository's `.build/testdata`).
    static let corpus: String = {
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty { return override }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/testdata").path
    }()

    /// A file of the corpus, recorded as a failure when the corpus is missing.
    static func fixture(_ relative: String) throws -> String {
        let path = corpus + "/" + relative
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("the test corpus is missing \(relative) at \(corpus): run scripts/testdata and scripts/testdata-raw")
            throw TestVideos.Failure(description: "missing " + path)
        }
        return path
    }

    /// One file of each kind and format the openers read, and what they must say of it.
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let format: ImageFormat
        let kind: MediaKind
        let playback: MediaPlayback
        var testDescription: String { "\(file) (\(format), \(kind))" }
    }

    static let corpusCases: [Case] = [
        Case(file: "photos/date-2038.jpg", format: .jpeg, kind: .photo, playback: .none),
        Case(file: "png-suite/basi0g01.png", format: .png, kind: .photo, playback: .none),
        Case(file: "webp/flower.webp", format: .webp, kind: .photo, playback: .none),
        Case(file: "heic-avif/pug.heic", format: .heic, kind: .photo, playback: .none),
        Case(file: "heic-avif/hopper.avif", format: .avif, kind: .photo, playback: .none),
        Case(file: "raw-tiff/tiff/cmyk8.tif", format: .tiff, kind: .photo, playback: .none),
        Case(file: "raw-tiff/raw/rggb_preview.dng", format: .cameraRAW, kind: .raw, playback: .none),
    ]

    /// Opens `path` through `openers` and decodes a thumbnail of its picture, counting sniffs and probes.
    static func openCounting(_ path: String, with openers: MediaOpeners) async throws -> (OpenedMedia, MediaReadCounter) {
        let counter = MediaReadCounter()
        let opened = try await MediaReadCounter.$current.withValue(counter) {
            let opened = try openers.open(path: path)
            _ = try await RenderContext().renderBitmap(opened.still.image.thumbnail(size: IntSize(width: 64, height: 64)), layout: .rgb)
            return opened
        }
        return (opened, counter)
    }

    @Test("each photo of the corpus: its kind, its format, no playback; sniffed once from opening to a decoded thumbnail", arguments: corpusCases)
    func corpusPhoto(_ item: Case) async throws {
        let path = try Self.fixture(item.file)
        let (opened, counter) = try await Self.openCounting(path, with: MediaOpeners())
        #expect(opened.kind == item.kind && opened.format == item.format && opened.playback == item.playback)
        #expect(opened.displaySize.width > 0 && opened.displaySize.height > 0)
        #expect(MediaOpeners.standard.kind(of: item.format) == item.kind)
        #expect(counter.sniffs == 1, "sniffed \(counter.sniffs) times")
        #expect(counter.probes == 0)
    }

    @Test("videos: an H.264 MP4 plays as it is, an MPEG-4 Part 2 AVI and a VP9 MKV need a playable version; each sniffed once and probed once")
    func videos() async throws {
        let folder = TestVideos.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mp4 = try TestVideos.clip("plain.mp4", in: folder)
        let avi = try TestVideos.clip("old.avi", in: folder, pattern: 1, codec: ["-c:v", "mpeg4", "-c:a", "mp3"])
        let mkv = try TestVideos.clip(
            "clip.mkv", in: folder, pattern: 2, codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"])
        for (path, format, playback) in [
            (mp4, ImageFormat.mp4, MediaPlayback.asIs), (avi, .avi, .needsPlayableVersion), (mkv, .matroska, .needsPlayableVersion),
        ] {
            let (opened, counter) = try await Self.openCounting(path, with: MediaOpeners())
            #expect(opened.kind == .video && opened.format == format && opened.playback == playback, "\(path)")
            #expect(opened.kind.isMovie && opened.kind.hasMotion && !opened.kind.isEditable)
            #expect(abs(opened.duration - 2) < 0.2 && opened.displaySize == IntSize(width: 320, height: 240), "\(path)")
            #expect(opened.bytes == nil, "a video is read where it is, never whole")
            #expect((opened.decodedPixels ?? 0) >= 50 * 320 * 240 || playback == .asIs, "\(path): \(String(describing: opened.decodedPixels))")
            #expect(counter.sniffs == 1, "\(path): sniffed \(counter.sniffs) times")
            #expect(counter.probes == 1, "\(path): its headers read \(counter.probes) times")
        }
    }

    @Test("a video's demuxer: opened once from the probe to the decoded poster for MKV, AVI and MPEG-TS, never for an MP4 Sepia reads itself")
    func demuxerOpensOnce() async throws {
        let folder = TestVideos.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mkv = try TestVideos.clip("clip.mkv", in: folder, pattern: 1)
        let avi = try TestVideos.clip("old.avi", in: folder, pattern: 2, codec: ["-c:v", "mpeg4", "-c:a", "mp3"])
        // A keyframe every half second, as AVCHD cameras write (a poster time that no keyframe follows is decoded
        // again from the start, on a demuxer of its own).
        let ts = try TestVideos.clip(
            "camera.ts", in: folder, pattern: 3, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15", "-c:a", "aac"])
        let mp4 = try TestVideos.clip("plain.mp4", in: folder, pattern: 4)
        for (path, format, opens) in [(mkv, ImageFormat.matroska, 1), (avi, .avi, 1), (ts, .mpegTS, 1), (mp4, .mp4, 0)] {
            let (opened, counter) = try await Self.openCounting(path, with: MediaOpeners())
            #expect(opened.format == format, "\(path)")
            #expect(counter.sniffs == 1 && counter.probes == 1, "\(path): \(counter.sniffs) sniffs, \(counter.probes) probes")
            #expect(counter.demuxerOpens == opens, "\(path): the demuxer opened \(counter.demuxerOpens) times")
        }
    }

    @Test("the list's answer for every format: photos, RAW and videos are read, the rest named and refused with what is read")
    func answers() throws {
        let openers = MediaOpeners.standard
        for format in ImageFormat.allCases {
            let expected: MediaKind? =
                switch format {
                case .jpeg, .png, .webp, .heic, .avif, .tiff: .photo
                case .cameraRAW: .raw
                case .quickTime, .mp4, .threeGPP, .matroska, .webm, .avi, .mpegTS: .video
                case .gif, .bmp, .jpegXL, .jpeg2000, .svg, .pdf: nil
                }
            #expect(openers.kind(of: format) == expected, "\(format)")
            #expect(openers.opener(for: format)?.readsInPlace == expected?.isMovie, "\(format)")
        }
        #expect(Set(openers.formats) == Set(ImageFormat.allCases.filter { openers.kind(of: $0) != nil }))

        // A GIF is recognised and refused, with what is read instead.
        let folder = TestVideos.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gif = folder + "/anim.gif"
        try Data("GIF89a".utf8 + [UInt8](repeating: 0, count: 32)).write(to: URL(fileURLWithPath: gif))
        #expect {
            try openers.open(path: gif)
        } throws: { error in
            let error = error as? CodecError
            return error?.code == .unsupportedFormat && error?.reason.contains("GIF files are not read") == true
                && error?.reason.contains("MP4, MOV") == true && error?.reason.contains("camera RAW") == true
        }
        // Bytes no format names are refused with their first bytes.
        let noise = folder + "/noise.bin"
        try Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]).write(to: URL(fileURLWithPath: noise))
        #expect {
            try openers.open(path: noise)
        } throws: { error in
            (error as? CodecError)?.code == .unrecognizedFormat && (error as? CodecError)?.reason.contains("01 02 03 04") == true
        }
    }

    @Test("a TIFF named like a RAW file is offered to the RAW opener first, and opened as the TIFF it is when LibRaw does not take it")
    func tiffNamedRAW() async throws {
        let folder = TestVideos.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let named = folder + "/scan.nef"
        try FileManager.default.copyItem(atPath: try Self.fixture("raw-tiff/tiff/cmyk8.tif"), toPath: named)
        let (opened, counter) = try await Self.openCounting(named, with: MediaOpeners())
        #expect(opened.kind == .photo && opened.format == .tiff)
        #expect(counter.sniffs == 1)
    }

    @Test("the kinds an item can be: only a video is a movie, a Live Photo has motion too, every still is editable")
    func kinds() {
        #expect([MediaKind.photo, .raw, .video, .livePhoto, .rawPlusJPEG].map(\.name) == ["photo", "raw", "video", "livePhoto", "rawPlusJPEG"])
        #expect([MediaKind.photo, .raw, .video, .livePhoto, .rawPlusJPEG].filter(\.isMovie) == [.video])
        #expect([MediaKind.photo, .raw, .video, .livePhoto, .rawPlusJPEG].filter(\.hasMotion) == [.video, .livePhoto])
        #expect([MediaKind.photo, .raw, .video, .livePhoto, .rawPlusJPEG].filter(\.isEditable) == [.photo, .raw, .livePhoto, .rawPlusJPEG])
    }
}
