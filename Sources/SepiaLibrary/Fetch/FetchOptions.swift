/// What a fetch returns and in which order (PhotoKit's `PHFetchOptions`).
public struct FetchOptions: Sendable, Hashable {
    /// Which assets; nil means all.
    public var predicate: AssetPredicate?
    /// The order. Empty means the collection's natural order: creation date for the library and smart albums,
    /// the user's order for albums.
    public var sortDescriptors: [AssetSortDescriptor]
    /// At most this many assets; 0 means no limit.
    public var fetchLimit: Int
    /// Include hidden assets (default false, as in PhotoKit).
    public var includeHiddenAssets: Bool
    /// Whether change details for results of this fetch list what changed (default true). When false, every
    /// change is reported as non-incremental: reload.
    public var wantsIncrementalChangeDetails: Bool

    /// Options with the given settings.
    public init(
        predicate: AssetPredicate? = nil, sortDescriptors: [AssetSortDescriptor] = [], fetchLimit: Int = 0,
        includeHiddenAssets: Bool = false, wantsIncrementalChangeDetails: Bool = true
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.includeHiddenAssets = includeHiddenAssets
        self.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
    }
}
