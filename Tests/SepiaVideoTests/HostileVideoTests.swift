import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import SepiaVideo
import Testing

/// Damaged and hostile files: each ends in a ``CodecError`` that names the file and what is wrong, quickly,
/// never in a crash or a hang.
@Suite("Hostile and damaged videos")
struct HostileVideoTests {
    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = Clips.folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The error opening `path` throws, checked to name the file; fails the test when it opens.
    static func failure(_ path: String, options: VideoOptions = VideoOptions(), poster: Bool = true) throws -> CodecError {
        let start = Date()
        defer { #expect(Date().timeIntervalSince(start) < 10, "\(path) took \(Date().timeIntervalSince(start)) s") }
        do {
            let video = try VideoSource(path: path, options: options)
            guard poster else { throw Clips.Failure(description: "\(path) opened") }
            _ = try video.frame()
        } catch let error as CodecError {
            #expect(error.file == path)
            #expect(error.description.hasPrefix(path + ": "))
            return error
        }
        Issue.record("\(path) decoded")
        throw Clips.Failure(description: "\(path) decoded")
    }

    /// Finds `type`'s box header in `bytes` (the first at or after `from`).
    static func find(_ type: String, in bytes: [UInt8], from: Int = 0) -> Int? {
        let pattern = Array(type.utf8)
        guard bytes.count >= 4 else { return nil }
        for i in max(4, from)..<(bytes.count - 3) where Array(bytes[i..<(i + 4)]) == pattern { return i - 4 }
        return nil
    }

    @Test("a truncated movie whose moov is at the end: no moov, the file is incomplete")
    func truncatedWithoutHeaders() throws {
        let whole = try Self.bytes(try Clips.h264MP4())
        let path = try Self.write(Array(whole.prefix(whole.count * 6 / 10)), "truncated-end.mp4")
        let error = try Self.failure(path)
        #expect(error.code == .truncatedData)
        #expect(error.format == .mp4)
        #expect(error.reason.contains("moov"), "\(error)")
    }

    @Test("a sample table that claims 2^64 bytes: the stream's bit rate is unknown, not an overflow")
    func hugeSampleSizes() throws {
        var bytes = try Self.bytes(try Clips.fastStart())
        // Every stsz says each of 4 294 967 295 samples has 4 294 967 295 bytes: their total times 8 bits overflows.
        var from = 0
        var patched = 0
        while let box = Self.find("stsz", in: bytes, from: from) {
            for offset in 8..<16 { bytes[box + 4 + offset] = 0xFF }
            from = box + 8
            patched += 1
        }
        #expect(patched >= 1)
        let path = try Self.write(bytes, "huge-sample-sizes.mp4")
        do {
            let info = try VideoProbe.probe(path: path)
            #expect(info.video.bitRate == nil && info.audio.allSatisfy { $0.bitRate == nil }, "\(info)")
        } catch {
            #expect(error.file == path, "\(error)")
        }
    }

    @Test("a truncated faststart movie: the headers read, the cut is reported, the poster still decodes from its first keyframe")
    func truncatedAfterHeaders() throws {
        let whole = try Self.bytes(try Clips.fastStart())
        let path = try Self.write(Array(whole.prefix(whole.count / 2)), "truncated-faststart.mp4")
        let video = try VideoSource(path: path)
        #expect(video.info.warnings.contains { $0.contains("truncated") && $0.contains("mdat") }, "\(video.info.warnings)")
        _ = try video.frame()
        // Cut inside the first keyframe's data: nothing decodes.
        let moov = try #require(Self.find("moov", in: whole))
        let mdat = try #require(Self.find("mdat", in: whole, from: moov + 8))
        let cut = try Self.write(Array(whole.prefix(mdat + 64)), "truncated-keyframe.mp4")
        let error = try Self.failure(cut)
        #expect([.truncatedData, .corruptData].contains(error.code), "\(error)")
    }

    @Test("garbage after a valid ftyp, in an EBML header, after a RIFF AVI header and in transport packets", arguments: ["mp4", "mkv", "avi", "ts"])
    func garbage(_ kind: String) throws {
        var generator = SeededGenerator(seed: 7)
        let noise = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let head: [UInt8]
        switch kind {
        case "mp4": head = [0, 0, 0, 20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isom".utf8)
        case "mkv": head = [0x1A, 0x45, 0xDF, 0xA3, 0x88, 0x42, 0x82, 0x88] + Array("matroska".utf8)
        case "avi": head = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("AVI LIST".utf8)
        default: head = [0x47, 0x40, 0x00, 0x10, 0x00, 0x00]
        }
        var bytes = head + noise
        if kind == "ts" {
            // Sync bytes where they belong, noise between them.
            for offset in stride(from: 0, to: bytes.count, by: 188) { bytes[offset] = 0x47 }
        }
        let path = try Self.write(bytes, "garbage.\(kind)")
        let error = try Self.failure(path)
        #expect([.corruptData, .truncatedData, .unsupportedFeature].contains(error.code), "\(error)")
    }

    @Test("random bytes and an empty file are not videos")
    func notVideos() throws {
        var generator = SeededGenerator(seed: 3)
        let noise = try Self.write((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }, "noise.bin")
        #expect(try Self.failure(noise).code == .unrecognizedFormat)
        let empty = try Self.write([], "empty.mp4")
        #expect(try Self.failure(empty).code == .emptyInput)
        let jpeg = try Self.write([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 60), "photo.jpg")
        let error = try Self.failure(jpeg)
        #expect(error.code == .unsupportedFormat)
        #expect(error.format == .jpeg)
        let missing = Clips.folder.appendingPathComponent("missing.mov").path
        #expect(try Self.failure(missing).code == .fileSystem)
        #expect(try Self.failure(Clips.folder.path).code == .fileSystem)
    }

    @Test("boxes whose sizes point backwards or past their parent, and absurd sample counts")
    func hostileBoxes() throws {
        let whole = try Self.bytes(try Clips.h264MP4())
        // A box inside moov whose size is smaller than its header: the parent cannot be walked.
        var backwards = whole
        let trak = try #require(Self.find("trak", in: whole))
        backwards.replaceSubrange(trak..<(trak + 4), with: [0, 0, 0, 3])
        let error1 = try Self.failure(try Self.write(backwards, "backwards.mp4"))
        #expect([.corruptData, .truncatedData].contains(error1.code), "\(error1)")

        // A sample size table claiming two billion samples in a small box.
        var samples = whole
        let stsz = try #require(Self.find("stsz", in: whole))
        samples.replaceSubrange((stsz + 16)..<(stsz + 20), with: [0x7F, 0xFF, 0xFF, 0xFF])
        let error2 = try Self.failure(try Self.write(samples, "samples.mp4"))
        #expect([.corruptData, .truncatedData].contains(error2.code), "\(error2)")

        // A time-to-sample table claiming 2^32 - 1 samples in one entry.
        var times = whole
        let stts = try #require(Self.find("stts", in: whole))
        times.replaceSubrange((stts + 16)..<(stts + 20), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let path3 = try Self.write(times, "times.mp4")
        do {
            _ = try VideoSource(path: path3).frame()
        } catch let error {
            #expect(error.file == path3)
        }

        // A chunk offset table pointing before the file's start and far past its end.
        var offsets = whole
        let stco = try #require(Self.find("stco", in: whole))
        let count = Int(offsets[stco + 12]) << 24 | Int(offsets[stco + 13]) << 16 | Int(offsets[stco + 14]) << 8 | Int(offsets[stco + 15])
        for i in 0..<min(count, 8) {
            offsets.replaceSubrange((stco + 16 + i * 4)..<(stco + 20 + i * 4), with: i % 2 == 0 ? [0, 0, 0, 1] : [0xFF, 0xFF, 0xFF, 0x00])
        }
        let error4 = try Self.failure(try Self.write(offsets, "offsets.mp4"))
        #expect([.corruptData, .truncatedData].contains(error4.code), "\(error4)")
    }

    @Test("a frame size in the header beyond the limits is refused before anything is decoded")
    func hugeFrame() throws {
        var whole = try Self.bytes(try Clips.h264MP4())
        // avc1's sample entry: 6 reserved bytes, data reference index, 16 bytes of pre-defined fields, then width and height.
        let avc1 = try #require(Self.find("avc1", in: whole))
        whole.replaceSubrange((avc1 + 32)..<(avc1 + 36), with: [0x7F, 0xFF, 0x7F, 0xFF])
        let path = try Self.write(whole, "huge.mp4")
        let info = try? VideoProbe.probe(path: path)
        // FFmpeg takes the size from the codec configuration when the sample entry disagrees; either way no
        // 32767×32767 frame is ever allocated.
        if let info { #expect(info.video.codedSize == IntSize(width: 320, height: 240)) }
        let small = VideoOptions(maximumFramePixels: 10_000)
        let error = try Self.failure(try Clips.h264MP4(), options: small)
        #expect(error.code == .tooManyPixels)
        #expect(error.reason.contains("320x240"))
    }

    @Test("limits: duration, streams, file size, time")
    func limits() throws {
        let clip = try Clips.h264MP4()
        let long = try Self.failure(clip, options: VideoOptions(maximumDuration: 1))
        #expect(long.code == .limitExceeded)
        #expect(long.reason.contains("longer than the limit"))
        let many = try Self.failure(try Clips.manyStreams(6), options: VideoOptions(maximumStreams: 4))
        #expect(many.code == .limitExceeded)
        #expect(many.reason.contains("streams"))
        let big = try Self.failure(clip, options: VideoOptions(maximumFileBytes: 1000))
        #expect(big.code == .fileTooLarge)
        let slow = try Self.failure(clip, options: VideoOptions(timeLimit: 1e-6))
        #expect(slow.code == .timedOut)
        #expect(slow.reason.contains("took longer than the limit"))
        // A stream count within the limit opens.
        #expect(try VideoProbe.probe(path: try Clips.manyStreams(6)).audio.count == 6)
    }

    @Test("bytes in memory read like the file")
    func memory() throws {
        let path = try Clips.vp9WebM()
        let bytes = EncodedBytes(try Self.bytes(path))
        let video = try VideoSource(bytes: bytes)
        #expect(video.file == nil)
        #expect(video.info == (try VideoProbe.probe(path: path)))
        #expect(try video.frame().bitmap == (try VideoSource(path: path).frame().bitmap))
        var cut = try Self.bytes(path)
        cut.removeLast(cut.count - 300)
        #expect(throws: CodecError.self) { try VideoSource(bytes: EncodedBytes(cut)).frame() }
    }
}

/// A small deterministic generator (SplitMix64), so the noise is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
