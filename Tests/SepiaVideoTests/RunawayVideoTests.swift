import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Synchronization
import Testing

@testable import SepiaVideo

/// Videos made to cost far more than their bytes: a sample table that points hundreds of thousands of samples at
/// one frame's bytes, a still picture's skip frame repeated, samples that last longer than the headers say or
/// that all fall at one instant. The probe refuses them before a frame is decoded; the encode of a playable
/// version stops at its CPU budget, at the frames its bytes allow, past the duration limit, and when it is
/// cancelled; its progress is of the real duration. The files are made by scripts/sample-table-video.
@Suite("Videos that would make an encode run away")
struct RunawayVideoTests {
    static func folder() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-runaway-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The error probing `path` throws, on both of the probe's ways: Sepia's own reader of the `moov` box, and
    /// FFmpeg's demuxer, which the encode reads with. Each must be quick (a generous bound, against hangs).
    static func refusal(_ path: String, options: VideoOptions = VideoOptions()) throws -> CodecError {
        let start = ContinuousClock.now
        let native = try #require(throws: CodecError.self) { try VideoSource(path: path, options: options) }
        let demuxed = try #require(throws: CodecError.self) { try VideoProbe.probe(.file(path), options: options) }
        #expect(ContinuousClock.now - start < .seconds(30), "refusing took \(ContinuousClock.now - start)")
        #expect(native.code == demuxed.code, "\(native) / \(demuxed)")
        #expect(native.file == path && demuxed.file == path)
        return native
    }

    @Test("every sample after the first pointing at the second frame's bytes: refused by the probe, the encode never starts")
    func sharedSamples() throws {
        let path = try SampleTableVideos.make(.shared, width: 640, height: 360, samples: 20_000)
        let error = try Self.refusal(path)
        #expect(error.code == .corruptData)
        #expect(error.reason.contains("19 998 of the video's 20 000 samples at bytes another sample uses"), "\(error)")
        let output = Self.folder() + "/out.mp4"
        let start = ContinuousClock.now
        #expect(throws: CodecError.self) { try PlayableVideo.encode(path: path, to: output) }
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a still picture's skip frame repeated, each sample its own copy: more pixels than the bytes allow")
    func stillPictureRepeated() throws {
        let path = try SampleTableVideos.make(.copies, width: 1280, height: 720, samples: 20_000)
        let error = try Self.refusal(path)
        #expect(error.code == .limitExceeded)
        #expect(error.reason.contains("20 000 frames of 1280x720") && error.reason.contains("pixels per byte"), "\(error)")
        // Within the allowance any video may have, whatever its bytes, the same kind of file is read.
        var options = VideoOptions()
        options.decodedPixelAllowance = 20_000 * 1280 * 720
        _ = try VideoSource(path: path, options: options)
    }

    @Test("samples that last longer than the headers declare are held to the duration limit by their own durations")
    func longerThanDeclared() throws {
        let path = try SampleTableVideos.make(
            .repeated, width: 320, height: 240, samples: 1800, rate: "30", pixelFormat: "yuv420p", declaredSeconds: 10)
        var options = VideoOptions()
        options.maximumDuration = 30
        let error = try Self.refusal(path, options: options)
        #expect(error.code == .limitExceeded)
        #expect(error.reason.contains("samples last 1:00") && error.reason.contains("declare 10.0 s"), "\(error)")
    }

    @Test("twenty thousand samples at one instant: more frames a second than any camera records")
    func allAtOneInstant() throws {
        let path = try SampleTableVideos.make(.copies, width: 320, height: 240, samples: 20_000, seconds: 0, declaredSeconds: 1)
        let error = try Self.refusal(path)
        #expect(error.code == .corruptData)
        #expect(error.reason.contains("frames a second"), "\(error)")
    }

    @Test("the clips cameras and encoders make are plausible: no shared bytes, every sample in the file, few pixels per byte")
    func realClipsPass() throws {
        for clip in [try Clips.h264MP4(), try Clips.hevcMOV(), try Clips.fastStart(), try Clips.keyframes(), try Clips.quickTimeMetadata()] {
            let probed = try #require(try MovieProbe.probe(.file(clip), options: VideoOptions()), "\(clip)")
            let layout = try #require(probed.samples?.layout(fileSize: probed.info.byteCount), "\(clip)")
            #expect(layout.shared == 0 && layout.inFile == layout.samples && layout.samples > 0, "\(clip): \(layout)")
            let pixels = Double(layout.samples) * Double(probed.info.video.codedSize.width * probed.info.video.codedSize.height)
            #expect(pixels / Double(probed.info.byteCount) < 4000, "\(clip): \(pixels / Double(probed.info.byteCount)) pixels per byte")
            let demuxed = try VideoProbe.probe(.file(clip), options: VideoOptions())
            let index = try #require(demuxed.input.sampleLayout(ofStream: demuxed.info.video.index))
            #expect(index.samples == layout.samples && index.shared == 0, "\(clip): \(index) / \(layout)")
            #expect(abs((index.duration ?? 0) - (layout.duration ?? -1)) < 0.1, "\(clip): \(index) / \(layout)")
        }
        for clip in [try Clips.vp9MKV(), try Clips.mpeg4AVI(), try Clips.anamorphicMTS(), try Clips.h263ThreeGP(), try Clips.mpeg4MP4()] {
            _ = try VideoSource(path: clip)
        }
    }

    @Test("an encode over its CPU budget stops with the reason, and leaves nothing")
    func cpuBudget() throws {
        let path = try SampleTableVideos.make(.repeated, width: 640, height: 360, samples: 900, rate: "30", pixelFormat: "yuv420p")
        var options = VideoOptions()
        options.encodeCPUSeconds = 0.01
        options.encodeCPUSecondsPerGigapixel = 0.01
        let folder = Self.folder()
        let error = try #require(throws: CodecError.self) { try PlayableVideo.encode(path: path, to: folder + "/out.mp4", options: options) }
        #expect(error.code == .limitExceeded)
        #expect(error.reason.contains("CPU seconds") && error.reason.contains("budget"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // The budget counts the encode's own threads: within the default one the same video is made.
        let usage = try PlayableVideo.encode(path: path, to: folder + "/out.mp4")
        #expect(usage.frames == 900 && usage.decodedPixels == 900 * 640 * 360, "\(usage)")
        #expect(usage.cpuSeconds > 0, "\(usage)")
    }

    @Test("a cancelled encode stops within a frame or so, throws, and leaves nothing")
    func cancelled() async throws {
        let path = try SampleTableVideos.make(.repeated, width: 640, height: 360, samples: 3000, rate: "30", pixelFormat: "yuv420p")
        let folder = Self.folder()
        let cancellation = PlayableVideo.Cancellation()
        let reports = Mutex<[Double]>([])
        let started = ContinuousClock.now
        let outcome: Result<PlayableVideo.Usage, CodecError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                do throws(CodecError) {
                    let usage = try PlayableVideo.encode(path: path, to: folder + "/out.mp4", cancellation: cancellation) { done in
                        reports.withLock { $0.append(done) }
                        if done > 0.01 { cancellation.cancel() }
                        return true
                    }
                    continuation.resume(returning: .success(usage))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("the encode was not stopped: \(outcome)")
            return
        }
        #expect(error.code == .timedOut && error.reason.contains("stopped"), "\(error)")
        let last = reports.withLock { $0.last ?? 1 }
        #expect(last < 0.2, "it went on to \(last) after the cancellation at 0.01")
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("progress is of the real duration: samples that last a minute under headers that declare 2 s")
    func realProgress() throws {
        let path = try SampleTableVideos.make(
            .repeated, width: 320, height: 240, samples: 1800, rate: "30", pixelFormat: "yuv420p", declaredSeconds: 2)
        var reports: [Double] = []
        try PlayableVideo.encode(path: path, to: Self.folder() + "/out.mp4") { done in
            reports.append(done)
            return true
        }
        #expect(reports.last == 1 && reports == reports.sorted(), "\(reports)")
        // Reported about four times a second of video, from 0: a quarter of the way is a quarter of a minute in.
        let early = reports.filter { $0 < 1 }
        #expect(early.count > 100, "\(early.count) reports")
        #expect(early.allSatisfy { $0 < 1 } && (early.dropFirst(10).first ?? 1) < 0.1, "\(reports.prefix(20))")
    }

    /// A Matroska clip whose Segment's Duration says `declared` seconds while its blocks last `seconds`: a
    /// container without a sample table, whose frames the probe can only estimate.
    static func matroska(seconds: Int, declared: Double) throws -> String {
        let clip = try Clips.make(
            "runaway-\(seconds)s.mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=\(seconds)", "-c:v", "libx264", "-g", "30"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        // Duration (0x4489), an 8-byte float in the timecode scale (ms).
        let pattern: [UInt8] = [0x44, 0x89, 0x88]
        let at = try #require((0..<(bytes.count - 11)).first { Array(bytes[$0..<($0 + 3)]) == pattern })
        let value = (declared * 1000).bitPattern
        for i in 0..<8 { bytes[at + 3 + i] = UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64(i))) }
        let path = Clips.folder.appendingPathComponent("runaway-\(seconds)s-declared-\(declared).mkv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    @Test("without a sample table the encode counts what it decodes: it stops past the duration limit, and past the frames the bytes allow")
    func containerThatUnderstates() throws {
        let path = try Self.matroska(seconds: 12, declared: 1)
        let declared = try VideoProbe.probe(path: path)
        #expect(abs((declared.duration ?? 0) - 1) < 0.1, "the probe believes the container: \(declared.duration ?? 0)")
        let folder = Self.folder()

        var options = VideoOptions()
        options.maximumDuration = 4
        let late = try #require(throws: CodecError.self) { try PlayableVideo.encode(path: path, to: folder + "/a.mp4", options: options) }
        #expect(late.code == .limitExceeded && late.reason.contains("past 4.0 s"), "\(late)")

        options = VideoOptions()
        options.maximumDecodedPixelsPerByte = 0
        options.decodedPixelAllowance = 3 * 30 * 320 * 240
        let many = try #require(throws: CodecError.self) { try PlayableVideo.encode(path: path, to: folder + "/b.mp4", options: options) }
        #expect(many.code == .limitExceeded && many.reason.contains("frames of 320x240"), "\(many)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
