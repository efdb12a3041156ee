import Foundation

extension PhotoLibrary {
    /// The assets of the library that `options` select (PhotoKit's `PHAsset.fetchAssets(with:)`): by default
    /// every visible asset, oldest first.
    public func fetchAssets(_ options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        try fetch(AssetQuery(scope: .library, options: options))
    }

    /// The assets of one media type (PhotoKit's `PHAsset.fetchAssets(with: .video, options:)`), with what
    /// `options` select besides.
    public func fetchAssets(with mediaType: MediaType, options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        var options = options
        options.predicate = options.predicate.map { .mediaType(mediaType) && $0 } ?? .mediaType(mediaType)
        return try fetch(AssetQuery(scope: .library, options: options))
    }

    /// The assets of an album, in the album's order unless `options` sort them
    /// (`PHAsset.fetchAssets(in:options:)`). Works for user and smart albums.
    public func fetchAssets(in album: Album, options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        switch album.kind {
        case .regular: try fetch(AssetQuery(scope: .album(rowID: album.rowID), options: options))
        case .smart(let kind): try fetchAssets(in: kind, options: options)
        }
    }

    /// The assets of a smart album.
    public func fetchAssets(
        in smartAlbum: SmartAlbum, options: FetchOptions = FetchOptions()
    ) throws(LibraryError)
        -> FetchResult<Asset>
    {
        try fetch(AssetQuery(scope: .smartAlbum(smartAlbum), options: options))
    }

    /// The assets of a year or month of the timeline.
    public func fetchAssets(
        in collection: CollectionList, options: FetchOptions = FetchOptions()
    ) throws(LibraryError)
        -> FetchResult<Asset>
    {
        try fetch(AssetQuery(scope: .collection(year: collection.year, month: collection.month), options: options))
    }

    /// The user albums, in their order (`PHAssetCollection.fetchAssetCollections(with: .album, …)`).
    public func fetchAlbums() throws(LibraryError) -> FetchResult<Album> {
        let store = self.store
        let source = FetchSource<Album>(
            refetch: { () throws(LibraryError) in try store.albumSnapshot() },
            load: { (keys) throws(LibraryError) in try store.albums(rowIDs: keys) },
            rowID: { $0.rowID },
            changedKeys: { $0.updatedAlbums },
            wantsIncrementalChangeDetails: true)
        let snapshot = try store.albumSnapshot()
        return FetchResult(rowIDs: snapshot.rowIDs, generation: snapshot.generation, source: source)
    }

    /// The smart albums, with their current counts.
    public func smartAlbums() throws(LibraryError) -> [Album] {
        let counts = try store.smartAlbumCounts()
        return SmartAlbum.allCases.map { kind in
            Album(
                id: kind.id, title: kind.title, kind: .smart(kind), creationDate: Date(timeIntervalSince1970: 0),
                assetCount: counts[kind] ?? 0, revision: 0, rowID: 0)
        }
    }

    /// The album with this identifier, or the user album with this exact title. Smart albums are found by
    /// their identifiers (`smart/favorites`) or titles too.
    public func album(_ idOrTitle: String) throws(LibraryError) -> Album {
        if let smart = try smartAlbums().first(where: { $0.id == idOrTitle || $0.title.lowercased() == idOrTitle.lowercased() }) {
            return smart
        }
        let matches = try store.albums(matching: idOrTitle)
        if let exact = matches.first(where: { $0.id == idOrTitle }) { return exact }
        guard let first = matches.first else { throw LibraryError.notFound(album: idOrTitle) }
        if matches.count > 1 {
            throw LibraryError(
                .invalidRequest, "\(matches.count) albums have this title; name one by its identifier", subject: idOrTitle)
        }
        return first
    }

    /// The asset with this identifier.
    public func asset(_ id: String) throws(LibraryError) -> Asset {
        guard let asset = try store.assets(ids: [id]).first else { throw LibraryError.notFound(asset: id) }
        return asset
    }

    /// The asset whose identifier is `reference` or uniquely starts with it (at least 4 characters), as the
    /// command line accepts them.
    public func asset(matching reference: String) throws(LibraryError) -> Asset {
        let reference = reference.lowercased()
        if let exact = try store.assets(ids: [reference]).first { return exact }
        guard reference.count >= 4 else {
            throw LibraryError(.invalidRequest, "give at least 4 characters of the asset's identifier", subject: reference)
        }
        let matches = try store.assets(idPrefix: reference, limit: 2)
        guard let first = matches.first else { throw LibraryError.notFound(asset: reference) }
        if matches.count > 1 {
            throw LibraryError(.invalidRequest, "several assets' identifiers start with this; give more characters", subject: reference)
        }
        return first
    }

    /// Assets by identifier, in the order given; unknown identifiers are left out.
    public func assets(_ ids: [String]) throws(LibraryError) -> [Asset] {
        let found = Dictionary(try store.assets(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { found[$0] }
    }

    /// The asset already in the library that `prepared` would join when it is committed, if any: as a Live
    /// Photo's other part, the one with the same Apple content identifier, or, without one, the same base name
    /// and capture time; as a RAW+JPEG pair's other file, the photo with the same base name and capture time.
    public func pairingPartner(of prepared: PreparedAsset) throws(LibraryError) -> Asset? {
        try store.pairingPartner(of: prepared.asset)
    }

    /// The asset whose original file has this SHA-256 (lowercase hex), if any.
    public func asset(contentHash: String) throws(LibraryError) -> Asset? {
        try store.asset(contentHash: contentHash.lowercased())
    }

    /// The timeline's years, oldest first.
    public func years() throws(LibraryError) -> [CollectionList] {
        try store.collectionLists(year: nil)
    }

    /// The months of `year` that have assets.
    public func months(in year: Int) throws(LibraryError) -> [CollectionList] {
        try store.collectionLists(year: year)
    }

    /// An asset's adjustments, oldest first: its edit history.
    public func adjustments(of asset: Asset) throws(LibraryError) -> [Adjustment] {
        try store.adjustments(assetID: asset.id)
    }

    /// The asset's current adjustment, if it has one.
    public func currentAdjustment(of asset: Asset) throws(LibraryError) -> Adjustment? {
        guard let id = asset.currentAdjustmentID else { return nil }
        return try store.adjustment(id: id)
    }

    func fetch(_ query: AssetQuery) throws(LibraryError) -> FetchResult<Asset> {
        let store = self.store
        let source = FetchSource<Asset>(
            refetch: { () throws(LibraryError) in try store.snapshot(query) },
            load: { (keys) throws(LibraryError) in try store.assets(rowIDs: keys) },
            rowID: { $0.rowID },
            changedKeys: { $0.updatedAssets },
            wantsIncrementalChangeDetails: query.options.wantsIncrementalChangeDetails)
        let snapshot = try store.snapshot(query)
        return FetchResult(rowIDs: snapshot.rowIDs, generation: snapshot.generation, source: source)
    }
}
