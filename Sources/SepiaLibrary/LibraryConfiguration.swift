public import Foundation
public import SepiaCodecs
public import SepiaImage
public import SepiaObjectStore
public import SepiaVideo

/// Where a library keeps its originals and the renders of its edits.
public enum LibraryStorage: Sendable {
    /// In the library folder (`originals/`, `renders/`): the embedded default.
    case libraryFolder
    /// In an S3 bucket, under the client's location, shared by every server that opens the library there.
    /// Each machine keeps a copy of the files it reads in the library folder's `objects/`, kept to
    /// `localCopyLimit` bytes (nil: no limit).
    case objectStorage(S3Client, localCopyLimit: Int? = 8 << 30)
}

/// Where a library keeps its database.
public enum LibraryDatabase: Sendable {
    /// `library.sqlite` in the library folder: the embedded default.
    case libraryFolder
    /// A schema of a PostgreSQL database, shared by every server that opens the library there. The library
    /// folder then holds only this machine's caches.
    case postgreSQL(PostgresLocation)
}

/// How a library is opened and how it treats files.
public struct LibraryConfiguration: Sendable {
    /// Limits and strictness for imported files. Imports are strict by default: a file whose data is damaged
    /// (truncated, corrupt entropy data) is refused rather than stored with grey patches.
    public var decodeOptions: DecodeOptions
    /// The memory cache's limit, in bytes of encoded images.
    public var memoryCacheLimit: Int
    /// The byte budget of the on-disk rendition cache (`cache/`): past it, the least recently used renditions
    /// are removed (they are made again when needed). Nil lets the cache grow without bound.
    public var diskCacheLimit: Int?
    /// JPEG quality of renditions (thumbnails and previews).
    public var renditionQuality: Int
    /// JPEG quality of rendered edits.
    public var editQuality: Int
    /// How often observers check for commits made by other processes.
    public var changePollInterval: Duration
    /// The render context for renditions and edits; nil makes one per library.
    public var renderContext: RenderContext?
    /// Whether the image store sheds memory under memory pressure.
    public var watchesMemoryPressure: Bool
    /// Where originals and renders are kept.
    public var storage: LibraryStorage
    /// Where the database is.
    public var database: LibraryDatabase
    /// The limits videos are read within (size, duration, frame size, streams, time), and how their poster
    /// frame is chosen.
    public var videoOptions = VideoOptions()
    /// How long a deleted asset stays in Recently Deleted before ``PhotoLibrary/purgeRecentlyDeleted()``
    /// deletes it for good: 30 days, as in Photos.
    public var recentlyDeletedRetention: Duration = .seconds(30 * 86_400)
    /// The most an edit's render may cost (``RenderCost``): ``PhotoLibrary/edit(_:recipe:)`` checks the recipe
    /// before it renders, and refuses one over the limit with ``RecipeCostError``.
    public var renderCostLimit: RenderCostLimit = .default
    /// What time it is, for Recently Deleted: the date a deletion records, the days an asset has left there,
    /// and what a purge removes. Tests give a clock they move ("31 days later") instead of waiting.
    public var clock: @Sendable () -> Date = { Date() }
    /// How faces are grouped into people: dlib's distance threshold, and 3 faces to make a person, by default.
    public var faceGrouping = FaceGroupingOptions()
    /// The folder of GeoNames tables places are found in; nil: `SEPIA_GEONAMES`, else the one Debian's
    /// `libtimezonemap-data` installs (see ``ReverseGeocoder``).
    public var geoNamesDirectory: String? = nil
    /// The part of the library's object-storage prefix that Sepia adds to the location a person gives
    /// (`libraries/owner/` for the owner's library of a deployment), so that advice about `--storage` names what
    /// to type.
    public var storagePathAdded = ""

    /// The defaults: strict imports with the standard limits, a 128 MiB memory cache, a 4 GiB disk cache, q82
    /// renditions, q92 edits, 250 ms change polling, the database and files in the library folder.
    public init(
        decodeOptions: DecodeOptions = DecodeOptions(strict: true), memoryCacheLimit: Int = 128 << 20, diskCacheLimit: Int? = 4 << 30,
        renditionQuality: Int = 82,
        editQuality: Int = 92, changePollInterval: Duration = .milliseconds(250), renderContext: RenderContext? = nil,
        watchesMemoryPressure: Bool = true, storage: LibraryStorage = .libraryFolder, database: LibraryDatabase = .libraryFolder
    ) {
        self.decodeOptions = decodeOptions
        self.memoryCacheLimit = memoryCacheLimit
        self.diskCacheLimit = diskCacheLimit
        self.renditionQuality = renditionQuality
        self.editQuality = editQuality
        self.changePollInterval = changePollInterval
        self.renderContext = renderContext
        self.watchesMemoryPressure = watchesMemoryPressure
        self.storage = storage
        self.database = database
    }
}
