extension PhotoLibrary {
    /// One page of the assets `options` select, starting after `cursor` (or at the first asset), for
    /// clients that show a long list a page at a time (an HTTP API, a grid that loads as it scrolls). Unlike
    /// a ``FetchResult``, the page reads only its own rows.
    ///
    /// - Parameters:
    ///   - album: The album whose assets to page through (user or smart); nil for the whole library.
    ///   - options: Which assets and their order; ``FetchOptions/fetchLimit`` is ignored.
    ///   - cursor: Where the previous page ended; it must come from the same album and order.
    ///   - limit: The most assets the page holds (at least 1).
    /// - Complexity: O(`limit` + log n) with the library's indexes, plus a count of the matches.
    public func fetchAssetPage(
        _ album: Album? = nil, options: FetchOptions = FetchOptions(), after cursor: AssetCursor? = nil, limit: Int = 100
    ) throws(LibraryError) -> AssetPage {
        var options = options
        options.fetchLimit = 0
        let scope: AssetQuery.Scope
        switch album?.kind {
        case nil: scope = .library
        case .regular?: scope = .album(rowID: album?.rowID ?? 0)
        case .smart(let kind)?: scope = .smartAlbum(kind)
        }
        return try store.page(AssetQuery(scope: scope, options: options), after: cursor, limit: max(1, limit))
    }

    /// One page of a smart album's assets, as ``fetchAssetPage(_:options:after:limit:)`` reads them, without
    /// counting every smart album first (``smartAlbums()`` does): the pages of ``SmartAlbum/recentlyDeleted``, newest
    /// deletion first unless `options` sort them.
    public func fetchAssetPage(
        in smartAlbum: SmartAlbum, options: FetchOptions = FetchOptions(), after cursor: AssetCursor? = nil, limit: Int = 100
    ) throws(LibraryError) -> AssetPage {
        var options = options
        options.fetchLimit = 0
        return try store.page(AssetQuery(scope: .smartAlbum(smartAlbum), options: options), after: cursor, limit: max(1, limit))
    }
}
