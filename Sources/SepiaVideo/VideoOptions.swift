public import SepiaCodecs

/// Limits for reading untrusted videos, and the choices a poster frame is made with. The limits are on by default.
///
/// Every limit is checked before the work it bounds: the file's size before it is opened, the stream count,
/// duration and frame size from the container's headers before a frame is decoded, the sample table against the
/// file's bytes (``maximumFrameRate``, ``maximumDecodedPixelsPerByte``), the bytes the demuxer reads and the time
/// it takes while it reads; and while a playable version is encoded, the frames it decodes and the CPU time it
/// uses (``encodeCPUSeconds``, ``encodeCPUSecondsPerGigapixel``).
public struct VideoOptions: Sendable, Hashable {
    /// The largest file accepted, in bytes. Default: 16 GiB (an hour of 4K HEVC from a phone is about 20 GB
    /// at 50 Mbit/s; raise it for longer recordings).
    public var maximumFileBytes: Int
    /// The longest duration accepted, in seconds. Default: 4 hours.
    public var maximumDuration: Double
    /// The most pixels a frame may have (coded width × height). Default: 40 megapixels (8K UHD is 33.2).
    public var maximumFramePixels: Int
    /// The longest side a frame may have. Default: 16,384.
    public var maximumDimension: Int
    /// The most streams (video, audio, subtitles, metadata tracks) a file may have. Default: 32; an iPhone
    /// movie has up to about ten.
    public var maximumStreams: Int
    /// The most bytes the demuxer reads to identify the streams when the headers lack something (FFmpeg's
    /// `probesize`). Default: 5 MB, FFmpeg's own.
    public var probeBytes: Int
    /// The most stream time, in seconds, analysed to find missing stream parameters (FFmpeg's
    /// `analyzeduration`). Default: 5 s, FFmpeg's own.
    public var analyzeDuration: Double
    /// The most bytes all reads of one probe or one poster decode may return, as a multiple of the file's size
    /// (plus 16 MiB): a file whose structure makes the demuxer read in circles stops. Default: 4.
    public var readAmplification: Int
    /// The longest a probe, or a poster decode, may take, in seconds; then it stops with
    /// ``CodecError/Code/timedOut``. Default: 15 s.
    public var timeLimit: Double
    /// The time of the poster frame, in seconds from the start; nil (the default) chooses it: a Live Photo's
    /// still-image time, else 1 s into the video, or 10 % into clips shorter than 10 s. The frame shown is the
    /// keyframe nearest that time, never past the end.
    public var posterTime: Double?
    /// The peak luminance, in cd/m², that an HDR video is tone-mapped from when the file does not say (no
    /// content light level or mastering display metadata). Default: 1000, the reference peak of HLG and the
    /// usual mastering peak of PQ.
    public var assumedPeakLuminance: Double
    /// The most frames a second the sample table may put in the video. Default: 1000 (phones record slow motion
    /// at 240, the fastest cameras at 960).
    public var maximumFrameRate: Double
    /// How many pixels of decoded frames (frames × width × height) each byte of the file may stand for, beyond
    /// ``decodedPixelAllowance``: a few bytes can declare hours of frames (a still picture repeated, or one
    /// sample's bytes used again and again), and decoding them costs as much as decoding a real recording.
    /// Default: 20,000; a camera's or phone's recording has 30 to 300, smooth synthetic clips up to 4,000.
    public var maximumDecodedPixelsPerByte: Int
    /// The pixels of decoded frames any video may have, whatever its size in bytes. Default: 2 × 10⁹ (32 s of
    /// 1080p at 30 frames a second, 4 minutes at 320×240), so that short clips of a still scene are read.
    public var decodedPixelAllowance: Int
    /// The CPU seconds the encode of a playable version may use whatever it decodes. Default: 60.
    public var encodeCPUSeconds: Double
    /// The CPU seconds more the encode of a playable version may use per 10⁹ pixels of frames it decodes (all
    /// the threads of the decoder and the encoder counted). Default: 200, three times what the costliest video
    /// measured needs (noise at 46 Mbit/s for 360p: 60; a camera's 1080p: 13; a still 8K picture: 2); a video
    /// over the budget costs far more to decode than its frames justify.
    public var encodeCPUSecondsPerGigapixel: Double

    /// Creates options; the defaults are the limits above.
    public init(
        maximumFileBytes: Int = 16 << 30, maximumDuration: Double = 4 * 3600, maximumFramePixels: Int = 40_000_000,
        maximumDimension: Int = 16_384, maximumStreams: Int = 32, probeBytes: Int = 5_000_000, analyzeDuration: Double = 5,
        readAmplification: Int = 4, timeLimit: Double = 15, posterTime: Double? = nil, assumedPeakLuminance: Double = 1000,
        maximumFrameRate: Double = 1000, maximumDecodedPixelsPerByte: Int = 20_000, decodedPixelAllowance: Int = 2_000_000_000,
        encodeCPUSeconds: Double = 60, encodeCPUSecondsPerGigapixel: Double = 200
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumDuration = maximumDuration
        self.maximumFramePixels = maximumFramePixels
        self.maximumDimension = maximumDimension
        self.maximumStreams = maximumStreams
        self.probeBytes = probeBytes
        self.analyzeDuration = analyzeDuration
        self.readAmplification = readAmplification
        self.timeLimit = timeLimit
        self.posterTime = posterTime
        self.assumedPeakLuminance = assumedPeakLuminance
        self.maximumFrameRate = maximumFrameRate
        self.maximumDecodedPixelsPerByte = maximumDecodedPixelsPerByte
        self.decodedPixelAllowance = decodedPixelAllowance
        self.encodeCPUSeconds = encodeCPUSeconds
        self.encodeCPUSecondsPerGigapixel = encodeCPUSecondsPerGigapixel
    }

    /// Options whose frame-size limits are those of still-image `options` (its pixel and side limits), the rest
    /// at their defaults: a caller with one set of decode options applies the same frame limits to posters.
    public init(frameLimitsOf options: DecodeOptions) {
        self.init(maximumFramePixels: options.maximumPixels, maximumDimension: options.maximumDimension)
    }

    /// The most pixels of decoded frames a file of `size` bytes may have.
    func decodedPixelLimit(forFileOf size: Int) -> Int {
        let (perByte, overflow) = max(0, maximumDecodedPixelsPerByte).multipliedReportingOverflow(by: max(0, size))
        return max(decodedPixelAllowance, overflow ? .max : perByte)
    }

    /// The most bytes one probe or decode may read from a file of `size` bytes.
    func maximumBytesRead(forFileOf size: Int) -> Int64 {
        Int64(max(1, readAmplification)) * Int64(size) + (16 << 20)
    }

    /// Throws unless a `width × height` frame is within the limits.
    func checkFrameSize(width: Int, height: Int, format: ImageFormat, file: String?) throws(CodecError) {
        guard width > 0, height > 0 else {
            throw CodecError(.corruptData, format: format, "the video stream declares an empty frame (\(width)x\(height))", file: file)
        }
        if width > maximumDimension || height > maximumDimension {
            throw CodecError(
                .tooManyPixels, format: format,
                "the frames are \(width)x\(height) pixels, larger than the limit of \(maximumDimension) pixels per side", file: file)
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maximumFramePixels {
            throw CodecError(
                .tooManyPixels, format: format,
                "the frames are \(width)x\(height) pixels, more than the limit of \(maximumFramePixels) pixels per frame", file: file)
        }
    }
}
