internal import CFFmpeg
import Foundation
import SepiaCodecs

/// Where a video's bytes are: a file (read as needed, never whole) or bytes in memory.
enum MediaLocation: Sendable {
    case file(String)
    case memory(EncodedBytes)

    /// The file's path, named in errors.
    var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}

/// One opened demuxer over a bounded reader of the file or the bytes: the container sniffed from the first
/// bytes chooses the demuxer (no other is tried), and every read is checked against the deadline and the read
/// budget. Used by one thread at a time; freed when released.
final class MediaInput {
    let handle: OpaquePointer
    let format: ImageFormat
    let location: MediaLocation
    let byteCount: Int
    /// The first bytes of the file.
    let head: [UInt8]
    private let options: VideoOptions
    /// The file descriptor, for the box reader; -1 for memory. Owned by `handle`.
    private let fd: Int32

    /// The decoders stream analysis may open: the video codecs cameras record and the audio codecs beside them.
    static let codecWhitelist =
        (VideoCodecs.decodable.map(\.decoderName) + [
            "aac", "aac_fixed", "mp3", "mp3float", "mp2", "mp2float", "ac3", "ac3_fixed", "eac3", "opus", "libopus", "vorbis", "flac", "alac",
            "amrnb", "amrwb", "pcm_s16le", "pcm_s16be", "pcm_s24le", "pcm_s24be", "pcm_s32le", "pcm_u8", "pcm_f32le", "pcm_alaw", "pcm_mulaw",
            "adpcm_ima_qt", "adpcm_ima_wav", "adpcm_ms", "pcm_bluray", "pcm_dvd",
        ]).joined(separator: ",")

    /// The start time, in seconds, of the stream at `index`: 0 when the container does not give one.
    func videoStartTime(index: Int) -> Double {
        guard index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index] else { return 0 }
        let tb = stream.pointee.time_base
        let first = stream.pointee.start_time
        return first != sepia_av_nopts_value() && tb.den > 0 ? Double(first) * Double(tb.num) / Double(tb.den) : 0
    }

    /// Loads FFmpeg's libraries the first time a video needs them in this process: everything to read a
    /// container, or with `codecsOnly` what decoding frames needs (libavutil, libswscale, libavcodec), for a
    /// keyframe read without a demuxer.
    static func loadFFmpeg(format: ImageFormat, file: String?, codecsOnly: Bool = false) throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 600)
        let loaded = codecsOnly ? sepia_ffmpeg_load_codecs(&reason, reason.count) : sepia_ffmpeg_load(&reason, reason.count)
        guard loaded == 0 else { return }
        let message = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let packages = codecsOnly ? "libavcodec59 and libswscale6" : "libavformat59, libavcodec59, libswscale6 and libswresample4"
        throw CodecError(
            .unsupportedFeature, format: format,
            "videos are read with FFmpeg's libraries, which could not be loaded (\(message)); install \(packages)",
            file: file)
    }

    /// Opens `location` and its demuxer. Throws a ``CodecError`` naming the file and what is wrong. A `format`
    /// known already (the file was sniffed when it was opened first) is not sniffed again. The opening counts in
    /// `counter` (``MediaReadCounter/demuxerOpens``).
    init(
        _ location: MediaLocation, options: VideoOptions, deadline: Int64, format known: ImageFormat? = nil,
        counter: MediaReadCounter? = MediaReadCounter.current
    ) throws(CodecError) {
        let file = location.path
        var size = 0
        var head: [UInt8] = []
        var descriptor: Int32 = -1
        switch location {
        case .file(let path):
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                throw CodecError(.fileSystem, "cannot open the file: \(String(cString: strerror(errno)))", file: path)
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw CodecError(.fileSystem, "cannot read the file's size: \(reason)", file: path)
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw CodecError(.fileSystem, (status.st_mode & S_IFMT) == S_IFDIR ? "is a folder, not a file" : "is not a regular file", file: path)
            }
            size = Int(status.st_size)
            head = [UInt8](repeating: 0, count: min(size, 512))
            let got = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            head = Array(head.prefix(max(0, got)))
        case .memory(let bytes):
            size = bytes.count
            head = bytes.withUnsafeBytes { Array($0.prefix(512)) }
        }
        let sniffed: ImageFormat
        do {
            sniffed = try Self.check(size: size, head: head, options: options, file: file, known: known)
        } catch {
            if descriptor >= 0 { close(descriptor) }
            throw error
        }
        do {
            try Self.loadFFmpeg(format: sniffed, file: file)
        } catch {
            if descriptor >= 0 { close(descriptor) }
            throw error
        }
        let input: OpaquePointer?
        switch location {
        case .file: input = sepia_av_input_new_fd(descriptor, Int64(size))
        case .memory(let bytes):
            input = bytes.withUnsafeBytes { raw in
                sepia_av_input_new_memory(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(raw.count))
            }
        }
        guard let input else { throw CodecError(.corruptData, format: sniffed, "out of memory opening the video", file: file) }
        // Every property is set from here on, so a throw runs deinit, which frees the input and closes the file.
        handle = input
        fd = descriptor
        format = sniffed
        self.location = location
        self.options = options
        byteCount = size
        self.head = head
        sepia_av_input_set_deadline(handle, deadline)
        var limits = sepia_av_limits(
            probe_bytes: Int64(max(32 << 10, options.probeBytes)), analyze_microseconds: Int64(max(0, options.analyzeDuration) * 1e6),
            max_streams: Int32(clamping: max(1, options.maximumStreams)), max_bytes_read: options.maximumBytesRead(forFileOf: size))
        counter?.countDemuxerOpen()
        let status = Self.capturingLog { sepia_av_input_open(handle, Self.demuxer(for: sniffed), Self.codecWhitelist, &limits) }
        if status.result < 0 {
            throw error(status.result, log: status.log, while: "the video is incomplete or damaged: its container cannot be read")
        }
    }

    /// The container of a file of `size` bytes starting with `head`, if it is a video within the size limit: the
    /// `known` one when the file was sniffed already, else what its first bytes say.
    static func check(size: Int, head: [UInt8], options: VideoOptions, file: String?, known: ImageFormat? = nil) throws(CodecError) -> ImageFormat {
        guard size > 0 else { throw CodecError(.emptyInput, "the input is empty (0 bytes)", file: file) }
        if size > options.maximumFileBytes {
            throw CodecError(.fileTooLarge, "the file has \(size) bytes, more than the limit of \(options.maximumFileBytes)", file: file)
        }
        guard let sniffed = known ?? ImageFormat.sniff(head) else {
            let signature = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw CodecError(
                .unrecognizedFormat,
                "not a video Sepia recognises (first bytes: \(signature)); supported containers are MP4, MOV, 3GP, MKV, WebM, AVI and MPEG-TS",
                file: file)
        }
        guard sniffed.isVideo else {
            throw CodecError(.unsupportedFormat, format: sniffed, "this is an image, not a video", file: file)
        }
        return sniffed
    }

    deinit {
        sepia_av_input_free(handle)
    }

    /// The FFmpeg demuxer for a container.
    static func demuxer(for format: ImageFormat) -> String {
        switch format {
        case .matroska, .webm: return "matroska"
        case .avi: return "avi"
        case .mpegTS: return "mpegts"
        default: return "mov"
        }
    }

    /// The opened format context.
    var context: UnsafeMutablePointer<AVFormatContext> {
        guard let context = sepia_av_input_format(handle) else { preconditionFailure("the input is opened in init") }
        return context
    }

    /// The file named in errors.
    var file: String? { location.path }

    /// Sets a new deadline (a poster decode after a probe gets its own time).
    func setDeadline(_ deadline: Int64) {
        sepia_av_input_set_deadline(handle, deadline)
    }

    /// Sets a new deadline and a new read budget: a poster decode on the input its probe opened is limited as
    /// one that opened the file itself.
    func restartLimits(deadline: Int64) {
        sepia_av_input_restart_limits(handle, deadline)
    }

    /// Reads packets to fill in stream parameters the headers lack.
    func findStreamInfo() throws(CodecError) {
        let status = Self.capturingLog { sepia_av_input_find_stream_info(handle) }
        if status.result < 0 {
            throw error(status.result, log: status.log, while: "cannot identify the streams")
        }
    }

    /// How the samples of the stream at `index` lie in the file, from the index FFmpeg's `mov` demuxer builds of
    /// every sample of an MP4, MOV or 3GP; nil for other containers (whose demuxers index keyframes, or nothing)
    /// and for a fragmented movie (indexed as its fragments are read).
    func sampleLayout(ofStream index: Int) -> SampleLayout? {
        guard [.mp4, .quickTime, .threeGPP].contains(format), index < Int(context.pointee.nb_streams),
            let stream = context.pointee.streams[index]
        else { return nil }
        var layout = sepia_av_sample_layout()
        guard sepia_av_sample_layout_of(stream, Int64(byteCount), &layout) == 0, layout.samples > 0 else { return nil }
        let tb = stream.pointee.time_base
        var duration: Double?
        if layout.first != sepia_av_nopts_value(), tb.num > 0, tb.den > 0, layout.samples > 1 {
            // The span from the first sample to the last, and the last one's share (the average sample duration).
            let span = Double(layout.last - layout.first) * Double(tb.num) / Double(tb.den)
            duration = span * Double(layout.samples) / Double(layout.samples - 1)
        }
        return SampleLayout(samples: Int(layout.samples), inFile: Int(layout.in_file), shared: Int(layout.shared), duration: duration)
    }

    /// Reads `count` bytes at `offset` of the file (for the few boxes FFmpeg does not report), or nil when they
    /// are not all there.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= byteCount - count else { return nil }
        switch location {
        case .memory(let bytes):
            return bytes.withUnsafeBytes { Array($0[offset..<(offset + count)]) }
        case .file:
            var buffer = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { pread(fd, $0 + done, count - done, off_t(offset + done)) } ?? -1
                }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return nil }
                done += n
            }
            return buffer
        }
    }

    // MARK: - Errors

    /// Runs `body` with FFmpeg's error messages on this thread captured; returns its result and the last message.
    static func capturingLog<R>(_ body: () -> R) -> (result: R, log: String?) {
        sepia_av_log_begin()
        defer { sepia_av_log_end() }
        let result = body()
        var buffer = [CChar](repeating: 0, count: 512)
        let length = sepia_av_log_last(&buffer, buffer.count)
        return (result, length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil)
    }

    /// FFmpeg's text for an error code.
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        sepia_av_error_string(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The ``CodecError`` for FFmpeg's `code`, returned while doing `what`: the deadline and the read budget are
    /// named as such, the end of the data as truncation, the rest as damage with FFmpeg's own words.
    func error(_ code: Int32, log: String?, while what: String) -> CodecError {
        let detail = log.map { ": " + $0 } ?? (code == sepia_averror_exit() ? "" : ": " + Self.describe(code))
        switch sepia_av_input_stop_reason(handle) {
        case Int32(SEPIA_AV_STOP_DEADLINE):
            return CodecError(
                .timedOut, format: format,
                "\(what): reading took longer than the limit of \(Self.seconds(options.timeLimit)) (the file is damaged or hostile)", file: file)
        case Int32(SEPIA_AV_STOP_READ_BUDGET):
            let read = sepia_av_input_bytes_read(handle)
            return CodecError(
                .limitExceeded, format: format,
                "\(what): the demuxer read \(read) bytes of a \(byteCount)-byte file, more than the limit (the structure makes it read in circles)",
                file: file)
        default:
            break
        }
        if let log, log.contains("max_streams") {
            return CodecError(
                .limitExceeded, format: format, "the file has more streams than the limit of \(options.maximumStreams)", file: file)
        }
        if code == sepia_averror_eof() {
            return CodecError(
                .truncatedData, format: format, "\(what): the file ends early (it is truncated)\(log.map { ": " + $0 } ?? "")", file: file)
        }
        if code == sepia_averror_enomem() {
            return CodecError(.corruptData, format: format, "\(what): the file declares sizes larger than memory allows\(detail)", file: file)
        }
        return CodecError(.corruptData, format: format, "\(what)\(detail)", file: file)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

/// The deadline `seconds` from now, on the monotonic clock, as the C layer takes it.
func deadline(after seconds: Double) -> Int64 {
    let span = seconds.isFinite && seconds > 0 ? min(seconds, 86_400) : 86_400
    return sepia_av_now_ns() + Int64(span * 1e9)
}
