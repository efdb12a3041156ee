public import SepiaCodecs
public import SepiaImage

/// What a probe reads from a video file's headers: the container, its video and audio streams, and the metadata
/// a camera writes. No frame is decoded.
///
/// ```swift
/// let info = try VideoProbe.probe(path: "IMG_0042.MOV")
/// print(info.format, info.video.codec, info.video.displaySize, info.duration ?? 0)
/// print(info.metadata.captureDate ?? "no date", info.metadata.contentIdentifier ?? "not a Live Photo")
/// ```
public struct VideoInfo: Sendable, Hashable, Codable {
    /// The container, as sniffed from the bytes.
    public var format: ImageFormat
    /// The container's major brand for MP4, MOV and 3GP files (`qt  `, `isom`, `mp42`, `3gp5`…).
    public var majorBrand: String?
    /// The duration in seconds, when the container or the streams give one.
    public var duration: Double?
    /// The file's size in bytes.
    public var byteCount: Int
    /// The overall bit rate in bits per second, when known.
    public var bitRate: Int?
    /// The video stream shown: the largest one that is not a cover image.
    public var video: VideoStreamInfo
    /// The audio streams, in file order.
    public var audio: [AudioStreamInfo]
    /// How many streams the file has (video, audio, subtitles, data and metadata tracks).
    public var streamCount: Int
    /// Capture date, camera, location and Live Photo identity.
    public var metadata: VideoMetadata
    /// Problems found that do not stop the video from being read (a truncated last box, an unreadable date…).
    public var warnings: [String]
}

/// One video stream's coding and geometry.
public struct VideoStreamInfo: Sendable, Hashable, Codable {
    /// The stream's index in the file.
    public var index: Int
    /// FFmpeg's short name of the codec: `h264`, `hevc`, `av1`, `vp8`, `vp9`, `mpeg4`, `mpeg2video`, `dvvideo`…
    public var codec: String
    /// The codec's name for people: "H.264", "HEVC", "AV1"…
    public var codecName: String
    /// The profile: "High", "Main 10", "Profile 2"…
    public var profile: String?
    /// Bits per sample (8, 10, 12), when the codec configuration or the stream says.
    public var bitDepth: Int?
    /// FFmpeg's name of the decoded pixel format (`yuv420p`, `yuv420p10le`), when known before decoding.
    public var pixelFormat: String?
    /// The frame size as coded (after the codec's cropping, before the sample aspect ratio and rotation).
    public var codedSize: IntSize
    /// The shape of a pixel, width over height, when it is not square (anamorphic DV, HDV, AVCHD): 4:3 means
    /// each pixel shows a third wider than tall.
    public var sampleAspectRatio: AspectRatio?
    /// The size of one frame with square pixels, before rotation: the coded width stretched by the sample
    /// aspect ratio. This is the poster's ``VideoSource/pixelSize``.
    public var squarePixelSize: IntSize
    /// How far the frames must be turned clockwise to show upright, from the display matrix: 0, 90, 180 or 270.
    public var rotation: Int
    /// Whether the display matrix also mirrors the frames.
    public var mirrored: Bool
    /// The display matrix as an EXIF orientation.
    public var orientation: Orientation
    /// The size shown: after the sample aspect ratio and the rotation.
    public var displaySize: IntSize
    /// Frames per second (the average rate), when known.
    public var frameRate: Double?
    /// The number of frames, when the container says.
    public var frameCount: Int?
    /// SDR, or the HDR transfer function (HLG, PQ).
    public var dynamicRange: DynamicRange
    /// The transfer characteristic as FFmpeg names it (`bt709`, `arib-std-b67`, `smpte2084`), when tagged.
    public var transfer: String?
    /// The colour primaries (`bt709`, `bt2020`, `smpte432`…), when tagged.
    public var primaries: String?
    /// The YUV matrix (`bt709`, `bt2020nc`, `smpte170m`…), when tagged.
    public var matrix: String?
    /// Whether samples use the full range (0–255) instead of video range (16–235), when tagged.
    public var fullRange: Bool?
    /// The mastering display's peak luminance in cd/m² (HDR10 metadata), when present.
    public var masteringPeakLuminance: Double?
    /// The brightest pixel of the content in cd/m² (MaxCLL), when present.
    public var maxContentLightLevel: Double?
    /// The stream's bit rate in bits per second, when known.
    public var bitRate: Int?
}

/// A ratio of two positive integers, such as a sample aspect ratio.
public struct AspectRatio: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The numerator.
    public var numerator: Int
    /// The denominator.
    public var denominator: Int

    /// Creates a ratio; nil unless both terms are positive.
    public init?(_ numerator: Int, _ denominator: Int) {
        guard numerator > 0, denominator > 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The ratio's value.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// `4:3`.
    public var description: String { "\(numerator):\(denominator)" }
}

/// Whether a video is SDR or HDR, and which HDR transfer function it uses.
public enum DynamicRange: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Standard dynamic range (BT.709, BT.601, sRGB or an untagged stream).
    case sdr
    /// Hybrid log-gamma (ARIB STD-B67, BT.2100): the iPhone's HDR video.
    case hlg
    /// Perceptual quantizer (SMPTE ST 2084, BT.2100): HDR10 and Dolby Vision's base layer.
    case pq

    /// Whether the video is HDR and its posters are tone-mapped.
    public var isHDR: Bool { self != .sdr }

    /// "SDR", "HDR (HLG)", "HDR (PQ)".
    public var description: String {
        switch self {
        case .sdr: return "SDR"
        case .hlg: return "HDR (HLG)"
        case .pq: return "HDR (PQ)"
        }
    }
}

/// One audio stream.
public struct AudioStreamInfo: Sendable, Hashable, Codable {
    /// The stream's index in the file.
    public var index: Int
    /// FFmpeg's short name of the codec: `aac`, `pcm_s16le`, `opus`, `ac3`…
    public var codec: String
    /// The codec's name for people.
    public var codecName: String
    /// The number of channels, when known.
    public var channels: Int?
    /// The channel layout's name (`mono`, `stereo`, `5.1`), when known.
    public var channelLayout: String?
    /// Samples per second, when known.
    public var sampleRate: Int?
    /// The stream's bit rate in bits per second, when known.
    public var bitRate: Int?
    /// The stream's language tag (ISO 639-2), when set.
    public var language: String?
}

/// What a camera or phone writes about a video besides its streams.
public struct VideoMetadata: Sendable, Hashable, Codable {
    /// When the video was recorded: QuickTime's `com.apple.quicktime.creationdate` (local time with its UTC
    /// offset), else the container's creation time (UTC).
    public var captureDate: CaptureDate?
    /// The camera's maker (`com.apple.quicktime.make`, `©mak`, Android's manufacturer).
    public var cameraMake: String?
    /// The camera's model (`com.apple.quicktime.model`, `©mod`).
    public var cameraModel: String?
    /// The software that recorded or wrote the file (`com.apple.quicktime.software`, else the encoder's tag).
    public var software: String?
    /// Where the video was recorded: ISO 6709 (`com.apple.quicktime.location.ISO6709`, `©xyz`).
    public var location: GPSLocation?
    /// Apple's content identifier (`com.apple.quicktime.content.identifier`): the same UUID as the HEIC or JPEG
    /// of the Live Photo this movie is the motion of.
    public var contentIdentifier: String?
    /// A Live Photo's still-image time in seconds: when, in the movie, the photo was taken (the timed metadata
    /// track `com.apple.quicktime.still-image-time`).
    public var stillImageTime: Double?

    /// Creates empty metadata.
    public init() {}

    /// Whether this is a Live Photo's motion (it has a content identifier).
    public var isLivePhotoMotion: Bool { contentIdentifier != nil }
}
