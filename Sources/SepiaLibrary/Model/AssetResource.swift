public import SepiaCodecs

/// The kinds of file an asset is made of (PhotoKit's `PHAssetResourceType`, same raw values).
public enum AssetResourceType: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The original still photo.
    case photo = 1
    /// The original video.
    case video = 2
    /// An original audio recording.
    case audio = 3
    /// A second version of a photo taken at the same time: the RAW of a RAW+JPEG pair.
    case alternatePhoto = 4
    /// The current version of an edited photo: the edit's full-size render.
    case fullSizePhoto = 5
    /// The current version of an edited video.
    case fullSizeVideo = 6
    /// The edit's recipe.
    case adjustmentData = 7
    /// A Live Photo's motion: the movie taken with the still.
    case pairedVideo = 9
    /// The version of a Live Photo's movie that is shown: its playable version.
    case fullSizePairedVideo = 10

    /// Whether the asset's original files include it (as opposed to the files an edit makes).
    public var isOriginal: Bool {
        switch self {
        case .photo, .video, .audio, .alternatePhoto, .pairedVideo: true
        case .fullSizePhoto, .fullSizeVideo, .fullSizePairedVideo, .adjustmentData: false
        }
    }
}

/// One stored file of an asset (PhotoKit's `PHAssetResource`): a Live Photo is one asset with a `photo` and a
/// `pairedVideo` resource, stored, verified, exported and deleted together.
public struct AssetResource: Sendable, Hashable, Codable {
    /// The asset it belongs to.
    public var assetLocalIdentifier: String
    /// What it is.
    public var type: AssetResourceType
    /// The file name it was imported as.
    public var originalFilename: String
    /// SHA-256 of the file, lowercase hex: the name it is stored under, and how duplicates are found.
    public var contentHash: String
    /// The file's format, recognised by its content.
    public var format: ImageFormat
    /// The file's size in bytes.
    public var byteCount: Int
    /// Its upright size in pixels, for photos and videos.
    public var pixelWidth: Int
    /// Its upright height in pixels.
    public var pixelHeight: Int
    /// Its length in seconds, for videos; 0 otherwise.
    public var duration: Double
    /// For a movie (a video, a Live Photo's), whether browsers need a playable version of it, as judged from its
    /// headers when it was imported; nil for stills, and for movies imported before Sepia stored it (their
    /// headers are read once when it is first asked, and the answer kept).
    public var needsPlayableVersion: Bool?
    /// For a movie that needs a playable version, the pixels of the frames its encode decodes
    /// (`PlayableVideo.decodedPixels`), which the encode's cost is about proportional to; nil when its headers
    /// do not say or it was not judged.
    public var decodedPixels: Int?

    /// A resource.
    public init(
        assetLocalIdentifier: String, type: AssetResourceType, originalFilename: String, contentHash: String, format: ImageFormat,
        byteCount: Int, pixelWidth: Int, pixelHeight: Int, duration: Double = 0, needsPlayableVersion: Bool? = nil,
        decodedPixels: Int? = nil
    ) {
        self.assetLocalIdentifier = assetLocalIdentifier
        self.type = type
        self.originalFilename = originalFilename
        self.contentHash = contentHash
        self.format = format
        self.byteCount = byteCount
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.needsPlayableVersion = needsPlayableVersion
        self.decodedPixels = decodedPixels
    }

    /// Whether it is a movie a player plays: a video's original or a Live Photo's.
    public var isMotion: Bool { type == .video || type == .pairedVideo }
    /// Whether it is the playable version made of a movie.
    public var isPlayableVersion: Bool { type == .fullSizeVideo || type == .fullSizePairedVideo }

    /// The stored file behind it.
    var storedFile: StoredFile { StoredFile(kind: .original, hash: contentHash, format: format) }
}
