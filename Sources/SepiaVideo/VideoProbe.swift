internal import CFFmpeg
import Foundation
public import SepiaCodecs
import SepiaImage

/// Reads what a video is from its headers: container, streams, geometry, colour, duration and the camera's
/// metadata. No frame is decoded, and the file is read only as far as its headers go.
///
/// MP4, MOV and 3GP (H.264, HEVC, AV1, MPEG-4 Part 2, H.263), WebM and Matroska (VP8, VP9, AV1, H.264,
/// HEVC), AVI (Motion JPEG, MPEG-4 Part 2, DV, H.264) and MPEG transport streams (AVCHD's MTS/M2TS: H.264,
/// MPEG-2) are read, each by the one FFmpeg demuxer its bytes call for. The MP4, MOV and 3GP files cameras and
/// phones write are read by Sepia itself from their `moov` box, which gives the same description without
/// loading FFmpeg's libraries; anything out of the ordinary in them still goes to FFmpeg.
///
/// ```swift
/// let info = try VideoProbe.probe(path: "IMG_0042.MOV")
/// if info.video.dynamicRange.isHDR { print("HDR:", info.video.dynamicRange) }
/// ```
public enum VideoProbe {
    /// Probes a video file. Errors name the file.
    ///
    /// - Throws: ``CodecError``: `.fileSystem` when the file cannot be read, `.unrecognizedFormat` or
    ///   `.unsupportedFormat` when it is not a video container, `.fileTooLarge`, `.limitExceeded` (duration,
    ///   streams, bytes read), `.tooManyPixels`, `.timedOut`, `.truncatedData` or `.corruptData`.
    public static func probe(path: String, options: VideoOptions = VideoOptions()) throws(CodecError) -> VideoInfo {
        try headers(.file(path), options: options).info
    }

    /// Probes a video file whose container was recognised already: its first bytes are not sniffed again.
    package static func probe(path: String, format: ImageFormat, options: VideoOptions) throws(CodecError) -> VideoInfo {
        try headers(.file(path), options: options, format: format).info
    }

    /// Probes a video in memory.
    public static func probe(_ bytes: EncodedBytes, options: VideoOptions = VideoOptions()) throws(CodecError) -> VideoInfo {
        try headers(.memory(bytes), options: options).info
    }

    /// The description of `location` and its video stream's start time: from the `moov` box when Sepia reads it
    /// itself (with where the video's samples are), else from FFmpeg's demuxer, whose input is returned still
    /// open (a poster decode may go on with it), nil when none was opened. The sample table is judged against the
    /// file's bytes either way (``VideoPlausibility``).
    static func headers(
        _ location: MediaLocation, options: VideoOptions, format: ImageFormat? = nil
    ) throws(CodecError) -> (info: VideoInfo, startTime: Double, samples: MovieSampleIndex?, input: MediaInput?) {
        MediaReadCounter.countProbe()
        if let described = try MovieProbe.probe(location, options: options, format: format) {
            if let samples = described.samples {
                try VideoPlausibility.check(
                    samples.layout(fileSize: described.info.byteCount), info: described.info, options: options, file: location.path)
                return (described.info, described.startTime, samples, nil)
            }
            // Tables Sepia's index does not place: FFmpeg's demuxer, which the encode reads them with, judges them.
            let (_, input) = try probe(location, options: options, format: format)
            return (described.info, described.startTime, nil, input)
        }
        let (info, input) = try probe(location, options: options, format: format)
        return (info, input.videoStartTime(index: info.video.index), nil, input)
    }

    /// Opens `location`, reads its headers and checks the limits (the sample table against the bytes too);
    /// returns the description and the input, still open, positioned after the headers.
    static func probe(
        _ location: MediaLocation, options: VideoOptions, format: ImageFormat? = nil
    ) throws(CodecError) -> (info: VideoInfo, input: MediaInput) {
        let input = try MediaInput(location, options: options, deadline: deadline(after: options.timeLimit), format: format)
        let info = try StreamInspector(input: input, options: options).inspect()
        try VideoPlausibility.check(input.sampleLayout(ofStream: info.video.index), info: info, options: options, file: location.path)
        return (info, input)
    }
}

/// Builds a ``VideoInfo`` from an opened demuxer.
struct StreamInspector {
    let input: MediaInput
    let options: VideoOptions

    var format: ImageFormat { input.format }

    func inspect() throws(CodecError) -> VideoInfo {
        var warnings: [String] = []
        var boxes: [QuickTimeBoxes.Box] = []
        if [.quickTime, .mp4, .threeGPP].contains(format) {
            let top = QuickTimeBoxes.topLevel(size: input.byteCount) { input.bytes(at: $0, count: $1) }
            boxes = top.boxes
            if let truncation = top.truncation { warnings.append(truncation) }
        }
        var context = input.context
        if try needsStreamAnalysis(context) {
            try input.findStreamInfo()
            context = input.context
        }
        let streamCount = Int(context.pointee.nb_streams)
        if streamCount > options.maximumStreams {
            throw CodecError(
                .limitExceeded, format: format, "the file has \(streamCount) streams, more than the limit of \(options.maximumStreams)",
                file: input.file)
        }
        if streamCount == 0 {
            throw CodecError(.corruptData, format: format, "the container holds no readable stream (the file is damaged)", file: input.file)
        }
        guard let videoIndex = Self.primaryVideoStream(context) else {
            throw CodecError(.unsupportedFeature, format: format, "the file has no video stream (is it audio only?)", file: input.file)
        }
        guard let stream = context.pointee.streams[videoIndex] else { preconditionFailure("stream \(videoIndex) exists") }
        let video = try videoStream(stream, index: videoIndex)
        var audio: [AudioStreamInfo] = []
        for i in 0..<streamCount {
            guard let s = context.pointee.streams[i], s.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
            audio.append(audioStream(s, index: i))
        }
        let duration = Self.duration(context, video: stream)
        if let duration, duration > options.maximumDuration {
            throw CodecError(
                .limitExceeded, format: format,
                "the video lasts \(VideoProbe.clock(duration)), longer than the limit of \(VideoProbe.clock(options.maximumDuration))",
                file: input.file)
        }
        var tags = Self.tags(context.pointee.metadata)
        tags += Self.tags(stream.pointee.metadata)
        var metadata = ContainerMetadata.read(tags, warnings: &warnings)
        if metadata.contentIdentifier != nil, let moov = boxes.first(where: { $0.type == "moov" }), moov.end - moov.start <= 16 << 20,
            let payload = input.bytes(at: moov.start, count: moov.end - moov.start)
        {
            metadata.stillImageTime = QuickTimeBoxes.stillImageTime(moov: payload)
        }
        let bitRate = context.pointee.bit_rate > 0 ? Int(context.pointee.bit_rate) : nil
        let brand = tags.first { $0.0 == "major_brand" }?.1
        return VideoInfo(
            format: format, majorBrand: brand, duration: duration, byteCount: input.byteCount, bitRate: bitRate, video: video, audio: audio,
            streamCount: streamCount, metadata: metadata, warnings: warnings)
    }

    /// Whether the headers leave out what a probe reports, so packets must be read: transport streams and AVI
    /// have no complete headers; a stream without a size or codec needs its packets parsed; a high-bit-depth
    /// stream without a transfer tag may be HDR, which its first frame says.
    private func needsStreamAnalysis(_ context: UnsafeMutablePointer<AVFormatContext>) throws(CodecError) -> Bool {
        if format == .mpegTS || format == .avi { return true }
        guard let index = Self.primaryVideoStream(context), let stream = context.pointee.streams[index] else { return true }
        let par = stream.pointee.codecpar.pointee
        if par.width <= 0 || par.height <= 0 || par.codec_id == AV_CODEC_ID_NONE { return true }
        if par.color_trc == AVCOL_TRC_UNSPECIFIED && [AV_CODEC_ID_HEVC, AV_CODEC_ID_AV1, AV_CODEC_ID_VP9].contains(par.codec_id) {
            let depth = Self.bitDepth(par) ?? configuration(par)?.bitDepth
            return depth != 8
        }
        return false
    }

    /// The video stream a viewer shows: the largest that is not a cover image.
    static func primaryVideoStream(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int? {
        var best: (index: Int, pixels: Int)?
        for i in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[i] else { continue }
            let par = stream.pointee.codecpar.pointee
            guard par.codec_type == AVMEDIA_TYPE_VIDEO, stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { continue }
            let pixels = Int(max(0, par.width)) * Int(max(0, par.height))
            if pixels > (best?.pixels ?? -1) { best = (i, pixels) }
        }
        return best?.index
    }

    private func configuration(_ par: AVCodecParameters) -> CodecConfiguration? {
        guard let data = par.extradata, par.extradata_size > 0 else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(min(par.extradata_size, 1 << 16))))
        return CodecConfiguration.parse(bytes, codec: par.codec_id)
    }

    static func bitDepth(_ par: AVCodecParameters) -> Int? {
        guard par.format >= 0, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(par.format)) else {
            return par.bits_per_raw_sample > 0 ? Int(par.bits_per_raw_sample) : nil
        }
        return Int(descriptor.pointee.comp.0.depth)
    }

    private func videoStream(_ stream: UnsafeMutablePointer<AVStream>, index: Int) throws(CodecError) -> VideoStreamInfo {
        let par = stream.pointee.codecpar.pointee
        let width = Int(par.width), height = Int(par.height)
        try options.checkFrameSize(width: width, height: height, format: format, file: input.file)
        let config = configuration(par)
        var profile: String?
        let profileNumber = par.profile != FF_PROFILE_UNKNOWN ? par.profile : config?.profile
        if let profileNumber, let name = avcodec_profile_name(par.codec_id, profileNumber) { profile = String(cString: name) }
        let pixelFormat = par.format >= 0 ? av_get_pix_fmt_name(AVPixelFormat(par.format)).map { String(cString: $0) } : nil
        let sar = Self.sampleAspectRatio(stream)
        let square = Self.squarePixelSize(width: width, height: height, sar: sar)
        var rotationDegrees = 0.0
        var mirroredFlag: Int32 = 0
        var rotation = 0
        var mirrored = false
        if sepia_av_display_matrix(stream, &rotationDegrees, &mirroredFlag) != 0 {
            // FFmpeg's angle is counter-clockwise; the turn that shows the frame upright is clockwise.
            let clockwise = Int((-rotationDegrees / 90).rounded()) * 90
            rotation = ((clockwise % 360) + 360) % 360
            mirrored = mirroredFlag != 0
        }
        let orientation = Self.orientation(rotation: rotation, mirrored: mirrored)
        let frameRate = Self.rate(stream.pointee.avg_frame_rate) ?? Self.rate(stream.pointee.r_frame_rate)
        let frames = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
        let mastering = sepia_av_stream_mastering_peak(stream)
        let cll = sepia_av_stream_max_cll(stream)
        return VideoStreamInfo(
            index: index, codec: VideoCodecs.shortName(par.codec_id), codecName: VideoCodecs.displayName(par.codec_id), profile: profile,
            bitDepth: Self.bitDepth(par) ?? config?.bitDepth, pixelFormat: pixelFormat, codedSize: IntSize(width: width, height: height),
            sampleAspectRatio: sar, squarePixelSize: square, rotation: rotation, mirrored: mirrored, orientation: orientation,
            displaySize: orientation.displaySize(forStored: square), frameRate: frameRate, frameCount: frames,
            dynamicRange: Self.dynamicRange(par.color_trc),
            transfer: Self.name(av_color_transfer_name(par.color_trc), unless: par.color_trc == AVCOL_TRC_UNSPECIFIED),
            primaries: Self.name(av_color_primaries_name(par.color_primaries), unless: par.color_primaries == AVCOL_PRI_UNSPECIFIED),
            matrix: Self.name(av_color_space_name(par.color_space), unless: par.color_space == AVCOL_SPC_UNSPECIFIED),
            fullRange: par.color_range == AVCOL_RANGE_UNSPECIFIED ? nil : par.color_range == AVCOL_RANGE_JPEG,
            masteringPeakLuminance: mastering > 0 ? mastering : nil, maxContentLightLevel: cll > 0 ? cll : nil,
            bitRate: par.bit_rate > 0 ? Int(par.bit_rate) : nil)
    }

    private func audioStream(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> AudioStreamInfo {
        var par = stream.pointee.codecpar.pointee
        let channels = par.ch_layout.nb_channels > 0 ? Int(par.ch_layout.nb_channels) : nil
        var layout: String?
        if let channels {
            // A layout the container leaves unspecified is the usual one for its channel count (MP4's AAC).
            if par.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
                av_channel_layout_default(&par.ch_layout, Int32(channels))
            }
            var buffer = [CChar](repeating: 0, count: 64)
            if av_channel_layout_describe(&par.ch_layout, &buffer, buffer.count) > 0 {
                layout = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        let language = Self.tags(stream.pointee.metadata).first { $0.0 == "language" }?.1
        return AudioStreamInfo(
            index: index, codec: VideoCodecs.shortName(par.codec_id), codecName: VideoCodecs.displayName(par.codec_id), channels: channels,
            channelLayout: layout, sampleRate: par.sample_rate > 0 ? Int(par.sample_rate) : nil, bitRate: par.bit_rate > 0 ? Int(par.bit_rate) : nil,
            language: language == "und" ? nil : language)
    }

    // MARK: - Helpers

    static func sampleAspectRatio(_ stream: UnsafeMutablePointer<AVStream>) -> AspectRatio? {
        let candidates = [stream.pointee.sample_aspect_ratio, stream.pointee.codecpar.pointee.sample_aspect_ratio]
        for r in candidates {
            if let ratio = AspectRatio(Int(r.num), Int(r.den)), ratio.numerator != ratio.denominator, (0.1...10).contains(ratio.value) {
                return ratio
            }
        }
        return nil
    }

    /// The frame with square pixels: the width stretched (or narrowed) by the sample aspect ratio, as players
    /// and `scale=iw*sar:ih` show it.
    static func squarePixelSize(width: Int, height: Int, sar: AspectRatio?) -> IntSize {
        guard let sar else { return IntSize(width: width, height: height) }
        let stretched = (Double(width) * sar.value).rounded()
        return IntSize(width: max(1, Int(stretched)), height: height)
    }

    /// The EXIF orientation of a clockwise rotation, optionally mirrored left to right before it.
    static func orientation(rotation: Int, mirrored: Bool) -> Orientation {
        switch (rotation, mirrored) {
        case (90, false): return .right
        case (180, false): return .down
        case (270, false): return .left
        case (0, true): return .upMirrored
        case (90, true): return .rightMirrored
        case (180, true): return .downMirrored
        case (270, true): return .leftMirrored
        default: return .up
        }
    }

    static func dynamicRange(_ transfer: AVColorTransferCharacteristic) -> DynamicRange {
        switch transfer {
        case AVCOL_TRC_ARIB_STD_B67: return .hlg
        case AVCOL_TRC_SMPTE2084: return .pq
        default: return .sdr
        }
    }

    static func name(_ pointer: UnsafePointer<CChar>?, unless unspecified: Bool) -> String? {
        guard !unspecified, let pointer else { return nil }
        return String(cString: pointer)
    }

    static func rate(_ r: AVRational) -> Double? {
        guard r.num > 0, r.den > 0 else { return nil }
        let value = Double(r.num) / Double(r.den)
        return value > 0 && value < 10_000 ? value : nil
    }

    /// The container's duration, else the video stream's, in seconds.
    static func duration(_ context: UnsafeMutablePointer<AVFormatContext>, video: UnsafeMutablePointer<AVStream>) -> Double? {
        let nopts = sepia_av_nopts_value()
        if context.pointee.duration != nopts && context.pointee.duration > 0 {
            return Double(context.pointee.duration) / Double(sepia_av_time_base())
        }
        let tb = video.pointee.time_base
        if video.pointee.duration != nopts && video.pointee.duration > 0 && tb.num > 0 && tb.den > 0 {
            return Double(video.pointee.duration) * Double(tb.num) / Double(tb.den)
        }
        return nil
    }

    /// The entries of an FFmpeg dictionary, in order.
    static func tags(_ dictionary: OpaquePointer?) -> [(String, String)] {
        var result: [(String, String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX), result.count < 1000 {
            if let key = next.pointee.key, let value = next.pointee.value {
                result.append((String(cString: key), String(cString: value)))
            }
            entry = next
        }
        return result
    }
}

extension VideoProbe {
    /// `1:02:03`, `1:05`, or under a minute `4.2 s` (with `decimals` places).
    package static func clock(_ seconds: Double, decimals: Int = 1) -> String {
        if seconds < 60 { return String(format: "%.\(decimals)f s", seconds) }
        let total = Int(seconds.rounded())
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60) : String(format: "%d:%02d", total / 60, total % 60)
    }
}
