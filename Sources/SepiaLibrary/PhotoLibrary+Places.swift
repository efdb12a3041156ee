public import SepiaPlaces

/// Places: the city, region and country each located photo and video was taken in, found offline in GeoNames'
/// tables (``ReverseGeocoder``) and kept beside its coordinates. A commit that locates, moves or unlocates an
/// asset finds its place in the same transaction; assets located before the tables were there (or by an older
/// Sepia) wait until ``updatePlaces(batchSize:)`` places them.
extension PhotoLibrary {
    /// The place of an asset, or nil when it has none (no location, no city within 100 km, or not placed yet).
    public func place(of asset: Asset) throws(LibraryError) -> Place? {
        guard let id = asset.placeIdentifier else { return nil }
        return try store.places(ids: [id])[id]
    }

    /// The places of several assets, by asset identifier; assets without one are left out.
    public func places(of assets: [Asset]) throws(LibraryError) -> [String: Place] {
        let ids = assets.compactMap(\.placeIdentifier)
        guard !ids.isEmpty else { return [:] }
        let places = try store.places(ids: ids)
        var result: [String: Place] = [:]
        for asset in assets {
            if let id = asset.placeIdentifier, let place = places[id] { result[asset.id] = place }
        }
        return result
    }

    /// The Places album: the countries of the visible assets `predicate` matches (all of them by default), most
    /// assets first, each with its cities, most assets first, and its newest asset to show.
    public func placeSummaries(matching predicate: AssetPredicate? = nil) throws(LibraryError) -> [CountrySummary] {
        try store.placeSummaries(matching: predicate)
    }

    /// Places every asset that waits for a place, `batchSize` per transaction; returns how many it looked at.
    /// Several processes may run it at once on a shared database: each takes other rows.
    @discardableResult
    public func updatePlaces(batchSize: Int = 1_000) throws(LibraryError) -> Int {
        var total = 0
        while true {
            let done = try placeWaitingAssets(limit: batchSize)
            total += done
            if done < batchSize { return total }
        }
    }

    /// Places up to `limit` of the assets waiting for a place, in one transaction; returns how many it looked at
    /// (fewer than `limit` when no more wait, 0 when the GeoNames tables cannot be read).
    public func placeWaitingAssets(limit: Int) throws(LibraryError) -> Int {
        try store.placeWaitingAssets(limit: max(1, limit))
    }

    /// How many assets are located, placed and waiting, and which GeoNames table places come from.
    public func placesStatus() throws(LibraryError) -> PlacesStatus {
        try store.placesStatus()
    }

    /// What a map of `region` at `zoom` (0, the world in one 256-pixel tile, to 22) shows of the visible located
    /// photos and videos `predicate` matches: each of them when there are at most `itemLimit`, else counted in
    /// cells about 64 pixels wide at that zoom, at their mean position. A region holding many of the library's
    /// photos at a zoom up to 10 reads the cells the library keeps (``MapCells``), so its cost depends on the
    /// cells shown, not on the photos in them; a smaller region, or one filtered by `predicate`, is counted from
    /// its rows, exactly within its edges.
    public func mapMarkers(
        in region: MapRegion, zoom: Int, matching predicate: AssetPredicate? = nil, itemLimit: Int = 500
    ) throws(LibraryError)
        -> MapMarkers
    {
        try mapMarkers(in: region, zoom: zoom, matching: predicate, itemLimit: itemLimit, liveRowLimit: MapCells.liveRowLimit)
    }

    /// Counts the map's kept cells (``MapCells``) anew from the photos' positions, for a library whose check
    /// found them differing; returns how many cells there are. The database keeps them with every change.
    @discardableResult
    public func rebuildMapCells() throws(LibraryError) -> Int {
        try store.rebuildMapCells()
    }

    /// ``mapMarkers(in:zoom:matching:itemLimit:)`` with the number of located assets up to which a region is
    /// counted from its rows instead of the kept cells.
    func mapMarkers(
        in region: MapRegion, zoom: Int, matching predicate: AssetPredicate?, itemLimit: Int, liveRowLimit: Int
    ) throws(LibraryError)
        -> MapMarkers
    {
        try store.mapMarkers(
            in: region, zoom: max(0, min(22, zoom)), itemLimit: max(0, min(itemLimit, 5_000)), matching: predicate,
            liveRowLimit: liveRowLimit)
    }
}
