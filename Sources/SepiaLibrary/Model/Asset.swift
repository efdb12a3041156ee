public import Foundation
public import SepiaCodecs

/// A photo in the library (PhotoKit's `PHAsset`): an immutable snapshot of its properties. Change an asset
/// with ``PhotoLibrary/performChanges(_:)``; read its pixels through ``ImageManager``.
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

    /// The row's integer key: what fetch results hold. Never reused, so a deleted asset's key never names
    /// another asset.
    var rowID: Int64

    /// The asset has a live edit.
    public var hasAdjustments: Bool { currentAdjustmentID != nil }

    /// The current version: the adjustment's identifier, or `original`. Renditions are cached under it.
    public var contentVersion: String { currentAdjustmentID ?? "original" }

    /// The creation date as a calendar date and time in the place it was taken (UTC when unknown).
    public var localCreationDate: DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: creationDateOffset ?? 0) ?? TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: creationDate)
    }
}
