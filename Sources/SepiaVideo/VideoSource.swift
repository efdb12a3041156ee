internal import CFFmpeg
import Foundation
public import SepiaCodecs
public import SepiaImage

/// A video as an image: its poster frame, decoded when a render asks for it, so renditions, previews, the
/// filter strip and edit recipes treat a video like any other ``EncodedImage``.
///
/// Opening reads the headers only (``VideoProbe``). A render decodes one frame: the keyframe nearest
/// ``posterTime`` (a Live Photo's still-image time, else 1 s in, or 10 % into a clip shorter than 10 s, never
/// past the end), converted by swscale straight to the size the render needs (``decodeScales``: a 256 px
/// thumbnail of a 4K video never converts 4K pixels) and to square pixels (the sample aspect ratio), HDR
/// tone-mapped to SDR sRGB. The display matrix becomes ``orientation``, applied by the engine like EXIF's.
///
/// ```swift
/// let video = try VideoSource(path: "IMG_0042.MOV")
/// let thumbnail = video.image.thumbnail(size: IntSize(width: 256, height: 256))
/// let jpeg = try await ImageEncoding.encode(thumbnail, as: .jpeg, context: RenderContext())
/// ```
public struct VideoSource: EncodedImage {
    /// What the probe read.
    public let info: VideoInfo
    /// The limits and poster choices the video was opened with.
    public let options: VideoOptions
    /// The time of the poster, in seconds from the start, before it is moved to the nearest keyframe.
    public let posterTime: Double
    /// Problems met while decoding so far.
    public let decodeWarnings = DecodeWarnings()
    let location: MediaLocation
    let startTime: Double
    /// Where an MP4 or MOV file's video samples are, when Sepia read its headers itself.
    let samples: MovieSampleIndex?
    /// The demuxer the probe opened, for the first poster decode.
    let kept: KeptDemuxer
    /// The counter of the task that opened the video (``MediaReadCounter/current`` then): the poster, decoded on
    /// a render thread, counts its reads there.
    let readCounter: MediaReadCounter?

    /// Opens a video file: reads its headers and checks the limits. Errors name the file.
    ///
    /// - Throws: ``CodecError``, as ``VideoProbe/probe(path:options:)`` does, and `.unsupportedFeature` when the
    ///   video codec is not one Sepia decodes.
    public init(path: String, options: VideoOptions = VideoOptions()) throws(CodecError) {
        try self.init(.file(path), options: options)
    }

    /// Opens a video in memory.
    public init(bytes: EncodedBytes, options: VideoOptions = VideoOptions()) throws(CodecError) {
        try self.init(.memory(bytes), options: options)
    }

    /// Opens a video file whose container was recognised already (``MediaFile/sniff(path:)``): its first bytes
    /// are not sniffed again.
    package init(path: String, format: ImageFormat, options: VideoOptions) throws(CodecError) {
        try self.init(.file(path), options: options, format: format)
    }

    init(_ location: MediaLocation, options: VideoOptions, format: ImageFormat? = nil) throws(CodecError) {
        let (info, start, samples, input) = try VideoProbe.headers(location, options: options, format: format)
        guard VideoCodecs.isDecodable(shortName: info.video.codec) else {
            throw CodecError(
                .unsupportedFeature, format: info.format,
                "the video codec \(info.video.codecName) is not one Sepia decodes (H.264, HEVC, AV1, VP8, VP9, MPEG-4 Part 2, H.263, MPEG-1/2, Motion JPEG, DV, ProRes)",
                file: location.path)
        }
        startTime = start
        self.samples = samples
        kept = KeptDemuxer(input)
        readCounter = MediaReadCounter.current
        self.info = info
        self.options = options
        self.location = location
        posterTime = Self.posterTime(info: info, requested: options.posterTime)
    }

    /// The poster's time: the one asked for, else the still-image time of a Live Photo, else 1 s, or 10 % of a
    /// clip shorter than 10 s; within the video.
    static func posterTime(info: VideoInfo, requested: Double?) -> Double {
        let duration = info.duration ?? 0
        let frame = 1 / (info.video.frameRate ?? 30)
        let last = max(0, duration - frame)
        if let requested, requested.isFinite { return min(max(0, requested), last) }
        if let still = info.metadata.stillImageTime, still.isFinite, still >= 0, duration == 0 || still < duration { return min(still, last) }
        guard duration > 0 else { return 0 }
        return min(duration >= 10 ? 1 : duration * 0.1, last)
    }

    // MARK: - EncodedImage

    /// The container.
    public var format: ImageFormat { info.format }
    /// The file read, if any.
    public var file: String? { location.path }
    /// The frame size with square pixels, before rotation.
    public var pixelSize: IntSize { info.video.squarePixelSize }
    /// Video frames are opaque.
    public var hasAlpha: Bool { false }
    /// The display matrix's rotation and mirroring.
    public var orientation: Orientation { info.video.orientation }
    /// Capture date, camera, software and location, as an image's metadata.
    public var metadata: ImageMetadata {
        var m = ImageMetadata()
        m.captureDate = info.metadata.captureDate
        m.cameraMake = info.metadata.cameraMake
        m.cameraModel = info.metadata.cameraModel
        m.software = info.metadata.software
        m.location = info.metadata.location
        m.warnings = info.warnings
        return m
    }
    /// "BT.709", "BT.2020 HLG, tone-mapped to sRGB"…
    public var colorSpace: String {
        let primaries = info.video.primaries.map(Self.primariesName) ?? "BT.709"
        switch info.video.dynamicRange {
        case .sdr: return primaries
        case .hlg: return primaries + " HLG, tone-mapped to sRGB"
        case .pq: return primaries + " PQ, tone-mapped to sRGB"
        }
    }
    /// The codec and what sets the video apart, for people: "video, HEVC Main 10 10-bit, HDR (HLG), Live Photo".
    public var details: [String] {
        let v = info.video
        var d = ["video", [v.codecName, v.profile, v.bitDepth.map { "\($0)-bit" }].compactMap { $0 }.joined(separator: " ")]
        if v.dynamicRange.isHDR { d.append(v.dynamicRange.description) }
        if let sar = v.sampleAspectRatio { d.append("anamorphic \(sar)") }
        if info.audio.isEmpty { d.append("no audio") }
        if info.metadata.isLivePhotoMotion { d.append("Live Photo") }
        return d
    }

    /// The reductions swscale can make while converting: any integer factor (the engine's resampler makes the
    /// last 2× or more, as after a JPEG's DCT scaling).
    public var decodeScales: [Int] { [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64] }

    /// The frame reduced by `scale`: exactly `ceil(width / scale)` × `ceil(height / scale)`, the whole frame
    /// scaled onto it.
    public func reduction(scale: Int) -> DecodeReduction {
        let s = max(1, scale)
        let size = IntSize(width: (pixelSize.width + s - 1) / s, height: (pixelSize.height + s - 1) / s)
        return DecodeReduction(size: size, span: SIMD2(Double(size.width), Double(size.height)), minimumResize: s == 1 ? 1 : 2)
    }

    /// A decoder of the poster reduced by `scale`.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        let reduction = reduction(scale: scale)
        return PosterRowDecoder(source: self, size: reduction.size, furtherReduction: reduction.minimumResize)
    }

    // MARK: - Frames

    /// One decoded frame.
    public struct Frame: Sendable {
        /// The pixels, upright as stored (the ``orientation`` is not applied), 8-bit sRGB.
        public var bitmap: Bitmap
        /// The frame's time, in seconds from the start: the keyframe nearest the time asked for.
        public var time: Double
    }

    /// Decodes the poster (or the keyframe nearest `time`) at `size`, by default the full frame with square
    /// pixels, without the orientation applied: what a render of ``image`` starts from.
    public func frame(at time: Double? = nil, size: IntSize? = nil) throws(CodecError) -> Frame {
        let size = size ?? pixelSize
        guard size.width > 0, size.height > 0 else { throw CodecError(.corruptData, format: format, "an empty frame was asked for", file: file) }
        var bitmap = Bitmap(width: size.width, height: size.height, layout: .rgb)
        let grabber = FrameGrabber(
            location: location, info: info, options: options, startTime: startTime, samples: samples, kept: kept, counter: readCounter)
        let at = time.map { Self.posterTime(info: info, requested: $0) } ?? posterTime
        let outcome = bitmap.bytes.withUnsafeMutableBytes { raw -> Result<FrameGrabber.Result, CodecError> in
            guard let base = raw.baseAddress else { return .failure(CodecError(.corruptData, format: format, "out of memory", file: file)) }
            do throws(CodecError) {
                return .success(try grabber.grab(at: at, size: size, into: base, bytesPerRow: size.width * 3))
            } catch {
                return .failure(error)
            }
        }
        let result = try outcome.get()
        for warning in result.warnings { decodeWarnings.add(warning) }
        return Frame(bitmap: bitmap, time: result.time)
    }

    static func primariesName(_ name: String) -> String {
        switch name {
        case "bt709": return "BT.709"
        case "bt2020": return "BT.2020"
        case "smpte432": return "Display P3"
        case "smpte170m", "bt470bg": return "BT.601"
        default: return name
        }
    }
}

/// Decodes the poster into the engine's buffer when it asks for the whole frame at once, else into a frame of
/// its own handed out row by row.
final class PosterRowDecoder: RowDecoder {
    let source: VideoSource
    let size: IntSize
    private var frame: [UInt8] = []
    private var decoded = false
    private var nextRow = 0
    /// How much smaller still the engine makes the picture (``DecodeReduction/minimumResize``).
    private let furtherReduction: Double

    init(source: VideoSource, size: IntSize, furtherReduction: Double) {
        self.source = source
        self.size = size
        self.furtherReduction = furtherReduction
    }

    var format: SourcePixelFormat { .rgb8 }
    /// sRGB: SDR video is shown as players show it (the BT.709 curve is not undone), wide primaries are
    /// converted, HDR arrives tone-mapped.
    var color: SourceColor {
        let v = source.info.video
        guard !v.dynamicRange.isHDR, let primaries = v.primaries, primaries != "bt709",
            let matrix = ColorPrimaries.matrix(from: primaries, to: "bt709")
        else { return .sRGB }
        return SourceColor(name: VideoSource.primariesName(primaries), curves: SourceColor.sRGB.curves, matrix: matrix)
    }
    var decodesIncrementally: Bool { false }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        var grabber = FrameGrabber(
            location: source.location, info: source.info, options: source.options, startTime: source.startTime, samples: source.samples,
            kept: source.kept, counter: source.readCounter)
        grabber.furtherReduction = furtherReduction
        if !decoded {
            let frameBytes = size.height * bytesPerRow
            if buffer.count >= frameBytes, let base = buffer.baseAddress {
                let result = try grabber.grab(at: source.posterTime, size: size, into: base, bytesPerRow: bytesPerRow)
                for warning in result.warnings { source.decodeWarnings.add(warning) }
                decoded = true
                nextRow = size.height
                return size.height
            }
            var whole = [UInt8](repeating: 0, count: frameBytes)
            let result = try whole.withUnsafeMutableBytes { raw throws(CodecError) -> FrameGrabber.Result in
                guard let base = raw.baseAddress else { throw CodecError(.corruptData, format: source.format, "out of memory", file: source.file) }
                return try grabber.grab(at: source.posterTime, size: size, into: base, bytesPerRow: bytesPerRow)
            }
            for warning in result.warnings { source.decodeWarnings.add(warning) }
            frame = whole
            decoded = true
        }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
        guard rows > 0 else { return 0 }
        frame.withUnsafeBytes { src in
            let start = nextRow * bytesPerRow
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[start..<(start + rows * bytesPerRow)]))
        }
        nextRow += rows
        if nextRow == size.height { frame = [] }
        return rows
    }
}
