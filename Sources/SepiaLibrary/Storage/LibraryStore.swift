import Foundation
import SepiaCodecs
import SepiaPlaces

/// Everything ``PhotoLibrary`` asks of its database, and nothing more. ``SQLLibraryStore`` implements it over
/// SQLite (the embedded library) and PostgreSQL (several servers sharing one database and one bucket). Files
/// never go through the store: it records which files rows name, and the library writes them first.
///
/// Every method is one transaction. Writes are serialised across threads and processes; reads never wait
/// for writes.
protocol LibraryStore: Sendable {
    // MARK: Fetching

    /// The ordered keys of the assets `query` matches, and the change generation they reflect.
    func snapshot(_ query: AssetQuery) throws(LibraryError) -> Snapshot
    /// One page of the assets `query` matches, after `cursor`, and the number of matches.
    func page(_ query: AssetQuery, after cursor: AssetCursor?, limit: Int) throws(LibraryError) -> AssetPage
    /// The ordered keys of the user albums.
    func albumSnapshot() throws(LibraryError) -> Snapshot
    /// Assets by key. Keys of assets deleted since a snapshot are answered from the change log while it keeps
    /// them.
    func assets(rowIDs: [Int64]) throws(LibraryError) -> [Int64: Asset]
    /// User albums by key, with their visible asset counts.
    func albums(rowIDs: [Int64]) throws(LibraryError) -> [Int64: Album]
    /// Assets by identifier, in no particular order; unknown identifiers are left out.
    func assets(ids: [String]) throws(LibraryError) -> [Asset]
    /// Assets whose identifier starts with `prefix` (at most `limit`).
    func assets(idPrefix: String, limit: Int) throws(LibraryError) -> [Asset]
    /// The asset one of whose files has this hash.
    func asset(contentHash: String) throws(LibraryError) -> Asset?
    /// The asset already in the library that `asset` would complete as a Live Photo, if any.
    func pairingPartner(of asset: Asset) throws(LibraryError) -> Asset?
    /// The stored files of these assets, by asset then type.
    func resources(assetIDs: [String]) throws(LibraryError) -> [AssetResource]
    /// User albums by identifier or exact title.
    func albums(matching idOrTitle: String) throws(LibraryError) -> [Album]
    /// The number of visible assets in each smart album.
    func smartAlbumCounts() throws(LibraryError) -> [SmartAlbum: Int]
    /// The timeline: visible assets grouped by year, or by month within `year`.
    func collectionLists(year: Int?) throws(LibraryError) -> [CollectionList]
    /// An asset's adjustments, oldest first.
    func adjustments(assetID: String) throws(LibraryError) -> [Adjustment]
    /// One adjustment.
    func adjustment(id: String) throws(LibraryError) -> Adjustment?

    // MARK: Presets

    /// Every edit preset, by name.
    func presets() throws(LibraryError) -> [EditPreset]
    /// Saves a preset; one of the same name is replaced when `replacing`, else refused as a duplicate.
    func savePreset(_ preset: EditPreset, replacing: Bool) throws(LibraryError) -> EditPreset
    /// Deletes a preset; false when there is none.
    func deletePreset(id: String) throws(LibraryError) -> Bool

    // MARK: Saved searches

    /// The saved searches, newest first.
    func savedSearches() throws(LibraryError) -> [SavedSearch]
    /// Inserts a saved search unless the library has `limit`; returns whether it did.
    func insertSavedSearch(_ search: SavedSearch, limit: Int) throws(LibraryError) -> Bool
    /// Replaces a saved search's title and query; returns whether it exists.
    func updateSavedSearch(_ search: SavedSearch) throws(LibraryError) -> Bool
    /// Deletes a saved search; returns whether it existed.
    func deleteSavedSearch(id: String) throws(LibraryError) -> Bool

    // MARK: Duplicates

    /// Photos and videos not yet hashed by `algorithm` (or by an older one), after `afterRowID`, in row order.
    func assetsWaitingForHash(algorithm: Int, afterRowID: Int64, limit: Int) throws(LibraryError) -> [Asset]
    /// Records each asset's perceptual hash (nil: unreadable) by `algorithm`, in one transaction.
    func recordHashes(_ hashes: [(rowID: Int64, hash: UInt64?)], algorithm: Int) throws(LibraryError)
    /// The hashes of the visible photos and videos `predicate` matches.
    func hashedAssets(algorithm: Int, matching predicate: AssetPredicate?) throws(LibraryError) -> [(rowID: Int64, id: String, hash: UInt64)]
    /// Every pair of assets the user said are not duplicates, smaller row first.
    func duplicateDismissals() throws(LibraryError) -> [(Int64, Int64)]
    /// Records, or forgets, that no two of the assets are duplicates; returns how many of them exist.
    func setDuplicateDismissal(_ ids: [String], dismissed: Bool) throws(LibraryError) -> Int
    /// How far hashing has come.
    func duplicatesStatus(algorithm: Int) throws(LibraryError) -> DuplicatesStatus
    /// What the groups depend on: they are unchanged while it is.
    func duplicatesState() throws(LibraryError) -> [Int64]

    // MARK: Places

    /// Finds the places of up to `limit` assets whose position has none found yet, in one transaction; returns
    /// how many it looked at (0 when none wait or the GeoNames tables cannot be read).
    func placeWaitingAssets(limit: Int) throws(LibraryError) -> Int
    /// Places by GeoNames identifier; unknown ones are left out.
    func places(ids: [Int]) throws(LibraryError) -> [Int: Place]
    /// The Places album: the countries and cities of the visible assets `predicate` matches.
    func placeSummaries(matching predicate: AssetPredicate?) throws(LibraryError) -> [CountrySummary]
    /// How many assets are located, placed and waiting, and whether the tables could be read.
    func placesStatus() throws(LibraryError) -> PlacesStatus
    /// The visible located assets `predicate` matches in a region: each of them when there are at most
    /// `itemLimit`, else counted in cells of ``MapCells/degrees(zoom:)``, from the kept cells when there is no
    /// predicate and the region holds more than `liveRowLimit`.
    func mapMarkers(
        in region: MapRegion, zoom: Int, itemLimit: Int, matching predicate: AssetPredicate?, liveRowLimit: Int
    ) throws(LibraryError)
        -> MapMarkers
    /// Counts the map's kept cells anew from the assets' rows; returns how many there are.
    func rebuildMapCells() throws(LibraryError) -> Int

    // MARK: Search

    /// Indexes every asset when the library's search index is missing or of another version; whether it did.
    func prepareSearchIndex() throws(LibraryError) -> Bool
    /// Writes every asset's search document anew; returns how many.
    func rebuildSearchIndex() throws(LibraryError) -> Int
    /// User albums with a word of their title starting with `word` (folded), in the albums' order.
    func albums(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, title: String)]
    /// Named, visible people with a word of their name starting with `word`, most photos first.
    func people(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, name: String)]
    /// Countries, then cities, with photos, with a word of their name starting with `word`, most photos first.
    func places(matchingWord word: String, limit: Int) throws(LibraryError) -> [PlaceSuggestion]
    /// Keywords (their last level) with a word starting with `word`, most used first.
    func keywords(matchingWord word: String, limit: Int) throws(LibraryError) -> [String]

    // MARK: People

    /// Records the faces indexing found in each asset, replacing its faces (keeping the user's decisions about a
    /// face found again at the same place), records the asset as indexed by `algorithm`, and groups the new faces.
    /// Returns each asset's faces as they are then.
    func recordFaces(
        _ batch: [(assetID: String, faces: [DetectedFace])], algorithm: Int, grouping: FaceGroupingOptions, date: Date
    ) throws(LibraryError) -> [String: [Face]]
    /// An asset's faces, left to right.
    func faces(assetID: String) throws(LibraryError) -> [Face]
    /// Faces by identifier, in no particular order; unknown identifiers are left out.
    func faces(ids: [String]) throws(LibraryError) -> [Face]
    /// A person's faces, newest asset first.
    func faces(personID: String) throws(LibraryError) -> [Face]
    /// Faces that belong to no one, after the face `faceID` in the order they were found (at most `limit`).
    func unassignedFaces(after faceID: String?, limit: Int) throws(LibraryError) -> [Face]
    /// The people listed (named, or with at least `minimumFaces` faces): named first, then most photos first.
    func people(minimumFaces: Int, includingHidden: Bool) throws(LibraryError) -> [Person]
    /// People by identifier, listed or not, in no particular order; unknown identifiers are left out.
    func people(ids: [String]) throws(LibraryError) -> [Person]
    /// The person called `name` (case and accents folded), if any.
    func person(named name: String) throws(LibraryError) -> Person?
    /// Assets outside Recently Deleted not indexed by `algorithm` or a newer version, after the asset with key
    /// `afterRowID`, in key order (at most `limit`).
    func assetsNeedingFaceIndex(algorithm: Int, afterRowID: Int64, limit: Int) throws(LibraryError) -> [Asset]
    /// Counts of indexing and grouping.
    func faceIndexStatus(algorithm: Int, minimumFaces: Int) throws(LibraryError) -> FaceIndexStatus
    /// Forgets that these assets were indexed, so that indexing finds them again.
    func requestFaceIndexing(assetIDs: [String]) throws(LibraryError)
    /// Whether the library finds faces (its owner can turn them off).
    func findsFaces() throws(LibraryError) -> Bool
    /// Turns finding faces on, or off, which deletes every face and person at once.
    func setFindsFaces(_ on: Bool) throws(LibraryError)
    /// Makes a face the target's, confirmed.
    func assignFace(id: String, to target: PersonTarget, date: Date) throws(LibraryError) -> PeopleUndo
    /// "Not this person": the face leaves its person for good.
    func rejectFace(id: String) throws(LibraryError) -> PeopleUndo
    /// Merges people into one.
    func mergePeople(_ sources: [String], into target: String) throws(LibraryError) -> PeopleUndo
    /// Undoes a change to people; returns the way back again.
    func undoPeopleChange(_ undo: PeopleUndo) throws(LibraryError) -> PeopleUndo
    /// Names or unnames a person.
    func renamePerson(id: String, name: String?) throws(LibraryError)
    /// Hides or shows a person.
    func setPersonHidden(id: String, _ hidden: Bool) throws(LibraryError)
    /// Chooses the face that shows a person.
    func setKeyFace(personID: String, faceID: String) throws(LibraryError)
    /// Groups every face not confirmed again.
    func regroupFaces(grouping: FaceGroupingOptions) throws(LibraryError)
    /// Deletes every face, person and index record.
    func removeAllFaces() throws(LibraryError)

    // MARK: Changes

    /// The latest change generation.
    func currentGeneration() throws(LibraryError) -> Int64
    /// What changed after `generation`, or nil when the log no longer reaches back that far.
    func changes(after generation: Int64) throws(LibraryError) -> ChangeLogSlice?
    /// The log's entries after `generation`, oldest first (at most `limit`), or nil when the log no longer
    /// reaches back that far.
    func changeLog(after generation: Int64, limit: Int) throws(LibraryError) -> [LibraryChange]?
    /// Applies `changes` in one transaction, in order: all of them or none. `files` says how to make sure,
    /// inside the transaction, that each file a new row names is in place; when one is not, the commit fails
    /// with a ``LibraryError/vanishedFile`` so the caller can write it again and retry.
    func commit(_ changes: [StoredChange], files: FileCheck) throws(LibraryError) -> CommitResult

    // MARK: Files and maintenance

    /// Which of `files` no row names any more; called inside one write transaction so that no other process
    /// can start naming them meanwhile. `remove` deletes them while the transaction is open. With
    /// `recordingSweep`, the removed files are recorded as swept (see ``FileCheck/notSweptAfter(_:)``).
    func withUnreferencedFiles(
        _ files: [StoredFile], recordingSweep: Bool, remove: ([StoredFile]) throws(LibraryError) -> [StoredFile]
    ) throws(LibraryError)
    /// The number of the latest sweep of shared storage: read it before storing files, and commit rows that
    /// name them with ``FileCheck/notSweptAfter(_:)``.
    func latestSweep() throws(LibraryError) -> Int64
    /// Keeps what a movie's headers said of its playback (``AssetResource/needsPlayableVersion`` and
    /// ``AssetResource/decodedPixels``) in the row of the resource with its content hash, when the row does not
    /// say yet: a fact of the file, not an edit, so no change is logged.
    func recordPlayback(of resource: AssetResource) throws(LibraryError)
    /// Every file rows name.
    func allFileReferences() throws(LibraryError) -> [StoredFile]
    /// Deletes for good, in one transaction, every asset that went to Recently Deleted at or before `cutoff`:
    /// what is there when the transaction runs, so that purges running at once (two servers) delete each asset
    /// once and fail on none.
    func purgeRecentlyDeleted(deletedBefore cutoff: Date) throws(LibraryError) -> CommitResult
    /// Every asset identifier.
    func allAssetIDs() throws(LibraryError) -> Set<String>
    /// How many assets there are (in Recently Deleted and hidden too), and how many of them are videos.
    func assetCounts() throws(LibraryError) -> (all: Int, videos: Int)
    /// The database's own consistency check; empty when it is sound.
    func integrityProblems() throws(LibraryError) -> [String]
    /// What was imported from `path` before, if anything.
    func importSource(path: String) throws(LibraryError) -> ImportSource?
    /// Where the library's files are kept, as recorded: an `s3://BUCKET/PREFIX` identity, or nil for the
    /// library folder.
    func recordedStorage() throws(LibraryError) -> String?
    /// Records where the library keeps its files, in the transaction that checks it has none yet (returns
    /// false, recording nothing, when it has assets).
    func recordStorage(_ identity: String?) throws(LibraryError) -> Bool
}

/// How a commit makes sure the files its new rows name are in place.
enum FileCheck {
    /// Ask the file system (a library folder, where files are removed inside write transactions).
    case exists((StoredFile) -> Bool)
    /// Shared storage (object storage), where asking would mean a network round trip inside the transaction:
    /// each file was stored after the sweep whose number the closure gives, so it is in place unless a later
    /// sweep removed it. A sweep removes objects inside a write transaction and records them, so a commit
    /// either comes first (and the sweep sees its rows) or sees the record.
    case notSweptAfter((StoredFile) -> Int64)
}

/// The ordered keys of a fetch and the change generation they reflect.
struct Snapshot: Sendable {
    var rowIDs: [Int64]
    var generation: Int64
}

/// Which assets to fetch: a scope and the options.
struct AssetQuery: Sendable, Hashable {
    enum Scope: Sendable, Hashable {
        case library
        case album(rowID: Int64)
        case smartAlbum(SmartAlbum)
        case collection(year: Int, month: Int?)
    }

    var scope: Scope
    var options: FetchOptions
}

/// A file the library stores, as rows name it.
struct StoredFile: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable {
        case original
        case render
    }

    var kind: Kind
    var hash: String
    /// The original's format (renders are JPEG).
    var format: ImageFormat
}

/// A file imported before: where it was, what it looked like, and its hash.
struct ImportSource: Sendable, Hashable {
    var path: String
    var byteCount: Int
    var modificationTime: Double
    var inode: UInt64
    var contentHash: String
}

/// What the change log says happened after a generation.
struct ChangeLogSlice: Sendable {
    var generation: Int64
    var insertedAssets: Set<Int64> = []
    var updatedAssets: Set<Int64> = []
    var deletedAssets: Set<Int64> = []
    var insertedAlbums: Set<Int64> = []
    var updatedAlbums: Set<Int64> = []
    var deletedAlbums: Set<Int64> = []
    var assetIdentifiers: [Int64: String] = [:]
    var albumIdentifiers: [Int64: String] = [:]
}

/// One change request, resolved to what the database must do.
enum StoredChange: Sendable {
    case createAsset(NewAsset)
    /// Deletes assets for good: their rows, and the files no other row names.
    case deleteAssets([String])
    /// Moves assets to Recently Deleted, as of `date` (assets there already keep their date).
    case trashAssets([String], date: Date)
    /// Brings assets back from Recently Deleted, into the albums they were in (others are left alone).
    case recoverAssets([String])
    case setFavorite(assetID: String, Bool)
    case setHidden(assetID: String, Bool)
    /// Makes a RAW+JPEG pair show its RAW file (true) or the other one.
    case showRAW(assetID: String, Bool)
    case createAlbum(id: String, title: String)
    case renameAlbum(id: String, title: String)
    case deleteAlbums([String])
    case addAssets(albumID: String, assetIDs: [String])
    case insertAssets(albumID: String, assetIDs: [String], at: Int)
    case removeAssets(albumID: String, assetIDs: [String])
    case moveAssets(albumID: String, from: IndexSet, to: Int)
    case setAdjustment(assetID: String, NewAdjustment)
    case revert(assetID: String)
    case recordImportSource(ImportSource)
    /// Adds a derived file to an asset (a video's playable version), replacing one of the same type.
    case addResource(assetID: String, AssetResource)
    /// Changes the title, caption, keywords, rating, date or place of assets (SQLLibraryStore+Metadata.swift).
    case editMetadata(assetIDs: [String], MetadataEdit)
}

/// A new asset, its files already stored. When it is one part of a Live Photo whose other part is in the
/// library already, the commit attaches it to that asset instead of creating one (see ``LivePhotoPairing``).
struct NewAsset: Sendable {
    var asset: Asset
    /// Its files, the primary one (``Asset/contentHash``) first.
    var resources: [AssetResource]
    /// Whether it may join an asset already in the library as a Live Photo's other part.
    var mayPair = true

    /// A new asset of one file.
    init(asset: Asset, resources: [AssetResource]) {
        self.asset = asset
        self.resources = resources
    }

    /// The stored files.
    var files: [StoredFile] { resources.map(\.storedFile) }
}

/// A new adjustment, its render already stored.
struct NewAdjustment: Sendable {
    var id: String
    var data: AdjustmentData
    var renderedContentHash: String
    var renderedWidth: Int
    var renderedHeight: Int
    var creationDate: Date
    var baseAdjustmentID: String?
}

/// What a commit did that the library must follow up on.
struct CommitResult: Sendable {
    /// The generation after the commit (unchanged when nothing changed).
    var generation: Int64
    /// Files rows no longer name: delete them once no row does.
    var releasedFiles: [StoredFile] = []
    /// Assets deleted for good: their cached renditions go too.
    var deletedAssetIDs: [String] = []
    /// Assets whose current version changed (edit, revert): renditions of older versions go.
    var reversionedAssetIDs: [String] = []
    /// New assets that joined one already in the library instead of being created (a Live Photo's part that
    /// found its partner), by the identifier they were prepared with.
    var pairedAssets: [String: String] = [:]
}
