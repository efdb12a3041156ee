internal import CFFmpeg
public import SepiaCodecs

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

    /// The media type of the playable version.
    public static let mimeType = "video/mp4"

    /// Encodes the video at `path` into a playable MP4 at `output`, written whole or not at all (a temporary file
    /// beside it, renamed at the end). `progress` is called about four times a second of video with the fraction
    /// done; answering false cancels the encode, which then throws ``CodecError/Code/timedOut``. The probe's limits
    /// (`options`) apply to the input; the encode itself has no deadline (a long clip takes long), only `progress`.
    public static func encode(
        path: String, to output: String, settings: Settings = Settings(), options: VideoOptions = VideoOptions(),
        progress: @escaping (Double) -> Bool = { _ in true }
    ) throws(CodecError) {
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
        let box = ProgressBox(progress)
        let status = preset.withCString { presetName -> Int32 in
            c.preset = presetName
            return MediaInput.capturingLog {
                sepia_transcode(
                    input.handle, partial, decoder, &c,
                    { context, done, total in
                        guard let context else { return 0 }
                        let box = Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue()
                        return box.report(done: done, total: total) ? 0 : 1
                    }, Unmanaged.passUnretained(box).toOpaque(), &error, error.count)
            }.result
        }
        withExtendedLifetime(box) {}
        guard status >= 0 else {
            unlink(partial)
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if status == sepia_averror_exit() {
                throw CodecError(.timedOut, format: info.format, "the playable version's encode was stopped", file: path)
            }
            throw CodecError(.corruptData, format: info.format, "cannot make a playable version: \(reason)", file: path)
        }
        guard rename(partial, output) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw CodecError(.fileSystem, "cannot move the playable version into place: \(reason)", file: output)
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
