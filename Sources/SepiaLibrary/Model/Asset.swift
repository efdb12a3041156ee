public import Foundation
public import SepiaCodecs

/// A photo or a video in the library (PhotoKit's `PHAsset`): an immutable snapshot of its properties. Change an
/// asset with ``PhotoLibrary/performChanges(_:)``; read its pixels through ``ImageManager``, its files through
/// ``PhotoLibrary/resources(for:)``.
public struct Asset: LibraryObject, Hashable, Codable {
    /// The stable identifier (PhotoKit's `localIdentifier`): a UUID string.
    public var id: String
    /// What the asset holds.
    public var mediaType: MediaType
    /// Width in pixels of the current version (the edit's render, else the original), upright.
    public var pixelWidth: Int
    /// Height in pixels of the current version, upright.
    public var pixelHeight: Int
    /// When the photo was taken: the capture date with its UTC offset when the file has one; else the file's
    /// modification time. Dates without an offset are read as UTC.
    public var creationDate: Date
    /// The creation date's offset from UTC in seconds, when known: `creationDate` shown in the place it was
    /// taken.
    public var creationDateOffset: Int?
    /// Where ``creationDate`` came from.
    public var creationDateSource: CreationDateSource
    /// When the asset last changed (edit, revert, favorite, hide, date).
    public var modificationDate: Date
    /// When the asset was added to the library.
    public var addedDate: Date
    /// Where the photo was taken, from its GPS metadata.
    public var location: GPSLocation?
    /// The GeoNames identifier of the city nearest ``location``, which ``PhotoLibrary/place(of:)`` names; nil
    /// without a location, with none within 100 km, or before the library has placed it.
    public var placeIdentifier: Int? = nil
    /// Marked as a favourite.
    public var isFavorite: Bool
    /// Hidden: fetches leave it out unless ``FetchOptions/includeHiddenAssets`` is set.
    public var isHidden: Bool
    /// The file name the photo was imported from.
    public var originalFilename: String
    /// SHA-256 of the original file, lowercase hex: the name it is stored under and how duplicates are found.
    public var contentHash: String
    /// The original file's format.
    public var originalFormat: ImageFormat
    /// The original file's size in bytes.
    public var originalByteCount: Int
    /// The EXIF orientation (1–8) the original is displayed with.
    public var originalOrientation: Int
    /// The original's upright width.
    public var originalWidth: Int
    /// The original's upright height.
    public var originalHeight: Int
    /// Camera maker, from EXIF.
    public var cameraMake: String?
    /// Camera model, from EXIF.
    public var cameraModel: String?
    /// The identifier of the current adjustment (the live edit); nil when the asset shows its original.
    public var currentAdjustmentID: String?
    /// Incremented by every change to the asset; with ``id`` it names one state of it (an ETag).
    public var revision: Int
    /// What kind of photo or video it is beyond ``mediaType``: a Live Photo, a high-frame-rate video, …
    public var mediaSubtypes: MediaSubtypes = []
    /// A video's length in seconds; 0 for photos, Live Photos included (PhotoKit's `duration`).
    public var duration: Double = 0
    /// The identifier a Live Photo's still and movie share (Apple's content identifier), when the file that
    /// made the asset carries one: how the other part finds it, whichever is imported first.
    public var contentIdentifier: String?
    /// The name of the original's version, under which its renditions are cached: `original`, or, once a
    /// still has joined a movie that came first (making it a Live Photo), a name of its own, so that nothing
    /// made from the movie's poster is taken for the still's.
    public var originalVersion = "original"
    /// When the asset was deleted, while it is in Recently Deleted: it keeps its files and its albums until it
    /// is recovered or purged (``PhotoLibrary/purgeRecentlyDeleted()``). Nil for every other asset. Fetches
    /// leave such assets out, except the ``SmartAlbum/recentlyDeleted`` smart album.
    public var trashedDate: Date?

    /// The row's integer key: what fetch results hold. Never reused, so a deleted asset's key never names
    /// another asset.
    var rowID: Int64

    /// A short name for the asset (Photos' Title); nil when it has none.
    public var title: String? = nil
    /// A longer description (Photos' Caption); nil when it has none.
    public var caption: String? = nil
    /// Keywords in the order they were given, unique case-insensitively; hierarchical ones name their levels
    /// from the top, separated by `|` (`Places|France|Paris`).
    public var keywords: [String] = []
    /// Stars from 0 (not rated) to 5.
    public var rating = 0
    /// The capture date, time zone and location the original file carries, kept when they are edited so that
    /// an edit can be reverted (``ChangeRequests/revertCreationDate(of:)``,
    /// ``ChangeRequests/revertLocation(of:)``). Nil for an asset not yet in the library: its own values are
    /// the file's.
    public var fileMetadata: FileMetadata? = nil

    /// The title, caption, keywords and rating as one value.
    public var userMetadata: UserMetadata {
        UserMetadata(title: title, caption: caption, keywords: keywords, rating: rating)
    }

    /// Whether the capture date or its time zone was changed from the file's.
    public var isCreationDateEdited: Bool {
        guard let file = fileMetadata else { return false }
        return file.creationDate != creationDate || file.creationDateOffset != creationDateOffset
    }

    /// Whether the location was changed from the file's (set, moved or removed).
    public var isLocationEdited: Bool {
        guard let file = fileMetadata else { return false }
        return file.location != location
    }

    /// The asset has a live edit.
    public var hasAdjustments: Bool { currentAdjustmentID != nil }

    /// Whether it is a Live Photo: a still with the movie taken with it.
    public var isLivePhoto: Bool { mediaSubtypes.contains(.photoLive) }

    /// Whether it is in Recently Deleted (it has a ``trashedDate``).
    public var isRecentlyDeleted: Bool { trashedDate != nil }

    /// The current version: the adjustment's identifier, or `original`. Renditions are cached under it.
    public var contentVersion: String { currentAdjustmentID ?? originalVersion }

    /// The creation date as a calendar date and time in the place it was taken (UTC when unknown).
    public var localCreationDate: DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: creationDateOffset ?? 0) ?? TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: creationDate)
    }
}

extension Asset {
    /// Reads an asset, also one recorded by a version of Sepia that did not know videos, user metadata or
    /// Recently Deleted (the change log keeps deleted assets' snapshots): what it lacks takes the values of a still
    /// photo without title, caption, keywords or rating that was never deleted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        mediaType = try c.decode(MediaType.self, forKey: .mediaType)
        pixelWidth = try c.decode(Int.self, forKey: .pixelWidth)
        pixelHeight = try c.decode(Int.self, forKey: .pixelHeight)
        creationDate = try c.decode(Date.self, forKey: .creationDate)
        creationDateOffset = try c.decodeIfPresent(Int.self, forKey: .creationDateOffset)
        creationDateSource = try c.decode(CreationDateSource.self, forKey: .creationDateSource)
        modificationDate = try c.decode(Date.self, forKey: .modificationDate)
        addedDate = try c.decode(Date.self, forKey: .addedDate)
        location = try c.decodeIfPresent(GPSLocation.self, forKey: .location)
        isFavorite = try c.decode(Bool.self, forKey: .isFavorite)
        isHidden = try c.decode(Bool.self, forKey: .isHidden)
        originalFilename = try c.decode(String.self, forKey: .originalFilename)
        contentHash = try c.decode(String.self, forKey: .contentHash)
        originalFormat = try c.decode(ImageFormat.self, forKey: .originalFormat)
        originalByteCount = try c.decode(Int.self, forKey: .originalByteCount)
        originalOrientation = try c.decode(Int.self, forKey: .originalOrientation)
        originalWidth = try c.decode(Int.self, forKey: .originalWidth)
        originalHeight = try c.decode(Int.self, forKey: .originalHeight)
        cameraMake = try c.decodeIfPresent(String.self, forKey: .cameraMake)
        cameraModel = try c.decodeIfPresent(String.self, forKey: .cameraModel)
        currentAdjustmentID = try c.decodeIfPresent(String.self, forKey: .currentAdjustmentID)
        revision = try c.decode(Int.self, forKey: .revision)
        rowID = try c.decode(Int64.self, forKey: .rowID)
        mediaSubtypes = try c.decodeIfPresent(MediaSubtypes.self, forKey: .mediaSubtypes) ?? []
        duration = try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        contentIdentifier = try c.decodeIfPresent(String.self, forKey: .contentIdentifier)
        originalVersion = try c.decodeIfPresent(String.self, forKey: .originalVersion) ?? "original"
        title = try c.decodeIfPresent(String.self, forKey: .title)
        caption = try c.decodeIfPresent(String.self, forKey: .caption)
        keywords = try c.decodeIfPresent([String].self, forKey: .keywords) ?? []
        rating = try c.decodeIfPresent(Int.self, forKey: .rating) ?? 0
        fileMetadata = try c.decodeIfPresent(FileMetadata.self, forKey: .fileMetadata)
        trashedDate = try c.decodeIfPresent(Date.self, forKey: .trashedDate)
        placeIdentifier = try c.decodeIfPresent(Int.self, forKey: .placeIdentifier)
    }
}
