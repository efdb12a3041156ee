public import SepiaImage

/// A file opened by its ``MediaOpener``: what it is, its picture as an image source, and what its headers say —
/// read once, so that whoever opened it (an import, `sepia info`) never opens it again to ask.
public struct OpenedMedia: Sendable {
    /// What the file is on its own: a ``MediaKind/photo``, ``MediaKind/raw`` or ``MediaKind/video``.
    public let kind: MediaKind
    /// Its picture: the photo itself, a RAW file's development, a video's poster frame. Its ``EncodedImage/image``
    /// is the upright still image every kind offers to renditions, previews, edits and analysis.
    public let still: any EncodedImage
    /// A movie's length in seconds; 0 for stills.
    public let duration: Double
    /// A movie's frames per second, when its headers say.
    public let frameRate: Double?
    /// Capture date, camera, place and the Live Photo content identifier, as the file's kind carries them.
    public let metadata: ImageMetadata
    /// How its motion plays: ``MediaPlayback/none`` for stills.
    public let playback: MediaPlayback
    /// For a movie that needs a playable version, the pixels of the frames its encode decodes (frames × width ×
    /// height), which the encode's cost is about proportional to; nil when its headers do not say, and for
    /// stills.
    public let decodedPixels: Int?
    /// The whole file, when its opener read it into memory (photos); nil when it is read where it is (videos).
    public let bytes: EncodedBytes?
    /// The file's size in bytes.
    public let byteCount: Int
    /// What `sepia info` prints about the file beyond the picture's size, format and metadata: label and value.
    public let facts: [(label: String, value: String)]
    /// What `sepia info --json` adds about the file under the kind's ``MediaKind/name``; nil when nothing.
    public let report: (any Encodable & Sendable)?

    /// A file as its opener describes it.
    public init(
        kind: MediaKind, still: any EncodedImage, byteCount: Int, bytes: EncodedBytes? = nil, duration: Double = 0, frameRate: Double? = nil,
        metadata: ImageMetadata? = nil, playback: MediaPlayback = .none, decodedPixels: Int? = nil,
        facts: [(label: String, value: String)] = [], report: (any Encodable & Sendable)? = nil
    ) {
        self.kind = kind
        self.still = still
        self.byteCount = byteCount
        self.bytes = bytes
        self.duration = duration
        self.frameRate = frameRate
        self.metadata = metadata ?? still.metadata
        self.playback = playback
        self.decodedPixels = decodedPixels
        self.facts = facts
        self.report = report
    }

    /// The file's format, recognised by its content.
    public var format: ImageFormat { still.format }
    /// The picture's upright size.
    public var displaySize: IntSize { still.displaySize }
}
