public import Foundation
import SepiaCodecs

/// The change requests of one ``PhotoLibrary/performChanges(_:)`` block (PhotoKit's `PHAssetChangeRequest`,
/// `PHAssetCollectionChangeRequest` and `PHAssetCreationRequest` in one place). Requests only record what to
/// do; the library then prepares the files they need and applies every request in one transaction, in the
/// order they were made. If any request fails, none takes effect.
///
/// ```swift
/// let outcome = try await library.performChanges { changes in
///     let photo = changes.createAsset(fromFile: "/photos/IMG_0042.HEIC")
///     let album = changes.createAlbum(title: "Lisbon")
///     changes.addAssets([photo.localIdentifier], to: album.localIdentifier)
/// }
/// ```
public final class ChangeRequests {
    enum Request {
        case createFromFile(id: String, path: String)
        case createFromData(id: String, data: Data, filename: String)
        case createPrepared(PreparedAsset)
        case stored(StoredChange)
        case contentEditing(assetID: String, ContentEditingOutput)
        /// Assets to move to Recently Deleted, as of the library's clock when the changes are applied.
        case trash([String])
    }

    private(set) var requests: [Request] = []

    init() {}

    // MARK: Assets

    /// Adds the image file at `path` (PhotoKit's `creationRequestForAssetFromImage(atFileURL:)`). The file is
    /// copied into the library; its metadata is read for the creation date, location and camera.
    @discardableResult
    public func createAsset(fromFile path: String) -> AssetPlaceholder {
        let id = Self.newIdentifier()
        requests.append(.createFromFile(id: id, path: path))
        return AssetPlaceholder(localIdentifier: id)
    }

    /// Adds an image from its encoded bytes, as uploaded (PhotoKit's `PHAssetCreationRequest.addResource`).
    @discardableResult
    public func createAsset(from data: Data, filename: String) -> AssetPlaceholder {
        let id = Self.newIdentifier()
        requests.append(.createFromData(id: id, data: data, filename: filename))
        return AssetPlaceholder(localIdentifier: id)
    }

    /// Adds an asset prepared earlier with ``PhotoLibrary/prepareAsset(fileAt:options:)``.
    @discardableResult
    public func createAsset(from prepared: PreparedAsset) -> AssetPlaceholder {
        requests.append(.createPrepared(prepared))
        return AssetPlaceholder(localIdentifier: prepared.localIdentifier)
    }

    /// Deletes assets as Photos does (PhotoKit's `deleteAssets(_:)`): they move to Recently Deleted, where they
    /// stay for the library's ``LibraryConfiguration/recentlyDeletedRetention`` with their files, edits and
    /// album memberships, leaving every fetch but the ``SmartAlbum/recentlyDeleted`` smart album's. Observers of
    /// other fetches see them removed. ``recoverAssets(_:)`` brings them back; ``deleteAssetsPermanently(_:)``
    /// or ``PhotoLibrary/purgeRecentlyDeleted()`` deletes them for good. Assets already there keep their date.
    public func deleteAssets(_ assetIDs: [String]) {
        requests.append(.trash(assetIDs))
    }

    /// Deletes assets for good, whether they are in Recently Deleted or not: their rows, their files (those no
    /// other asset shares), their edits and their cached images. This cannot be undone.
    public func deleteAssetsPermanently(_ assetIDs: [String]) {
        requests.append(.stored(.deleteAssets(assetIDs)))
    }

    /// Brings assets back from Recently Deleted (Photos' Recover), with their edits, into the albums they were
    /// in, at the places they had. Observers see them inserted. Assets not in Recently Deleted are left alone.
    public func recoverAssets(_ assetIDs: [String]) {
        requests.append(.stored(.recoverAssets(assetIDs)))
    }

    /// Marks or unmarks an asset as a favourite.
    public func setFavorite(_ isFavorite: Bool, for assetID: String) {
        requests.append(.stored(.setFavorite(assetID: assetID, isFavorite)))
    }

    /// Makes a RAW+JPEG pair show its RAW file as its original (Photos' "Use RAW as Original"), or its JPEG
    /// again. The other file stays its alternate photo. An edited pair is refused: revert the edit first.
    public func useRAW(_ useRAW: Bool, for assetID: String) {
        requests.append(.stored(.showRAW(assetID: assetID, useRAW)))
    }

    /// Hides or shows an asset.
    public func setHidden(_ isHidden: Bool, for assetID: String) {
        requests.append(.stored(.setHidden(assetID: assetID, isHidden)))
    }

    /// Saves an edit (PhotoKit's `contentEditingOutput`): the output's adjustment data and its rendered JPEG
    /// become the asset's current version. The original is untouched.
    public func setContentEditingOutput(_ output: ContentEditingOutput, for assetID: String) {
        requests.append(.contentEditing(assetID: assetID, output))
    }

    /// Makes the original the current version again (PhotoKit's `revertAssetContentToOriginal()`). The edit
    /// history is kept.
    public func revertToOriginal(_ assetID: String) {
        requests.append(.stored(.revert(assetID: assetID)))
    }

    // MARK: Albums

    /// Creates a user album, placed after the existing ones.
    @discardableResult
    public func createAlbum(title: String) -> AlbumPlaceholder {
        let id = Self.newIdentifier()
        requests.append(.stored(.createAlbum(id: id, title: title)))
        return AlbumPlaceholder(localIdentifier: id)
    }

    /// Renames a user album.
    public func renameAlbum(_ albumID: String, to title: String) {
        requests.append(.stored(.renameAlbum(id: albumID, title: title)))
    }

    /// Deletes user albums. Their assets stay in the library.
    public func deleteAlbums(_ albumIDs: [String]) {
        requests.append(.stored(.deleteAlbums(albumIDs)))
    }

    /// Appends assets to an album; assets already in it keep their place.
    public func addAssets(_ assetIDs: [String], to albumID: String) {
        requests.append(.stored(.addAssets(albumID: albumID, assetIDs: assetIDs)))
    }

    /// Inserts assets at `index` of an album.
    public func insertAssets(_ assetIDs: [String], at index: Int, in albumID: String) {
        requests.append(.stored(.insertAssets(albumID: albumID, assetIDs: assetIDs, at: index)))
    }

    /// Removes assets from an album (they stay in the library).
    public func removeAssets(_ assetIDs: [String], from albumID: String) {
        requests.append(.stored(.removeAssets(albumID: albumID, assetIDs: assetIDs)))
    }

    /// Moves the assets at `indexes` of an album so that they start at `index` of what remains once they are
    /// taken out (`NSMutableArray.moveObjects(at:to:)`, as PhotoKit's `moveAssets(at:to:)`).
    public func moveAssets(at indexes: IndexSet, to index: Int, in albumID: String) {
        requests.append(.stored(.moveAssets(albumID: albumID, from: indexes, to: index)))
    }

    /// Records a request that needs no files (see ChangeRequests+Metadata.swift).
    func record(_ change: StoredChange) {
        requests.append(.stored(change))
    }

    static func newIdentifier() -> String {
        UUID().uuidString.lowercased()
    }
}

/// An asset that a change block creates; its identifier is valid in the same block and afterwards.
public struct AssetPlaceholder: Sendable, Hashable {
    /// The new asset's identifier.
    public let localIdentifier: String
}

/// An album that a change block creates; its identifier is valid in the same block and afterwards.
public struct AlbumPlaceholder: Sendable, Hashable {
    /// The new album's identifier.
    public let localIdentifier: String
}

/// What a ``PhotoLibrary/performChanges(_:)`` did.
public struct ChangeOutcome: Sendable {
    /// The identifiers of the assets created, in the order they were requested. A Live Photo's part that joined
    /// its partner already in the library gives that asset's identifier (it is in ``pairedAssetIDs``).
    public var createdAssetIDs: [String] = []
    /// The assets already in the library that a new part joined, making them Live Photos.
    public var pairedAssetIDs: Set<String> = []
    /// The identifiers of the albums created.
    public var createdAlbumIDs: [String] = []
    /// The change generation after the commit.
    public var generation: Int64 = 0
}
