internal import CFFmpeg
import Foundation
public import SepiaCodecs
import SepiaImage

#if canImport(Glibc)
import Glibc
#endif

/// A video's playable version: what a browser's `<video>` plays everywhere — H.264 (through libx264) and AAC in
/// an MP4 whose index comes first (`faststart`, so playback starts before the whole file has arrived), scaled to
/// fit 1920×1080 in its own orientation, never enlarged, with square pixels and 8-bit 4:2:0. AAC audio is copied;
/// other audio is encoded again with FFmpeg's AAC encoder. The rotation (display matrix) and the colour
/// description are carried over. Made only when the original itself does not play (``needsPlayableVersion(_:)``).
///
/// ```swift
/// let info = try VideoProbe.probe(path: "clip.MTS")
/// if PlayableVideo.needsPlayableVersion(info) {
///     try PlayableVideo.encode(path: "clip.MTS", to: "clip.mp4") { done in print(done); return true }
/// }
/// ```
public enum PlayableVideo {
    /// How the playable version is encoded.
    public struct Settings: Sendable, Hashable {
        /// The largest longer side of the displayed picture.
        public var longSide = 1920
        /// The largest shorter side.
        public var shortSide = 1080
        /// libx264's constant rate factor: 23, its default, looks like the original at a phone's bit rate.
        public var constantRateFactor = 23
        /// libx264's preset: `veryfast` encodes several times faster than real time on two cores.
        public var preset = "veryfast"
        /// The AAC bit rate when the audio is encoded again.
        public var audioBitRate = 128_000
        /// Encoder and decoder threads; 0 lets FFmpeg choose (one per core).
        public var threads = 0

        /// The defaults above.
        public init() {}
    }

    /// Whether a browser cannot play the original as it is, so a playable version is needed. Plays as it is:
    /// H.264 in 8-bit 4:2:0 in MP4, M4V or QuickTime with AAC or MP3 audio (or none); VP8, VP9 or AV1 in WebM with
    /// Opus or Vorbis (or none). Everything else — HEVC, which most browsers on Linux and Windows do not decode,
    /// 10-bit H.264, MPEG-4 Part 2, MPEG-2, DV, Motion JPEG, ProRes, AVI, MPEG-TS, 3GP, Matroska — needs one.
    public static func needsPlayableVersion(_ info: VideoInfo) -> Bool {
        let audio = info.audio.first?.codec
        switch info.format {
        case .mp4, .quickTime:
            let eightBit420 = (info.video.bitDepth ?? 8) == 8 && ["yuv420p", "yuvj420p", nil].contains(info.video.pixelFormat)
            return !(info.video.codec == "h264" && eightBit420 && [nil, "aac", "mp3"].contains(audio))
        case .webm:
            return !(["vp8", "vp9", "av1"].contains(info.video.codec) && [nil, "opus", "vorbis"].contains(audio))
        default:
            return true
        }
    }

    /// The pixels of the frames the encode of `info`'s video decodes (frames × coded width × height), as its
    /// headers tell: from the sample table's count when there is one, else its duration and frame rate; nil when
    /// they do not say. What an encode costs is about proportional to it.
    public static func decodedPixels(_ info: VideoInfo) -> Int? {
        let pixels = Double(info.video.codedSize.width) * Double(info.video.codedSize.height)
        if let frames = info.video.frameCount { return Int(min(Double(frames) * pixels, 9e18)) }
        guard let duration = info.duration, let rate = info.video.frameRate else { return nil }
        return Int(min(duration * rate * pixels, 9e18))
    }

    /// The media type of the playable version.
    public static let mimeType = "video/mp4"

    /// What an encode used: the CPU time of its threads (the decoder's and the encoder's all counted), and the
    /// frames it decoded.
    public struct Usage: Sendable, Hashable {
        /// CPU seconds.
        public var cpuSeconds: Double
        /// Video frames decoded.
        public var frames: Int
        /// Their pixels: the frames' widths × heights, added up.
        public var decodedPixels: Int
    }

    /// Stops an encode from another thread (``encode(path:to:settings:options:cancellation:progress:)`` checks it
    /// before each packet and after each frame, so it ends within a frame), as a job does when its video is
    /// deleted or its server shuts down.
    public final class Cancellation: @unchecked Sendable {
        /// The limits the encode reads; only their cancellation flag changes once it runs, atomically in C.
        let limits: UnsafeMutablePointer<sepia_transcode_limits>

        /// A cancellation not yet requested.
        public init() {
            limits = .allocate(capacity: 1)
            limits.initialize(to: sepia_transcode_limits())
        }

        deinit {
            limits.deallocate()
        }

        /// Stops the encode (or the next one given this cancellation, at once).
        public func cancel() {
            sepia_transcode_cancel(limits)
        }
    }

    /// Encodes the video at `path` into a playable MP4 at `output`, written whole or not at all (a temporary file
    /// beside it, renamed at the end). `progress` is called about four times a second of decoded video with the
    /// fraction done (of the video's real duration: the span of its samples when the headers declare less);
    /// answering false, or `cancellation`, stops the encode, which then throws ``CodecError/Code/timedOut``.
    ///
    /// The probe's limits (`options`) apply to the input, and to the encode: it stops with
    /// ``CodecError/Code/limitExceeded`` when its threads have used more CPU time than
    /// ``VideoOptions/encodeCPUSeconds`` plus ``VideoOptions/encodeCPUSecondsPerGigapixel`` for each 10⁹ pixels
    /// of frames decoded so far, when the frames decoded add up to more pixels than the file's bytes allow
    /// (``VideoOptions/maximumDecodedPixelsPerByte``), or when a frame is shown past
    /// ``VideoOptions/maximumDuration``. There is no deadline: a long clip takes long.
    @discardableResult
    public static func encode(
        path: String, to output: String, settings: Settings = Settings(), options: VideoOptions = VideoOptions(),
        cancellation: Cancellation = Cancellation(), progress: @escaping (Double) -> Bool = { _ in true }
    ) throws(CodecError) -> Usage {
        MediaReadCounter.countProbe()
        let (info, input) = try VideoProbe.probe(.file(path), options: options)
        guard let codec = VideoCodecs.decodable.first(where: { VideoCodecs.shortName(AVCodecID($0.id)) == info.video.codec }) else {
            throw CodecError(
                .unsupportedFeature, format: info.format, "Sepia does not decode \(info.video.codecName) video, so it cannot make a playable version",
                file: path)
        }
        let decoder = codec.decoderNames.first { avcodec_find_decoder_by_name($0) != nil } ?? codec.decoderNames[0]
        input.setDeadline(0)
        let partial = output + ".partial-\(getpid())"
        var error = [CChar](repeating: 0, count: 512)
        let preset = settings.preset
        var c = sepia_transcode_settings(
            long_side: Int32(clamping: settings.longSide), short_side: Int32(clamping: settings.shortSide),
            crf: Int32(clamping: settings.constantRateFactor), preset: nil, audio_bit_rate: Int64(settings.audioBitRate),
            threads: Int32(clamping: settings.threads))
        let limits = cancellation.limits
        limits.pointee.cpu_seconds = max(0, options.encodeCPUSeconds)
        limits.pointee.cpu_seconds_per_gigapixel = max(0, options.encodeCPUSecondsPerGigapixel)
        limits.pointee.max_decoded_pixels = Int64(options.decodedPixelLimit(forFileOf: info.byteCount))
        limits.pointee.max_duration = Int64(min(max(0, options.maximumDuration) + 1, 1e12) * 1e6)
        var report = sepia_transcode_report()
        let box = ProgressBox(progress)
        let status = preset.withCString { presetName -> Int32 in
            c.preset = presetName
            return MediaInput.capturingLog {
                sepia_transcode(
                    input.handle, partial, decoder, &c, limits, &report,
                    { context, done, total in
                        guard let context else { return 0 }
                        let box = Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue()
                        return box.report(done: done, total: total) ? 0 : 1
                    }, Unmanaged.passUnretained(box).toOpaque(), &error, error.count)
            }.result
        }
        withExtendedLifetime(box) {}
        withExtendedLifetime(cancellation) {}
        let usage = Usage(cpuSeconds: report.cpu_seconds, frames: Int(report.frames), decodedPixels: Int(report.decoded_pixels))
        guard status >= 0 else {
            unlink(partial)
            throw stopped(report, usage: usage, status: status, error: error, info: info, input: input, options: options, file: path)
        }
        guard rename(partial, output) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw CodecError(.fileSystem, "cannot move the playable version into place: \(reason)", file: output)
        }
        return usage
    }

    /// The error of an encode that ended early with `status`.
    private static func stopped(
        _ report: sepia_transcode_report, usage: Usage, status: Int32, error: [CChar], info: VideoInfo, input: MediaInput,
        options: VideoOptions, file: String
    ) -> CodecError {
        let done = VideoProbe.clock(Double(report.decoded_time) / 1e6)
        let size = info.video.codedSize
        let frames = "\(VideoPlausibility.count(usage.frames)) frames of \(size.width)x\(size.height)"
        switch Int(report.stop) {
        case Int(SEPIA_TRANSCODE_CANCELLED):
            return CodecError(.timedOut, format: info.format, "the playable version's encode was stopped after \(done) of the video", file: file)
        case Int(SEPIA_TRANSCODE_CPU_BUDGET):
            let budget = options.encodeCPUSeconds + options.encodeCPUSecondsPerGigapixel * Double(usage.decodedPixels) / 1e9
            return CodecError(
                .limitExceeded, format: info.format,
                String(
                    format: "the playable version's encode used %.0f CPU seconds for %@ (%@ gigapixels), more than its budget of %.0f "
                        + "(%.0f, and %.0f per gigapixel decoded): the video costs far more to decode than its frames justify",
                    usage.cpuSeconds, frames, VideoPlausibility.gigapixels(Double(usage.decodedPixels)), budget, options.encodeCPUSeconds,
                    options.encodeCPUSecondsPerGigapixel),
                file: file)
        case Int(SEPIA_TRANSCODE_PIXELS):
            return CodecError(
                .limitExceeded, format: info.format,
                "the video decodes to more than \(VideoPlausibility.gigapixels(Double(usage.decodedPixels))) gigapixels (\(frames) by "
                    + "\(done)) from \(VideoPlausibility.megabytes(info.byteCount)) MB, more than "
                    + "\(VideoPlausibility.count(options.maximumDecodedPixelsPerByte)) pixels per byte of the file: its frames are a still "
                    + "picture repeated, or its container declares more than its bytes hold",
                file: file)
        case Int(SEPIA_TRANSCODE_DURATION):
            return CodecError(
                .limitExceeded, format: info.format,
                "the video's frames go on past \(VideoProbe.clock(options.maximumDuration)), the limit, although its headers declare "
                    + (info.duration.map { VideoProbe.clock($0) } ?? "no duration"),
                file: file)
        default:
            if status == sepia_averror_exit() { return input.error(status, log: nil, while: "cannot read the video") }
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return CodecError(.corruptData, format: info.format, "cannot make a playable version: \(reason)", file: file)
        }
    }

    /// Carries the progress closure through C.
    private final class ProgressBox {
        let progress: (Double) -> Bool
        init(_ progress: @escaping (Double) -> Bool) { self.progress = progress }
        func report(done: Int64, total: Int64) -> Bool {
            progress(total > 0 ? min(1, max(0, Double(done) / Double(total))) : 0)
        }
    }
}
