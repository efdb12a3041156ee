import Foundation
import SepiaCodecs
import SepiaImage
import SepiaVideo
import Testing

/// Every container and codec a camera or phone records: the probe reads what ffprobe reads, and the poster's
/// pixels are those of ffmpeg's own decode of the same frame.
///
/// Tolerance: SepiaVideo converts with swscale, as ffmpeg does, with the same flags (bicubic or area, accurate
/// rounding, full chroma interpolation) and the frame's matrix and range, so the pixels agree to rounding: at
/// most 2 levels anywhere, 0.25 on average. A wrong frame, matrix, range, size or orientation gives tens.
@Suite("Video containers and codecs")
struct VideoFormatTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let clip: @Sendable () throws -> String
        let format: ImageFormat
        let codec: String
        let size: IntSize
        let audio: [String]
        /// The size shown, when the pixels are not square.
        var shown: IntSize?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "H.264 in MP4", clip: Clips.h264MP4, format: .mp4, codec: "h264", size: IntSize(width: 320, height: 240), audio: ["aac"]),
        Case(name: "HEVC in MOV", clip: Clips.hevcMOV, format: .quickTime, codec: "hevc", size: IntSize(width: 320, height: 240), audio: []),
        Case(name: "AV1 in MP4", clip: Clips.av1MP4, format: .mp4, codec: "av1", size: IntSize(width: 320, height: 240), audio: []),
        Case(name: "AV1 in WebM", clip: Clips.av1WebM, format: .webm, codec: "av1", size: IntSize(width: 320, height: 240), audio: ["opus"]),
        Case(name: "VP8 in WebM", clip: Clips.vp8WebM, format: .webm, codec: "vp8", size: IntSize(width: 320, height: 240), audio: ["vorbis"]),
        Case(name: "VP9 in WebM", clip: Clips.vp9WebM, format: .webm, codec: "vp9", size: IntSize(width: 320, height: 240), audio: []),
        Case(name: "VP9 in Matroska", clip: Clips.vp9MKV, format: .matroska, codec: "vp9", size: IntSize(width: 320, height: 240), audio: ["flac"]),
        Case(name: "MPEG-4 Part 2 in MP4", clip: Clips.mpeg4MP4, format: .mp4, codec: "mpeg4", size: IntSize(width: 320, height: 240), audio: []),
        Case(
            name: "MPEG-4 Part 2 in AVI", clip: Clips.mpeg4AVI, format: .avi, codec: "mpeg4", size: IntSize(width: 320, height: 240),
            audio: ["pcm_s16le"]),
        Case(name: "Motion JPEG in AVI", clip: Clips.mjpegAVI, format: .avi, codec: "mjpeg", size: IntSize(width: 320, height: 240), audio: []),
        // H.263's QCIF has 12:11 pixels.
        Case(
            name: "H.263 in 3GP", clip: Clips.h263ThreeGP, format: .threeGPP, codec: "h263", size: IntSize(width: 176, height: 144), audio: ["aac"],
            shown: IntSize(width: 192, height: 144)),
        Case(name: "H.264 in MPEG-TS", clip: Clips.h264TS, format: .mpegTS, codec: "h264", size: IntSize(width: 320, height: 240), audio: ["aac"]),
        Case(name: "MPEG-2 in MPEG-TS", clip: Clips.mpeg2TS, format: .mpegTS, codec: "mpeg2video", size: IntSize(width: 320, height: 240), audio: []),
    ]

    @Test("the probe reads container, codec, size, duration, frame rate and audio", arguments: cases)
    func probe(_ c: Case) throws {
        // Given a clip ffmpeg made
        let path = try c.clip()
        // When it is probed
        let info = try VideoProbe.probe(path: path)
        // Then it reads what the clip was made with
        #expect(info.format == c.format)
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64)) == c.format)
        #expect(info.video.codec == c.codec)
        #expect(info.video.codedSize == c.size)
        #expect(info.video.displaySize == c.shown ?? c.size)
        #expect(info.video.orientation == .up)
        let duration = try #require(info.duration)
        #expect(abs(duration - 2) < 0.2, "duration \(duration)")
        let fps = try #require(info.video.frameRate)
        #expect(abs(fps - (c.format == .threeGPP ? 15 : 30)) < 0.1, "frame rate \(fps)")
        #expect(info.audio.map(\.codec) == c.audio)
        #expect(info.video.dynamicRange == .sdr)
    }

    @Test("the poster is ffmpeg's decode of the same frame", arguments: cases)
    func poster(_ c: Case) throws {
        // Given a clip and the poster SepiaVideo decodes from it
        let path = try c.clip()
        let video = try VideoSource(path: path)
        let frame = try video.frame()
        let shown = c.shown ?? c.size
        #expect(frame.bitmap.size == shown)
        if video.info.format == .mpegTS {
            // No index: the first keyframe after the seek point, within a GOP of the time asked for.
            #expect(abs(frame.time - video.posterTime) <= 0.5, "frame at \(frame.time)")
        } else {
            #expect(frame.time <= video.posterTime + 0.001, "frame at \(frame.time)")
        }
        // When ffmpeg decodes the frame at that time (stretched to square pixels as players show it)
        let filters = c.shown.map { ["scale=\($0.width):\($0.height)"] } ?? []
        let reference = try Clips.reference(path, time: frame.time, filters: filters, width: shown.width, height: shown.height)
        // Then the pixels agree to rounding
        let difference = PixelDifference(frame.bitmap.bytes, reference)
        #expect(difference.max <= 2 && difference.mean <= 0.25, "\(c.name): \(difference)")
    }

    @Test("a portrait clip's display matrix becomes the orientation, and the poster shows upright", arguments: [90, 270])
    func portrait(_ degrees: Int) async throws {
        // Given a clip whose display matrix turns it
        let path = try Clips.rotated(degrees)
        let video = try VideoSource(path: path)
        // Then it is shown 240 wide and 320 tall
        #expect(video.info.video.codedSize == IntSize(width: 320, height: 240))
        #expect(video.displaySize == IntSize(width: 240, height: 320))
        #expect(video.info.video.rotation == 90 || video.info.video.rotation == 270)
        // And the rendered poster is ffmpeg's, which turns frames by the same matrix. ffmpeg turns the YUV frame
        // before converting it, so its chroma is interpolated along the other axis: a few samples at colour edges
        // differ by up to 8.
        let frame = try video.frame()
        let bitmap = try await RenderContext().renderBitmap(video.image, layout: .rgb)
        #expect(bitmap.size == IntSize(width: 240, height: 320))
        let reference = try Clips.reference(path, time: frame.time, width: 240, height: 320)
        let difference = PixelDifference(bitmap.bytes, reference)
        #expect(difference.max <= 8 && difference.p99 <= 1 && difference.mean <= 0.25, "rotate=\(degrees): \(difference)")
    }

    @Test("an anamorphic M2TS is shown at its display aspect ratio")
    func anamorphicTransportStream() throws {
        // Given 240×180 frames whose pixels are 4:3 wide, in 192-byte-packet M2TS
        let path = try Clips.anamorphicMTS()
        let video = try VideoSource(path: path)
        // Then the probe reports the ratio and the shown size
        #expect(video.format == .mpegTS)
        #expect(video.info.video.codedSize == IntSize(width: 240, height: 180))
        #expect(video.info.video.sampleAspectRatio?.description == "4:3")
        #expect(video.displaySize == IntSize(width: 320, height: 180))
        #expect(video.info.audio.map(\.codec) == ["ac3"])
        // And the poster is stretched as ffmpeg's scale=iw*sar:ih stretches it
        let frame = try video.frame()
        let reference = try Clips.reference(path, time: frame.time, filters: ["scale=320:180"], width: 320, height: 180)
        let difference = PixelDifference(frame.bitmap.bytes, reference)
        #expect(difference.max <= 2 && difference.mean <= 0.25, "\(difference)")
    }

    @Test("NTSC DV's 8:9 pixels show as 640×480")
    func anamorphicDV() throws {
        let path = try Clips.dvAVI()
        let video = try VideoSource(path: path)
        #expect(video.info.video.codec == "dvvideo")
        #expect(video.info.video.codedSize == IntSize(width: 720, height: 480))
        #expect(video.displaySize == IntSize(width: 640, height: 480))
        let frame = try video.frame()
        let reference = try Clips.reference(path, time: frame.time, filters: ["scale=640:480"], width: 640, height: 480, flags: "area")
        let difference = PixelDifference(frame.bitmap.bytes, reference)
        #expect(difference.max <= 2 && difference.mean <= 0.25, "\(difference)")
    }

    @Test("audio streams: codec, channels, layout and rate")
    func audio() throws {
        let info = try VideoProbe.probe(path: try Clips.h264MP4())
        let audio = try #require(info.audio.first)
        #expect(audio.codec == "aac")
        #expect(audio.channels == 2)
        #expect(audio.channelLayout == "stereo")
        #expect(audio.sampleRate == 48000)
        #expect(try VideoProbe.probe(path: try Clips.hevcMOV()).audio.isEmpty)
    }

    @Test("profile and bit depth come from the codec configuration, without decoding")
    func profiles() throws {
        let h264 = try VideoProbe.probe(path: try Clips.h264MP4()).video
        #expect(h264.profile == "High")
        #expect(h264.bitDepth == 8)
        let hevc = try VideoProbe.probe(path: try Clips.hevcMOV()).video
        #expect(hevc.profile == "Main")
        #expect(hevc.bitDepth == 8)
        let av1 = try VideoProbe.probe(path: try Clips.av1MP4()).video
        #expect(av1.profile == "Main")
        #expect(av1.bitDepth == 8)
    }
}
