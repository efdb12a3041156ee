public import Foundation

/// A collection of assets (PhotoKit's `PHAssetCollection`): a user album, whose members keep the order the
/// user gave them, or a smart album, whose members follow from a rule.
public struct Album: LibraryObject, Codable {
    /// The stable identifier: a UUID string for user albums, `smart/<kind>` for smart albums.
    public var id: String
    /// The album's title.
    public var title: String
    /// A user album, or which smart album.
    public var kind: Kind
    /// When the album was created (smart albums: the reference date).
    public var creationDate: Date
    /// The number of visible assets in the album when it was read (PhotoKit's `estimatedAssetCount`).
    public var assetCount: Int
    /// Incremented by every change to the album: title, members, their order.
    public var revision: Int

    /// The row's integer key (0 for smart albums).
    var rowID: Int64

    /// What kind of album this is.
    public enum Kind: Sendable, Hashable, Codable {
        /// An album the user made: editable, ordered by hand (`albumRegular`).
        case regular
        /// A smart album, defined by a rule.
        case smart(SmartAlbum)
    }

    /// Whether change requests may add, remove and reorder its assets, or rename it.
    public var isEditable: Bool { kind == .regular }
}

/// The smart albums every library has (PhotoKit's smart album subtypes).
public enum SmartAlbum: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every visible asset, oldest first, like Photos' Recents (`smartAlbumUserLibrary`).
    case recents
    /// Assets marked as favourites (`smartAlbumFavorites`).
    case favorites
    /// Videos (`smartAlbumVideos`); Live Photos are photos, and are not among them.
    case videos
    /// Live Photos (`smartAlbumLivePhotos`).
    case livePhotos
    /// Assets with a live edit.
    case edited
    /// Hidden assets (`smartAlbumAllHidden`).
    case hidden
    /// Assets deleted in the last days, newest deletion first, until they are recovered or purged (Photos'
    /// Recently Deleted); hidden ones among them. No other fetch includes them.
    case recentlyDeleted

    /// The album's identifier.
    public var id: String { "smart/" + rawValue }

    /// The album's title.
    public var title: String {
        switch self {
        case .recents: "Recents"
        case .favorites: "Favorites"
        case .videos: "Videos"
        case .livePhotos: "Live Photos"
        case .edited: "Edited"
        case .hidden: "Hidden"
        case .recentlyDeleted: "Recently Deleted"
        }
    }

    /// The smart album whose identifier is `id`.
    public init?(id: String) {
        guard id.hasPrefix("smart/"), let kind = SmartAlbum(rawValue: String(id.dropFirst(6))) else { return nil }
        self = kind
    }
}
