import Foundation
public import SepiaImage
import SepiaObjectStore

/// A photo library on disk (PhotoKit's `PHPhotoLibrary`): assets, albums, edits and their files in one folder,
/// recorded in SQLite. Open it once per process and share it; it is thread-safe, and several processes may
/// have the same library open at once.
///
/// ```swift
/// let library = try PhotoLibrary.open(at: "/srv/photos")
/// let outcome = try await library.performChanges { changes in
///     changes.createAsset(fromFile: "IMG_0042.HEIC")
/// }
/// let recents = try library.fetchAssets()
/// for await details in library.changes(for: recents) { … }
/// ```
public final class PhotoLibrary: Sendable {
    /// The library folder.
    public let path: String
    /// How the library was opened.
    public let configuration: LibraryConfiguration
    /// What opening the library cleaned up.
    public let openingReport: OpeningReport
    /// Thumbnails and previews, in memory and on disk.
    public let imageStore: ImageStore
    /// The render context renditions and edits use.
    public let renderContext: RenderContext

    let folder: LibraryFolder
    let store: any LibraryStore
    let blobs: any BlobStore
    let lock: LibraryLock
    let monitor: ChangeMonitor
    let renderer: RenditionRenderer
    /// The near-duplicate groups found last (``duplicateGroups(threshold:matching:)``).
    let duplicateGroupsCache = DuplicateGroupsCache()

    /// What opening a library removed: files a killed process left behind.
    public struct OpeningReport: Sendable, Hashable, Codable {
        /// Whether no other process had the library open, so that clean-up could run.
        public var cleanedUp: Bool
        /// Stored files no row named (originals or renders of changes that never committed), relative to the
        /// library folder.
        public var removedOrphans: [String]
        /// Temporary files of interrupted writes.
        public var removedTemporaryFiles: Int
        /// Cache folders of assets that no longer exist.
        public var removedCacheFolders: Int
    }

    private init(
        folder: LibraryFolder, configuration: LibraryConfiguration, store: any LibraryStore, blobs: any BlobStore,
        lock: LibraryLock, report: OpeningReport, generation: Int64
    ) {
        self.folder = folder
        self.blobs = blobs
        path = folder.root
        self.configuration = configuration
        self.store = store
        self.lock = lock
        openingReport = report
        renderContext = configuration.renderContext ?? RenderContext()
        renderer = RenditionRenderer(context: renderContext, quality: configuration.renditionQuality)
        imageStore = ImageStore(
            folder: folder, memoryCostLimit: configuration.memoryCacheLimit, diskCostLimit: configuration.diskCacheLimit,
            shared: (blobs as? ObjectBlobStore).map { SharedRenditions(client: $0.client) })
        var announcements: ChangeMonitor.Announcements?
        if let postgres = (store as? SQLLibraryStore)?.database as? PostgresDatabase {
            let listener = PostgresChangeListener.shared(for: postgres.pool)
            let schema = postgres.location.schema
            announcements = { handler in listener.listen(schema: schema, handler) }
        }
        monitor = ChangeMonitor(generation: generation, interval: configuration.changePollInterval, announcements: announcements) {
            [store] in try? store.currentGeneration()
        }
        if configuration.watchesMemoryPressure { imageStore.watchMemoryPressure() }
    }

    /// Opens the library in `path`, creating it if the folder is empty or missing. When no other process has
    /// it open, files left by an interrupted process are removed first and listed in ``openingReport``.
    ///
    /// With ``LibraryStorage/objectStorage(_:localCopyLimit:)`` the folder holds the database and caches, and
    /// originals and renders are in the bucket; objects no row names are removed by ``sweepStorage(olderThan:)``.
    public static func open(
        at path: String, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError)
        -> PhotoLibrary
    {
        let folder = LibraryFolder(path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.root, isDirectory: &isFolder), !isFolder.boolValue {
            throw LibraryError(.cannotOpen, "is a file, not a library folder", subject: folder.root)
        }
        try folder.createFolders()
        let lock = try LibraryLock(path: folder.lockFile)
        let alone = lock.tryExclusive()
        let store: SQLLibraryStore
        let blobs: any BlobStore =
            switch configuration.storage {
            case .libraryFolder: FolderBlobStore(folder: folder)
            case .objectStorage(let client, let limit): ObjectBlobStore(client: client, folder: folder, copyLimit: limit)
            }
        var report = OpeningReport(cleanedUp: alone, removedOrphans: [], removedTemporaryFiles: 0, removedCacheFolders: 0)
        do {
            let database: any SQLDatabase =
                switch configuration.database {
                case .libraryFolder: try SQLiteDatabase(path: folder.database)
                case .postgreSQL(let location): try PostgresDatabase(location: location)
                }
            store = SQLLibraryStore(database: database, places: PlaceFinder(directory: configuration.geoNamesDirectory))
            try Self.checkStorage(configuration.storage, of: store, at: folder, added: configuration.storagePathAdded)
            // A library written before search, or by a Sepia whose search documents differ, is indexed once here.
            _ = try store.prepareSearchIndex()
            // Stored files left by an interrupted import are removed here only when this process alone can
            // be writing them: a library folder with its own database. Shared storage is swept instead.
            let ownsFiles = blobs is FolderBlobStore && database is SQLiteDatabase
            if alone { report = try LibraryCleaner(folder: folder, store: store).removeLeftovers(storedFilesToo: ownsFiles) }
        } catch {
            lock.holdShared()
            throw error
        }
        lock.holdShared()
        let generation = try store.currentGeneration()
        return PhotoLibrary(
            folder: folder, configuration: configuration, store: store, blobs: blobs, lock: lock, report: report,
            generation: generation)
    }

    /// Makes sure the library is opened with the storage its files are in, recording it for a new library.
    /// The advice names the location as a person gives it: without `added`, the part Sepia appends.
    private static func checkStorage(
        _ storage: LibraryStorage, of store: any LibraryStore, at folder: LibraryFolder, added: String
    ) throws(LibraryError) {
        let wanted: String? =
            switch storage {
            case .libraryFolder: nil
            case .objectStorage(let client, _): client.location.identity
            }
        let recorded = try store.recordedStorage()
        if recorded == wanted { return }
        if try store.recordStorage(wanted) { return }
        let place = recorded.map { "in object storage at \($0)" } ?? "in its folder"
        let fix = recorded.map { "open it with --storage \(Self.givenLocation($0, added: added))?endpoint=…" } ?? "open it without --storage"
        throw LibraryError(.cannotOpen, "the library keeps its files \(place); \(fix)", subject: folder.root)
    }

    /// `s3://BUCKET/PREFIX` as a person gives it to `--storage`: the recorded identity without the path Sepia
    /// added and without a trailing slash (`s3://sepia/libraries/owner/` → `s3://sepia`).
    static func givenLocation(_ identity: String, added: String) -> String {
        var location = identity
        if !added.isEmpty, location.hasSuffix(added) { location.removeLast(added.count) }
        while location.hasSuffix("/") && !location.hasSuffix("://") { location.removeLast() }
        return location
    }

    /// Whether other processes, on other machines, may write this library's files: with object storage or a
    /// shared database. Leftovers are then swept after a grace period rather than removed at opening.
    var sharesStorage: Bool {
        !(blobs is FolderBlobStore && (store as? SQLLibraryStore)?.database is SQLiteDatabase)
    }

    /// Stops observers and background work. The library must not be used afterwards.
    public func close() {
        monitor.finishAll()
        imageStore.stopWatchingMemoryPressure()
        imageStore.diskIndex?.stop()
        (blobs as? ObjectBlobStore)?.copyIndex?.stop()
    }

    deinit {
        monitor.finishAll()
        imageStore.stopWatchingMemoryPressure()
        imageStore.diskIndex?.stop()
        (blobs as? ObjectBlobStore)?.copyIndex?.stop()
    }
}
