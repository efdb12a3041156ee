import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaVideo

/// Sepia's own reading of MP4, MOV and 3GP headers gives the description FFmpeg's demuxer gives, field for field,
/// for every kind of movie a camera or phone writes; what it does not describe fully it leaves to FFmpeg.
@Suite("MP4 and MOV headers read without FFmpeg")
struct MovieProbeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let clip: @Sendable () throws -> String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "H.264 and AAC in MP4", clip: Clips.h264MP4),
        Case(name: "HEVC in MOV", clip: Clips.hevcMOV),
        Case(name: "HEVC HLG 10-bit in MOV", clip: { try Clips.hevcHLG() }),
        Case(name: "HEVC PQ 10-bit with MaxCLL in MP4", clip: { try Clips.hevcPQ() }),
        Case(name: "AV1 in MP4", clip: Clips.av1MP4),
        Case(
            name: "H.264 and AAC mono in 3GP",
            clip: {
                try Clips.make(
                    "probe.3gp", Clips.pattern + Clips.tone + ["-c:v", "libx264", "-c:a", "aac", "-ac", "1", "-ar", "16000", "-shortest"])
            }),
        Case(name: "portrait, turned 90°", clip: { try Clips.rotated(90) }),
        Case(name: "turned 270°", clip: { try Clips.rotated(270) }),
        Case(name: "an iPhone's QuickTime metadata", clip: Clips.quickTimeMetadata),
        Case(
            name: "a Live Photo's movie with its still-image track",
            clip: {
                let source = try Clips.make(
                    "probe-live-source.mov",
                    Clips.pattern + ["-c:v", "libx264"] + Clips.bt709
                        + ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=\(Clips.contentIdentifier)"])
                let path = Clips.folder.appendingPathComponent("probe-live.mov").path
                try LivePhotoMovie.addStillImageTrack(to: source, output: path, at: 0.8)
                return path
            }),
        Case(
            name: "an MP4's creation time and 3GPP location (loci)",
            clip: {
                try Clips.make(
                    "probe-loci.mp4",
                    [
                        "-i", try Clips.h264MP4(), "-c", "copy", "-metadata", "creation_time=2021-03-04T05:06:07Z", "-metadata",
                        "location=-33.8568+151.2153/",
                    ])
            }),
        Case(
            name: "anamorphic pixels (pasp), PCM sound, a language",
            clip: {
                try Clips.make(
                    "probe-anamorphic.mov",
                    Clips.pattern + Clips.tone + [
                        "-vf", "setsar=4/3", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", "-metadata:s:a:0", "language=fra",
                        "-shortest",
                    ])
            }),
    ]

    @Test("the description is FFmpeg's", arguments: cases)
    func sameAsFFmpeg(_ c: Case) throws {
        let path = try c.clip()
        let native = try #require(try MovieProbe.probe(.file(path), options: VideoOptions()), "Sepia's reader gave up on \(c.name)")
        let reference = try VideoProbe.probe(.file(path), options: VideoOptions()).info
        var ours = native.info
        // The container's overall bit rate is FFmpeg's estimate from all streams; the streams' own rates agree.
        ours.bitRate = reference.bitRate
        if let a = ours.video.frameRate, let b = reference.video.frameRate, abs(a - b) < 1e-9 * b { ours.video.frameRate = b }
        for (label, a, b) in Self.fields(ours.video, reference.video) where a != b { Issue.record("\(c.name): \(label): ours \(a), FFmpeg's \(b)") }
        #expect(ours.video == reference.video)
        #expect(ours.audio == reference.audio)
        #expect(ours.metadata == reference.metadata)
        #expect(ours == reference)
    }

    static func fields<T>(_ a: T, _ b: T) -> [(String, String, String)] {
        zip(Mirror(reflecting: a).children, Mirror(reflecting: b).children).map { ($0.label ?? "?", "\($0.value)", "\($1.value)") }
    }

    @Test("fragmented movies, files without a moov and other containers are left to FFmpeg")
    func leftToFFmpeg() throws {
        let fragmented = try Clips.make(
            "probe-fragmented.mp4", Clips.pattern + ["-c:v", "libx264", "-movflags", "frag_keyframe+empty_moov"])
        #expect(try MovieProbe.probe(.file(fragmented), options: VideoOptions()) == nil)
        #expect(try VideoProbe.probe(path: fragmented).video.codec == "h264")
        #expect(try MovieProbe.probe(.file(try Clips.vp9WebM()), options: VideoOptions()) == nil)
        // MPEG-4 Part 2 and H.263 say their pixel shape and profile in the stream only.
        #expect(try MovieProbe.probe(.file(try Clips.mpeg4MP4()), options: VideoOptions()) == nil)
        #expect(try MovieProbe.probe(.file(try Clips.h263ThreeGP()), options: VideoOptions()) == nil)
        // A truncated movie whose moov was at the end: no moov, and the cut box says the file is incomplete.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Clips.make("probe-moov-last.mp4", Clips.pattern + ["-c:v", "libx264"])))
        let cut = Clips.folder.appendingPathComponent("probe-cut.mp4")
        try whole.prefix(whole.count / 2).write(to: cut)
        let error = try #require(throws: CodecError.self) { try MovieProbe.probe(.file(cut.path), options: VideoOptions()) }
        #expect(error.code == .truncatedData && error.reason.contains("no moov"), "\(error)")
    }

    @Test("limits hold as in FFmpeg's path: streams, frame size, duration")
    func limits() throws {
        let path = try Clips.h264MP4()
        var options = VideoOptions()
        options.maximumStreams = 1
        #expect(throws: CodecError.self) { try MovieProbe.probe(.file(path), options: options) }
        options = VideoOptions()
        options.maximumDuration = 1
        let error = try #require(throws: CodecError.self) { try MovieProbe.probe(.file(path), options: options) }
        #expect(error.code == .limitExceeded && error.reason.contains("longer than the limit"), "\(error)")
        options = VideoOptions()
        options.maximumDimension = 200
        #expect(throws: CodecError.self) { try MovieProbe.probe(.file(path), options: options) }
    }

    @Test("damaged headers never crash or hang the reader: bytes flipped, boxes cut, sizes changed")
    func damage() throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = try [Clips.quickTimeMetadata(), Clips.hevcPQ(), Clips.h264MP4()].map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        let moovs = seeds.map { HostileVideoTests.find("moov", in: $0) ?? 0 }
        var described = 0
        for round in 0..<600 {
            var bytes = seeds[round % seeds.count]
            // Damage where the headers are: the moov box (at the end of these files) and the first bytes.
            let moov = moovs[round % seeds.count]
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let at =
                    Bool.random(using: &generator)
                    ? Int.random(in: max(0, moov - 4)..<bytes.count, using: &generator) : Int.random(in: 0..<64, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
                case 1: bytes[at] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &generator)]
                default: bytes = Array(bytes.prefix(max(16, at)))
                }
                if bytes.count <= moov { break }
            }
            if let result = try? MovieProbe.probe(.memory(EncodedBytes(bytes)), options: VideoOptions()) {
                described += 1
                #expect(result.info.video.codedSize.width > 0)
                // The sample tables place samples within themselves, and a poster decoded from what they point
                // at ends in a frame or an error.
                if let index = result.samples {
                    for n in [0, 1, index.sampleCount / 2, index.sampleCount - 1] {
                        if let sample = index.sample(n) { #expect(sample.offset >= 0 && sample.size >= 0) }
                    }
                    _ = index.keyframe(near: 1)
                    if round % 4 == 0 { _ = try? VideoSource(bytes: EncodedBytes(bytes)).frame(size: IntSize(width: 32, height: 24)) }
                }
            }
        }
        #expect(described > 0, "no damaged copy was still described: the damage is too heavy to test the reader")
    }
}
