import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaVideo

/// The playable version: which originals need one, and that it is H.264/AAC in an MP4 with its index first, the
/// original's duration, orientation and picture (checked against ffmpeg's decode of both files), scaled to fit
/// 1080p, and that an encode stopped midway leaves nothing.
@Suite struct PlayableVideoTests {
    static func folder() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-playable-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test("browser-playable originals need no playable version; HEVC, MPEG-4, AVI, MTS, 3GP, Matroska do")
    func judgement() throws {
        func needs(_ clip: String) throws -> Bool { PlayableVideo.needsPlayableVersion(try VideoProbe.probe(path: clip)) }
        #expect(try !needs(Clips.h264MP4()))
        #expect(try !needs(Clips.rotated(90)), "H.264 and AAC in QuickTime")
        #expect(try !needs(Clips.vp8WebM()))
        #expect(try !needs(Clips.av1WebM()))
        for clip in [
            try Clips.hevcMOV(), try Clips.hevcHLG(), try Clips.mpeg4MP4(), try Clips.mpeg4AVI(), try Clips.anamorphicMTS(), try Clips.h263ThreeGP(),
            try Clips.vp9MKV(),
        ] {
            #expect(try needs(clip), "\(clip)")
        }
    }

    /// The top-level box types of an MP4, in order.
    static func boxes(_ path: String) throws -> [String] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        var names: [String] = []
        while offset + 8 <= data.count {
            var size = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            if size == 1, offset + 16 <= data.count { size = data[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) } }
            names.append(String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return names
    }

    @Test("a portrait HEVC movie with PCM audio becomes H.264 and AAC, index first, turned as the original, the same picture")
    func hevc() throws {
        let source = try Clips.make(
            "playable-hevc-portrait.mov",
            Clips.pattern + Clips.tone + ["-c:v", "libx265"] + Clips.x265Quiet + ["-pix_fmt", "yuv420p", "-tag:v", "hvc1"] + Clips.bt709
                + ["-c:a", "pcm_s16le", "-shortest", "-metadata:s:v:0", "rotate=90"])
        let output = Self.folder() + "/playable.mp4"
        var reports: [Double] = []
        try PlayableVideo.encode(path: source, to: output) { done in
            reports.append(done)
            return true
        }
        #expect(reports.last == 1 && reports == reports.sorted(), "\(reports)")
        let original = try VideoProbe.probe(path: source)
        let playable = try VideoProbe.probe(path: output)
        #expect(playable.format == .mp4)
        #expect(playable.video.codec == "h264" && playable.video.bitDepth == 8 && playable.video.profile == "High", "\(playable.video)")
        #expect([nil, "yuv420p"].contains(playable.video.pixelFormat), "\(playable.video)")
        #expect(playable.audio.map(\.codec) == ["aac"])
        #expect(playable.video.displaySize == original.video.displaySize, "\(playable.video.displaySize)")
        #expect(playable.video.rotation == original.video.rotation)
        #expect(abs((playable.duration ?? 0) - (original.duration ?? 0)) < 0.1, "\(playable.duration ?? 0)")
        #expect(!PlayableVideo.needsPlayableVersion(playable))
        let order = try Self.boxes(output)
        #expect(order.firstIndex(of: "moov")! < order.firstIndex(of: "mdat")!, "faststart: \(order)")

        // The same picture: ffmpeg's decode of a frame of each, compared.
        let a = try Clips.reference(source, time: 1, filters: ["scale=320:240"], width: 320, height: 240)
        let b = try Clips.reference(output, time: 1, filters: ["scale=320:240"], width: 320, height: 240)
        let difference = PixelDifference(a, b)
        #expect(difference.mean < 3, "\(difference)")
    }

    @Test("a large frame is scaled to fit 1920x1080, never enlarged; anamorphic pixels become square")
    func sizes() throws {
        let large = try Clips.make(
            "playable-1440p.mp4", ["-f", "lavfi", "-i", "testsrc2=size=2560x1440:rate=10:duration=1", "-c:v", "mpeg4", "-q:v", "5"])
        let folder = Self.folder()
        try PlayableVideo.encode(path: large, to: folder + "/large.mp4")
        #expect(try VideoProbe.probe(path: folder + "/large.mp4").video.codedSize == IntSize(width: 1920, height: 1080))
        try PlayableVideo.encode(path: try Clips.anamorphicMTS(), to: folder + "/mts.mp4")
        let mts = try VideoProbe.probe(path: folder + "/mts.mp4")
        #expect(mts.video.codedSize == IntSize(width: 320, height: 180) && mts.video.sampleAspectRatio.map { $0.numerator == $0.denominator } ?? true)
        #expect(mts.audio.map(\.codec) == ["aac"], "AC-3 becomes AAC")
    }

    @Test("a transport stream's clock may start anywhere: the playable version starts at 0, its sound in step")
    func startsAtZero() throws {
        let folder = Self.folder()
        // The MTS's sound is encoded again (AC-3), the TS's copied (AAC); both streams start at 1.4 s.
        for (name, clip) in [("mts", try Clips.anamorphicMTS()), ("ts", try Clips.h264TS())] {
            let output = folder + "/\(name)-timing.mp4"
            try PlayableVideo.encode(path: clip, to: output)
            let original = try VideoProbe.probe(path: clip)
            let streams = String(
                decoding: try TestVideos.run(
                    ["-v", "error", "-show_entries", "stream=codec_type,start_time,duration", "-of", "csv=p=0", output],
                    executable: "/usr/bin/ffprobe"), as: UTF8.self
            ).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            #expect(streams.count == 2, "\(name): \(streams)")
            for stream in streams where stream.count >= 3 {
                let start = Double(stream[1]) ?? -1
                let duration = Double(stream[2]) ?? -1
                #expect(abs(start) < 0.05, "\(name) \(stream[0]) starts at \(start) s")
                #expect(
                    abs(duration - (original.duration ?? 0)) < 0.15,
                    "\(name) \(stream[0]) lasts \(duration) s, the original \(original.duration ?? 0) s")
            }
        }
    }

    @Test("an encode stopped midway throws and leaves no file; a damaged video is refused with nothing written")
    func stopped() throws {
        let folder = Self.folder()
        let output = folder + "/stopped.mp4"
        #expect(throws: CodecError.self) {
            try PlayableVideo.encode(path: try Clips.hevcMOV(), to: output) { $0 < 0.3 }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let source = try Data(contentsOf: URL(fileURLWithPath: try Clips.hevcMOV()))
        let damaged = folder + "/cut.mov"
        try source.prefix(source.count / 2).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: CodecError.self) { try PlayableVideo.encode(path: damaged, to: output) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cut.mov"])
    }
}
