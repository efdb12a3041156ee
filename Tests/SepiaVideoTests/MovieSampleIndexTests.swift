import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaVideo

/// The sample tables read by Sepia place every sample where ffprobe's demuxer finds it, choose the keyframe
/// FFmpeg's index would, and the poster decoded from them is the one the demuxer's way decodes.
@Suite("Keyframes read from the sample tables")
struct MovieSampleIndexTests {
    /// ffprobe's packets of the first video stream, in file order: position, size, presentation time, keyframe.
    struct Packet: Equatable {
        var offset: Int
        var size: Int
        var time: Double
        var key: Bool
    }

    static func packets(_ path: String) throws -> [Packet] {
        let out = try TestVideos.run(
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,pos,size,flags", "-of", "csv=p=0", path],
            executable: "/usr/bin/ffprobe")
        return String(decoding: out, as: UTF8.self).split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4, let time = Double(f[0]), let size = Int(f[1]), let offset = Int(f[2]) else { return nil }
            return Packet(offset: offset, size: size, time: time, key: f[3].hasPrefix("K"))
        }
    }

    static let cases =
        MovieProbeTests.cases + [
            MovieProbeTests.Case(name: "a keyframe every second, 12 s", clip: Clips.keyframes),
            MovieProbeTests.Case(name: "moov first (faststart)", clip: Clips.fastStart),
            MovieProbeTests.Case(
                name: "B-frames and small chunks",
                clip: {
                    try Clips.make(
                        "index-bframes.mp4",
                        ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6"]
                            + ["-c:v", "libx264", "-bf", "3", "-g", "25", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-chunk_duration", "0.1"]
                            + Clips.bt709)
                }),
        ]

    @Test("every sample is where ffprobe reads it, and the keyframe chosen is the nearest of ffprobe's", arguments: cases)
    func sameAsFFprobe(_ c: MovieProbeTests.Case) throws {
        let path = try c.clip()
        let probed = try #require(try MovieProbe.probe(.file(path), options: VideoOptions()))
        let index = try #require(probed.samples, "no sample index for \(c.name)")
        let reference = try Self.packets(path)
        #expect(index.sampleCount == reference.count)
        for (n, packet) in reference.enumerated() {
            let sample = try #require(index.sample(n))
            #expect(sample.offset == packet.offset && sample.size == packet.size, "sample \(n): ours \(sample), ffprobe's \(packet)")
        }
        #expect(index.sample(reference.count) == nil)
        let keyframes = reference.enumerated().filter { $0.element.key }
        let duration = probed.info.duration ?? 2
        for t in [0, 0.4, 1, 1.5, duration / 2, duration * 0.9, duration] {
            let expected = try #require(keyframes.min { abs($0.element.time - t) < abs($1.element.time - t) })
            let chosen = try #require(index.keyframe(near: t))
            #expect(chosen.number == expected.offset, "at \(t) s: ours sample \(chosen.number), ffprobe's nearest keyframe \(expected.offset)")
            #expect(abs(chosen.time - max(0, expected.element.time)) < 1e-3, "at \(t) s: ours \(chosen.time) s, ffprobe's \(expected.element.time) s")
        }
    }

    @Test("the poster decoded from the tables is the demuxer's, pixel for pixel", arguments: cases)
    func samePoster(_ c: MovieProbeTests.Case) throws {
        let path = try c.clip()
        let video = try VideoSource(path: path)
        #expect(video.samples != nil)
        for size in [video.pixelSize, IntSize(width: 64, height: 48)] {
            var ours = [UInt8](repeating: 0, count: size.width * size.height * 3)
            var theirs = ours
            let demuxed = FrameGrabber(location: .file(path), info: video.info, options: video.options, startTime: video.startTime, samples: nil)
            let read = FrameGrabber(
                location: .file(path), info: video.info, options: video.options, startTime: video.startTime, samples: video.samples)
            let a = try ours.withUnsafeMutableBytes {
                try read.grab(at: video.posterTime, size: size, into: $0.baseAddress!, bytesPerRow: size.width * 3)
            }
            let b = try theirs.withUnsafeMutableBytes {
                try demuxed.grab(at: video.posterTime, size: size, into: $0.baseAddress!, bytesPerRow: size.width * 3)
            }
            #expect(ours == theirs, "\(c.name) at \(size.width)x\(size.height): the posters differ")
            #expect(abs(a.time - b.time) < 1e-3, "\(c.name): ours at \(a.time) s, the demuxer's at \(b.time) s")
        }
    }

    @Test("tables that point outside the file or disagree are not followed: the demuxer's way decides")
    func damagedTables() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Clips.keyframes())))
        // Boxes as found: size, type, version and flags, entry count, entries.
        let stco = try #require(HostileVideoTests.find("stco", in: whole))
        let stsc = try #require(HostileVideoTests.find("stsc", in: whole))
        // Every chunk past the end of the file: nothing is read there, and the demuxer's way refuses the file.
        var beyond = whole
        let chunks = Int(QuickTimeBoxes.be32(whole, stco + 12))
        #expect(chunks > 0)
        for i in 0..<chunks { beyond.replaceSubrange((stco + 16 + i * 4)..<(stco + 20 + i * 4), with: [0x7F, 0xFF, 0xFF, 0x00]) }
        let video = try VideoSource(bytes: EncodedBytes(beyond))
        let keyframe = try #require(video.samples?.keyframe(near: 1))
        #expect(keyframe.offset > beyond.count)
        #expect(throws: CodecError.self) { try video.frame(size: IntSize(width: 64, height: 48)) }
        // A sample-to-chunk table whose first run does not start at chunk 1 is not an index.
        var shifted = whole
        shifted.replaceSubrange((stsc + 16)..<(stsc + 20), with: [0, 0, 0, 2])
        let probed = try MovieProbe.probe(.memory(EncodedBytes(shifted)), options: VideoOptions())
        #expect(probed != nil && probed?.samples == nil)
        // Huge samples-per-chunk place nothing outside the tables.
        var huge = whole
        huge.replaceSubrange((stsc + 20)..<(stsc + 24), with: [0xFF, 0xFF, 0xFF, 0xFF])
        if let index = try MovieProbe.probe(.memory(EncodedBytes(huge)), options: VideoOptions())?.samples {
            for n in [0, 1, 100, index.sampleCount - 1] {
                if let sample = index.sample(n) { #expect(sample.offset >= 0 && sample.size >= 0) }
            }
        }
    }
}
