internal import CFFmpeg
import Foundation
import SepiaCodecs
import SepiaImage

/// Decodes one frame of a video, the poster: the keyframe nearest the chosen time, converted to 8-bit sRGB
/// RGB at the size the render asks for by swscale (scaling, the YUV matrix and range, and the sample aspect
/// ratio in one pass), HDR tone-mapped.
struct FrameGrabber {
    let location: MediaLocation
    let info: VideoInfo
    let options: VideoOptions
    /// The video stream's first timestamp, in seconds (poster times count from it).
    let startTime: Double
    /// Where the samples of an MP4 or MOV file are, when Sepia read its headers: the keyframe is then read
    /// from there and decoded by libavcodec alone, without a demuxer.
    let samples: MovieSampleIndex?
    /// The demuxer the video's probe opened, taken by the first grab that needs a demuxer instead of opening
    /// the file again.
    var kept: KeptDemuxer?
    /// Where a demuxer opened here counts (the counter of the task that opened the video); by default the
    /// current task's.
    var counter: MediaReadCounter?
    /// How many times smaller still the picture is shown than the size a grab converts to: 2 when the engine
    /// resamples a reduced decode further (it always makes the last 2x or more), else 1.
    var furtherReduction: Double = 1

    /// What one grab delivers.
    struct Result {
        /// The frame's time, in seconds from the start.
        var time: Double
        /// Problems met that did not stop the decode.
        var warnings: [String]
    }

    var format: ImageFormat { info.format }
    var file: String? { location.path }

    /// Decodes the poster at `time` into `base` (`size.height` rows of `size.width` RGB pixels, `bytesPerRow`
    /// apart). If no frame can be decoded there, the first keyframe is tried before giving up.
    func grab(at time: Double, size: IntSize, into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) -> Result {
        if let samples {
            do {
                if let result = try grabSample(samples, at: time, size: size, into: base, bytesPerRow: bytesPerRow) { return result }
            } catch  where error.code == .corruptData || error.code == .truncatedData || error.code == .unsupportedFeature {
                // What the tables point at does not decode: FFmpeg's demuxer reads the file as it sees it.
            }
        }
        do {
            return try grabOnce(at: time, size: size, into: base, bytesPerRow: bytesPerRow)
        } catch  where time > 0 && (error.code == .corruptData || error.code == .truncatedData) {
            var result = try grabOnce(at: 0, size: size, into: base, bytesPerRow: bytesPerRow)
            result.warnings.append("no frame could be decoded at \(String(format: "%.2f", time)) s (\(error.reason)); the first frame is shown")
            return result
        }
    }

    private func grabOnce(at time: Double, size: IntSize, into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) -> Result {
        let end = deadline(after: options.timeLimit)
        let input: MediaInput
        if let taken = kept?.take(deadline: end) {
            input = taken
        } else {
            input = try MediaInput(location, options: options, deadline: end, format: format, counter: counter ?? MediaReadCounter.current)
        }
        let context = input.context
        let index = info.video.index
        guard index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index],
            stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        else {
            throw CodecError(.corruptData, format: format, "the video stream is no longer where the probe found it", file: file)
        }
        for i in 0..<Int(context.pointee.nb_streams) where i != index {
            context.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
        }
        let decoder = try Decoder(
            stream: stream, input: input, options: options, shrinking: Self.shrinkFactor(info.video.squarePixelSize, to: size) * furtherReduction)
        try seek(input, stream, to: time)
        var warnings: [String] = []
        let frame = try decoder.decodeFirstKeyframe(input: input, stream: stream, warnings: &warnings)
        defer {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
        }
        let par = stream.pointee.codecpar.pointee
        let colour = StreamColour(
            space: par.color_space, fullRange: par.color_range == AVCOL_RANGE_UNSPECIFIED ? nil : par.color_range == AVCOL_RANGE_JPEG,
            maxContentLight: sepia_av_stream_max_cll(stream), masteringPeak: sepia_av_stream_mastering_peak(stream))
        try convert(frame, colour: colour, size: size, into: base, bytesPerRow: bytesPerRow, warnings: &warnings)
        let tb = stream.pointee.time_base
        let timestamp = sepia_av_frame_timestamp(frame)
        let seconds = timestamp == sepia_av_nopts_value() || tb.den == 0 ? time : Double(timestamp) * Double(tb.num) / Double(tb.den) - startTime
        return Result(time: max(0, seconds), warnings: warnings)
    }

    /// The codecs whose keyframes are decoded straight from the sample tables, with their configuration record.
    private static let sampleCodecs: [String: AVCodecID] = [
        "h264": AV_CODEC_ID_H264, "hevc": AV_CODEC_ID_HEVC, "av1": AV_CODEC_ID_AV1, "vp9": AV_CODEC_ID_VP9,
    ]

    /// The largest sample read for a poster (a 4K keyframe is a few MB).
    static let maximumSampleBytes = 64 << 20

    /// Decodes the keyframe nearest `time` from where the sample tables put it, with libavcodec alone. Nil when
    /// the tables do not place it within the file (the demuxer's way is taken then).
    private func grabSample(
        _ samples: MovieSampleIndex, at time: Double, size: IntSize, into base: UnsafeMutableRawPointer, bytesPerRow: Int
    ) throws(CodecError) -> Result? {
        guard let codecID = Self.sampleCodecs[info.video.codec], let keyframe = samples.keyframe(near: time) else { return nil }
        let end = deadline(after: options.timeLimit)
        func checkTime() throws(CodecError) {
            guard sepia_av_now_ns() > end else { return }
            throw CodecError(
                .timedOut, format: format,
                "cannot decode the keyframe: it took longer than the limit of \(MediaInput.seconds(options.timeLimit)) (the file is damaged or hostile)",
                file: file)
        }
        let reader = try ByteReader(location)
        func bytes(of sample: MovieSampleIndex.Sample) -> [UInt8]? {
            guard sample.size > 0, sample.size <= Self.maximumSampleBytes, sample.offset <= reader.size - sample.size else { return nil }
            return reader.read(at: sample.offset, count: sample.size)
        }
        guard let first = bytes(of: keyframe) else { return nil }
        try MediaInput.loadFFmpeg(format: format, file: file, codecsOnly: true)
        var warnings: [String] = []
        let configuration = codecID == AV_CODEC_ID_VP9 ? [] : samples.configuration
        func decode(_ packets: [(bytes: [UInt8], timestamp: Int64)]) throws(CodecError) -> UnsafeMutablePointer<AVFrame> {
            let decoder = try Decoder(
                codecID: codecID, configuration: configuration, size: info.video.codedSize, timescale: samples.timescale, format: format,
                file: file, options: options, shrinking: Self.shrinkFactor(info.video.squarePixelSize, to: size) * furtherReduction)
            return try decoder.decode(packets, warnings: &warnings)
        }
        try checkTime()
        var frame = try decode([(first, keyframe.timestamp)])
        // An interlaced H.264 keyframe may be one field, its other field the next sample: decode both.
        if codecID == AV_CODEC_ID_H264 && sepia_av_frame_is_interlaced(frame) != 0, let next = samples.sample(keyframe.number + 1),
            let second = bytes(of: next)
        {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            frame = try decode([(first, keyframe.timestamp), (second, keyframe.timestamp + 1)])
        }
        defer {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
        }
        try checkTime()
        let colour = StreamColour(
            space: info.video.matrix.flatMap { name in MovieProbe.matrixNames.first { $0.value == name }.map { AVColorSpace(UInt32($0.key)) } }
                ?? AVCOL_SPC_UNSPECIFIED,
            fullRange: info.video.fullRange, maxContentLight: info.video.maxContentLightLevel, masteringPeak: info.video.masteringPeakLuminance)
        try convert(frame, colour: colour, size: size, into: base, bytesPerRow: bytesPerRow, warnings: &warnings)
        return Result(time: keyframe.time, warnings: warnings)
    }

    /// How many times smaller than the frame the poster is, along its shorter ratio.
    static func shrinkFactor(_ frame: IntSize, to poster: IntSize) -> Double {
        guard poster.width > 0, poster.height > 0 else { return 1 }
        return min(Double(frame.width) / Double(poster.width), Double(frame.height) / Double(poster.height))
    }

    /// Positions the demuxer on the keyframe nearest `time` (from the index, when the container has one), or
    /// the last keyframe before it. Time 0 needs no seek.
    private func seek(_ input: MediaInput, _ stream: UnsafeMutablePointer<AVStream>, to time: Double) throws(CodecError) {
        guard time > 0 else { return }
        let tb = stream.pointee.time_base
        guard tb.num > 0, tb.den > 0 else { return }
        func ticks(_ seconds: Double) -> Int64 {
            let value = (seconds + startTime) * Double(tb.den) / Double(tb.num)
            return value.isFinite ? Int64(max(-9e18, min(9e18, value.rounded()))) : 0
        }
        var target = ticks(time)
        if sepia_av_index_entry_count(stream) > 0 {
            var first: Int32 = 0
            let point = sepia_av_keyframe_seek_point(stream, target, info.duration.map { ticks($0) } ?? Int64.max, &first)
            if first != 0 { return }  // the first keyframe: where the demuxer already is
            if point != sepia_av_nopts_value() { target = point }
        }
        let status = MediaInput.capturingLog { av_seek_frame(input.context, Int32(stream.pointee.index), target, AVSEEK_FLAG_BACKWARD) }
        if status.result < 0 {
            // A stream that cannot seek is read from the start, where the demuxer is.
            if sepia_av_input_stop_reason(input.handle) != Int32(SEPIA_AV_STOP_NONE) {
                throw input.error(status.result, log: status.log, while: "cannot seek to \(String(format: "%.2f", time)) s")
            }
        }
    }

    /// What the container says of the stream's colour, for frames that do not say it themselves.
    struct StreamColour {
        /// The YUV matrix (unspecified when not said).
        var space: AVColorSpace
        /// Full or video range, nil when not said.
        var fullRange: Bool?
        /// MaxCLL and the mastering display's peak, in cd/m² (0 or nil when not said).
        var maxContentLight: Double?
        var masteringPeak: Double?
    }

    /// Converts `frame` to 8-bit sRGB RGB at `size`: SDR straight through swscale, HDR through 16-bit RGB and
    /// the tone mapper.
    private func convert(
        _ frame: UnsafeMutablePointer<AVFrame>, colour: StreamColour, size: IntSize, into base: UnsafeMutableRawPointer,
        bytesPerRow: Int, warnings: inout [String]
    ) throws(CodecError) {
        let f = frame.pointee
        try options.checkFrameSize(width: Int(f.width), height: Int(f.height), format: format, file: file)
        if Int(f.width) != info.video.codedSize.width || Int(f.height) != info.video.codedSize.height {
            warnings.append(
                "the frame is \(f.width)x\(f.height), the container declares \(info.video.codedSize.width)x\(info.video.codedSize.height)")
        }
        let sourceFormat = AVPixelFormat(f.format)
        let range = f.color_trc != AVCOL_TRC_UNSPECIFIED ? StreamInspector.dynamicRange(f.color_trc) : info.video.dynamicRange
        let shrinking = Int(size.width) * Int(size.height) < Int(f.width) * Int(f.height)
        let flags = (shrinking ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        let target = range.isHDR ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24
        guard let scaler = sws_getContext(f.width, f.height, sourceFormat, Int32(size.width), Int32(size.height), target, Int32(flags), nil, nil, nil)
        else {
            let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "unknown"
            throw CodecError(.unsupportedFeature, format: format, "cannot convert frames of pixel format \(name)", file: file)
        }
        defer { sws_freeContext(scaler) }
        // The YUV matrix and range: the frame's tags, else the stream's, else BT.601 below 720 lines and BT.709
        // above (what players assume); video range unless said otherwise.
        var space = f.colorspace
        if space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RESERVED {
            space = colour.space
        }
        if space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RESERVED {
            space = f.height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        }
        var fullRange = f.color_range == AVCOL_RANGE_JPEG
        if f.color_range == AVCOL_RANGE_UNSPECIFIED {
            fullRange = colour.fullRange == true || Self.isFullRangeFormat(sourceFormat)
        }
        let isRGB = av_pix_fmt_desc_get(sourceFormat).map { Int32($0.pointee.flags) & Int32(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        if !isRGB {
            _ = sws_setColorspaceDetails(
                scaler, sws_getCoefficients(Int32(space.rawValue)), fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        if !range.isHDR {
            let rows = sepia_sws_scale_frame(scaler, frame, base.assumingMemoryBound(to: UInt8.self), Int32(bytesPerRow))
            guard rows == Int32(size.height) else {
                throw CodecError(.corruptData, format: format, "the frame could not be converted (\(rows) of \(size.height) rows)", file: file)
            }
            return
        }
        // HDR: 16-bit RGB, then tone-mapped row by row.
        let peak = hdrPeak(frame: frame, colour: colour, range: range)
        let mapper = ToneMapper(range: range, peakLuminance: peak, primaries: Self.primariesName(f.color_primaries) ?? info.video.primaries)
        var wide = [UInt16](repeating: 0, count: size.width * 3 * size.height)
        let rows = wide.withUnsafeMutableBytes { raw -> Int32 in
            guard let destination = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return -1 }
            return sepia_sws_scale_frame(scaler, frame, destination, Int32(size.width * 6))
        }
        guard rows == Int32(size.height) else {
            throw CodecError(.corruptData, format: format, "the frame could not be converted (\(rows) of \(size.height) rows)", file: file)
        }
        wide.withUnsafeBufferPointer { buffer in
            guard let source = buffer.baseAddress else { return }
            for y in 0..<size.height {
                mapper.map(source + y * size.width * 3, width: size.width, into: (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// The luminance HDR is tone-mapped from, in cd/m²: MaxCLL, else the mastering display's peak (frame, then
    /// stream), else the assumed peak; HLG uses the assumed display peak for its OOTF.
    private func hdrPeak(frame: UnsafeMutablePointer<AVFrame>, colour: StreamColour, range: DynamicRange) -> Double {
        if range == .hlg { return options.assumedPeakLuminance }
        for value in [
            sepia_av_frame_max_cll(frame), colour.maxContentLight ?? 0, sepia_av_frame_mastering_peak(frame), colour.masteringPeak ?? 0,
        ] where value > 0 {
            return value
        }
        return options.assumedPeakLuminance
    }

    static func primariesName(_ p: AVColorPrimaries) -> String? {
        guard p != AVCOL_PRI_UNSPECIFIED, p != AVCOL_PRI_RESERVED, p != AVCOL_PRI_RESERVED0, let name = av_color_primaries_name(p) else { return nil }
        return String(cString: name)
    }

    /// The deprecated `yuvj*` formats of Motion JPEG carry full-range samples.
    static func isFullRangeFormat(_ format: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(format)
    }
}

/// A decoder for one video stream, freed when released.
private final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let codecID: AVCodecID
    let format: ImageFormat
    let file: String?

    init(stream: UnsafeMutablePointer<AVStream>, input: MediaInput, options: VideoOptions, shrinking: Double) throws(CodecError) {
        guard let par = stream.pointee.codecpar else {
            throw CodecError(.corruptData, format: input.format, "the video stream has no codec parameters", file: input.file)
        }
        codecID = par.pointee.codec_id
        format = input.format
        file = input.file
        guard let codec = VideoCodecs.decoder(for: codecID) else {
            throw CodecError(
                .unsupportedFeature, format: input.format,
                "the video codec \(VideoCodecs.displayName(codecID)) is not one Sepia decodes (H.264, HEVC, AV1, VP8, VP9, MPEG-4 Part 2, H.263, MPEG-1/2, Motion JPEG, DV, ProRes)",
                file: input.file)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw CodecError(.corruptData, format: input.format, "out of memory creating the decoder", file: input.file)
        }
        self.context = context
        if avcodec_parameters_to_context(context, par) < 0 {
            throw CodecError(.corruptData, format: input.format, "the stream's codec parameters are invalid", file: input.file)
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        try open(codec, options: options, shrinking: shrinking)
    }

    /// A decoder of `codecID` given its configuration record, for samples read without a demuxer.
    init(
        codecID: AVCodecID, configuration: [UInt8], size: IntSize, timescale: UInt32, format: ImageFormat, file: String?, options: VideoOptions,
        shrinking: Double
    ) throws(CodecError) {
        self.codecID = codecID
        self.format = format
        self.file = file
        guard let codec = VideoCodecs.decoder(for: codecID) else {
            throw CodecError(
                .unsupportedFeature, format: format, "the video codec \(VideoCodecs.displayName(codecID)) is not one Sepia decodes", file: file)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw CodecError(.corruptData, format: format, "out of memory creating the decoder", file: file)
        }
        self.context = context
        let status = configuration.withUnsafeBufferPointer { sepia_av_codec_set_extradata(context, $0.baseAddress, Int32(clamping: $0.count)) }
        guard status >= 0 else { throw CodecError(.corruptData, format: format, "out of memory creating the decoder", file: file) }
        context.pointee.width = Int32(clamping: size.width)
        context.pointee.height = Int32(clamping: size.height)
        context.pointee.pkt_timebase = AVRational(num: 1, den: Int32(clamping: timescale))
        try open(codec, options: options, shrinking: shrinking)
    }

    private func open(_ codec: UnsafePointer<AVCodec>, options: VideoOptions, shrinking: Double) throws(CodecError) {
        // One frame is decoded, so threads that each take a frame would only add latency: slices (and HEVC's
        // wavefronts) are decoded in parallel instead.
        context.pointee.thread_count = Int32(min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)))
        context.pointee.thread_type = FF_THREAD_SLICE
        context.pointee.max_pixels = Int64(options.maximumFramePixels)
        // A poster a quarter of the frame's size or less is averaged from 16 or more pixels each: the deblocking
        // filter's smoothing of block edges does not survive that, so it is skipped, as libjpeg's scaled IDCT
        // skips the detail a reduced decode cannot show.
        if shrinking >= 4 {
            context.pointee.skip_loop_filter = AVDISCARD_ALL
        }
        let status = MediaInput.capturingLog { avcodec_open2(context, codec, nil) }
        if status.result < 0 {
            throw CodecError(
                .unsupportedFeature, format: format,
                "cannot open the \(VideoCodecs.displayName(codecID)) decoder: \(status.log ?? MediaInput.describe(status.result))", file: file)
        }
    }

    /// Decodes `packets` (a keyframe, and the sample after it when that holds its second field) and drains the
    /// decoder: the keyframe's picture.
    func decode(_ packets: [(bytes: [UInt8], timestamp: Int64)], warnings: inout [String]) throws(CodecError) -> UnsafeMutablePointer<AVFrame> {
        try withPacketAndFrame { packet, frame throws(CodecError) in
            var lastError: (code: Int32, log: String?)?
            for (i, item) in packets.enumerated() {
                let filled = item.bytes.withUnsafeBufferPointer {
                    sepia_av_packet_fill(packet, $0.baseAddress, Int32(clamping: $0.count), item.timestamp, i == 0 ? 1 : 0)
                }
                guard filled >= 0 else { throw CodecError(.corruptData, format: format, "out of memory", file: file) }
                let send = MediaInput.capturingLog { avcodec_send_packet(context, packet) }
                av_packet_unref(packet)
                if send.result < 0 && send.result != sepia_averror_eagain() { lastError = (send.result, send.log) }
            }
            _ = avcodec_send_packet(context, nil)
            let received = MediaInput.capturingLog { avcodec_receive_frame(context, frame) }
            if received.result >= 0 {
                if let lastError { warnings.append("damaged data in the keyframe: \(lastError.log ?? MediaInput.describe(lastError.code))") }
                return
            }
            let reason = lastError.map { $0.log ?? MediaInput.describe($0.code) } ?? received.log ?? MediaInput.describe(received.result)
            throw CodecError(.corruptData, format: format, "cannot decode the keyframe: \(reason)", file: file)
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Reads packets from the demuxer's position to the first keyframe of `stream` and decodes it. H.264 and
    /// MPEG-2 get the packet after it too (it may hold the keyframe's second field); then the decoder is drained,
    /// so a codec that holds frames back for reordering gives the keyframe up at once.
    func decodeFirstKeyframe(
        input: MediaInput, stream: UnsafeMutablePointer<AVStream>, warnings: inout [String]
    ) throws(CodecError)
        -> UnsafeMutablePointer<AVFrame>
    {
        try withPacketAndFrame { packet, frame throws(CodecError) in
            let index = stream.pointee.index
            let secondPacket = codecID == AV_CODEC_ID_H264 || codecID == AV_CODEC_ID_MPEG2VIDEO
            var sent = 0
            var skipped = 0
            var skippedBytes = 0
            var ended = false
            var lastError: (code: Int32, log: String?)?
            while !ended {
                let read = MediaInput.capturingLog { av_read_frame(input.context, packet) }
                if read.result < 0 {
                    if read.result == sepia_averror_eof() {
                        ended = true
                        break
                    }
                    throw input.error(read.result, log: read.log, while: "cannot read the video's packets")
                }
                defer { av_packet_unref(packet) }
                guard packet.pointee.stream_index == index else { continue }
                if sent == 0 && packet.pointee.flags & AV_PKT_FLAG_KEY == 0 {
                    skipped += 1
                    skippedBytes += Int(packet.pointee.size)
                    if skipped > 3000 || skippedBytes > 64 << 20 {
                        throw CodecError(.corruptData, format: format, "no keyframe in the \(skipped) packets after the seek point", file: file)
                    }
                    continue
                }
                let send = MediaInput.capturingLog { avcodec_send_packet(context, packet) }
                if send.result < 0 && send.result != sepia_averror_eagain() {
                    lastError = (send.result, send.log)
                    if sent == 0 { continue }  // a damaged keyframe: try the next
                } else {
                    sent += 1
                }
                let received = MediaInput.capturingLog { avcodec_receive_frame(context, frame) }
                if received.result >= 0 {
                    if let lastError { warnings.append("damaged data before the keyframe: \(lastError.log ?? MediaInput.describe(lastError.code))") }
                    return
                }
                if received.result != sepia_averror_eagain() {
                    lastError = (received.result, received.log)
                }
                if sent >= (secondPacket ? 2 : 1) { break }
            }
            if input.stopped {
                throw input.error(sepia_averror_exit(), log: nil, while: "cannot read the video's packets")
            }
            // Drain: the frames held back come out.
            _ = avcodec_send_packet(context, nil)
            let drained = MediaInput.capturingLog { avcodec_receive_frame(context, frame) }
            if drained.result >= 0 {
                return
            }
            if sent == 0 {
                if let lastError {
                    throw CodecError(
                        .corruptData, format: format, "cannot decode the keyframe: \(lastError.log ?? MediaInput.describe(lastError.code))",
                        file: file)
                }
                throw CodecError(
                    ended ? .truncatedData : .corruptData, format: format,
                    ended ? "the file ends before a keyframe of the video stream" : "no keyframe could be read", file: file)
            }
            let reason = lastError.map { $0.log ?? MediaInput.describe($0.code) } ?? drained.log ?? MediaInput.describe(drained.result)
            throw CodecError(.corruptData, format: format, "cannot decode the keyframe: \(reason)", file: file)
        }
    }

    /// Runs `body` with a new packet and a new frame and returns the frame once `body` has decoded into it; the
    /// packet is freed, and the frame too when `body` throws.
    private func withPacketAndFrame(
        _ body: (UnsafeMutablePointer<AVPacket>, UnsafeMutablePointer<AVFrame>) throws(CodecError) -> Void
    ) throws(CodecError) -> UnsafeMutablePointer<AVFrame> {
        guard let packet = av_packet_alloc() else { throw CodecError(.corruptData, format: format, "out of memory", file: file) }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        guard let frame = av_frame_alloc() else { throw CodecError(.corruptData, format: format, "out of memory", file: file) }
        do {
            try body(packet, frame)
        } catch {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw error
        }
        return frame
    }
}

extension MediaInput {
    /// Whether the deadline or the read budget stopped the input.
    var stopped: Bool { sepia_av_input_stop_reason(handle) != Int32(SEPIA_AV_STOP_NONE) }
}
