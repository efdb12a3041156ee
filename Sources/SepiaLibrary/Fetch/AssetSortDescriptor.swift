/// How a fetch orders assets (PhotoKit's `NSSortDescriptor` on `PHAsset`). Ties are broken by the order
/// assets were added, so an order is always total and stable.
public struct AssetSortDescriptor: Sendable, Hashable {
    /// The properties assets can be sorted by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// ``Asset/creationDate``.
        case creationDate
        /// ``Asset/modificationDate``.
        case modificationDate
        /// ``Asset/addedDate``.
        case addedDate
        /// ``Asset/pixelWidth``.
        case pixelWidth
        /// ``Asset/pixelHeight``.
        case pixelHeight
        /// ``Asset/originalFilename``.
        case originalFilename
    }

    /// The property.
    public var key: Key
    /// Oldest/smallest first.
    public var ascending: Bool

    /// Sorts by `key`.
    public init(_ key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
