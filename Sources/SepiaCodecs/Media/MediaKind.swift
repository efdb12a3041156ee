/// What an item is — a photo, a video, a Live Photo, a camera RAW photo, a RAW+JPEG pair — and what follows from
/// it: whether it is a movie (its picture a poster frame, its length a duration), whether it has motion to play,
/// whether an edit recipe applies to it. Everything that treats kinds differently asks these questions rather
/// than testing formats or media types, so that a new kind is a new value, declared with its ``MediaOpener``.
///
/// A file on its own is a ``photo``, a ``raw`` or a ``video`` (the kind of the opener that reads it); a
/// ``livePhoto`` and a ``rawPlusJPEG`` are made when two files pair into one item.
///
/// ```swift
/// let opened = try MediaOpeners.standard.open(path: "IMG_0042.MOV")
/// if opened.kind.isMovie { print("lasts", opened.duration, "s") }
/// ```
public struct MediaKind: Sendable, Hashable, CustomStringConvertible {
    /// The name the API, the command line's JSON and the web app give it: `photo`, `video`, `livePhoto`, `raw`,
    /// `rawPlusJPEG`.
    public let name: String
    /// The name people read: "Photo", "Video", "Live Photo", "RAW photo", "RAW+JPEG photo".
    public let displayName: String
    /// Whether it is a movie: its picture is a poster frame, it has a duration, it is played rather than looked
    /// at, and PhotoKit's media type for it is `video`.
    public let isMovie: Bool
    /// Whether it has motion a player plays: a movie, or a Live Photo's movie beside its still.
    public let hasMotion: Bool
    /// Whether an edit recipe (filters, crop, rotation) applies to its picture.
    public let isEditable: Bool

    /// A kind; declare new ones beside the ``MediaOpener`` that reads their files.
    public init(name: String, displayName: String, isMovie: Bool, hasMotion: Bool, isEditable: Bool) {
        self.name = name
        self.displayName = displayName
        self.isMovie = isMovie
        self.hasMotion = hasMotion
        self.isEditable = isEditable
    }

    /// The ``name``.
    public var description: String { name }

    /// A still photo: JPEG, PNG, WebP, HEIC, AVIF, TIFF.
    public static let photo = MediaKind(name: "photo", displayName: "Photo", isMovie: false, hasMotion: false, isEditable: true)
    /// A camera RAW photo, developed for display.
    public static let raw = MediaKind(name: "raw", displayName: "RAW photo", isMovie: false, hasMotion: false, isEditable: true)
    /// A video: shown by its poster frame, played by a player.
    public static let video = MediaKind(name: "video", displayName: "Video", isMovie: true, hasMotion: true, isEditable: false)
    /// A Live Photo: a still and the short movie taken with it, one item.
    public static let livePhoto = MediaKind(name: "livePhoto", displayName: "Live Photo", isMovie: false, hasMotion: true, isEditable: true)
    /// A RAW+JPEG pair: a camera's RAW file and its JPEG of the same shot, one item showing one of them.
    public static let rawPlusJPEG = MediaKind(
        name: "rawPlusJPEG", displayName: "RAW+JPEG photo", isMovie: false, hasMotion: false, isEditable: true)
}
