import Foundation

extension SQLLibraryStore {
    func mapMarkers(
        in region: MapRegion, zoom: Int, itemLimit: Int, matching predicate: AssetPredicate?, liveRowLimit: Int
    ) throws(LibraryError)
        -> MapMarkers
    {
        try read { db in
            if predicate == nil, zoom <= MapCells.maximumKeptZoom,
                let kept = try Self.keptMarkers(db, in: region, zoom: zoom, aboveRows: liveRowLimit)
            {
                return kept
            }
            return try Self.countedMarkers(db, in: region, zoom: zoom, itemLimit: itemLimit, matching: predicate)
        }
    }

    /// The visible located assets, in the SQL the map's reads and its kept cells use.
    static let visibleLocated = "a.latitude IS NOT NULL AND a.longitude IS NOT NULL AND a.trashedDate IS NULL AND a.isHidden = FALSE"

    /// The cell of a position column (`latitude` shifted by 90, `longitude` by 180) for a cell size in degrees (an
    /// argument bound in its place unless given), as the kept cells' triggers compute it on each database.
    static func cell(_ column: String, shift: Int, size: String = "?", dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: "CAST((\(column) + \(shift)) / \(size) AS INTEGER)"
        case .postgreSQL: "floor((\(column) + \(shift)) / \(size))::bigint"
        }
    }

    /// The region's markers from the kept cells it touches (``MapCells``), or nil when they hold at most
    /// `aboveRows` assets: then counting the region's own rows is cheap, and exact at its edges.
    private static func keptMarkers(_ db: any SQLSession, in region: MapRegion, zoom: Int, aboveRows: Int) throws -> MapMarkers? {
        var arguments: [any SQLBindable] = [
            zoom, MapCells.index(region.south + 90, zoom: zoom), MapCells.index(region.north + 90, zoom: zoom),
            MapCells.index(region.west + 180, zoom: zoom), MapCells.index(region.east + 180, zoom: zoom),
        ]
        let columns = region.west <= region.east ? "m.cellColumn BETWEEN ? AND ?" : "(m.cellColumn >= ? OR m.cellColumn <= ?)"
        let cells = "m.zoom = ? AND m.cellRow BETWEEN ? AND ? AND \(columns)"
        let total: Int = try db.value("SELECT CAST(coalesce(sum(m.assetCount), 0) AS BIGINT) FROM mapCell m WHERE \(cells)", arguments) ?? 0
        guard total > aboveRows else { return nil }
        // Each cell's key is the newest asset added to it; one that has left the cell since (deleted, hidden,
        // moved) is replaced by another found through the position index.
        let degrees = MapCells.degrees(zoom: zoom)
        let latitudeCell = cell("a.latitude", shift: 90, dialect: db.dialect)
        let longitudeCell = cell("a.longitude", shift: 180, dialect: db.dialect)
        arguments = [degrees, degrees] + arguments
        let rows = try db.fetch(
            """
            SELECT m.latitudeSum / m.assetCount, m.longitudeSum / m.assetCount, m.assetCount, a.localIdentifier, m.cellRow, m.cellColumn
            FROM mapCell m LEFT JOIN asset a ON a.rowID = m.keyRowID AND \(visibleLocated)
              AND \(latitudeCell) = m.cellRow AND \(longitudeCell) = m.cellColumn
            WHERE \(cells)
            """, arguments)
        var clusters: [MapMarkers.Cluster] = []
        clusters.reserveCapacity(rows.count)
        for row in rows {
            var key: String? = row[3]
            if key == nil {
                let (cellRow, cellColumn): (Int, Int) = (row[4], row[5])
                let south = Double(cellRow) * degrees - 90
                let west = Double(cellColumn) * degrees - 180
                key = try db.value(
                    """
                    SELECT a.localIdentifier FROM asset a WHERE \(visibleLocated)
                      AND a.latitude BETWEEN ? AND ? AND a.longitude BETWEEN ? AND ?
                      AND \(latitudeCell) = ? AND \(longitudeCell) = ? LIMIT 1
                    """,
                    [south - 1e-9, south + degrees + 1e-9, west - 1e-9, west + degrees + 1e-9, degrees, cellRow, degrees, cellColumn],
                    as: String.self)
            }
            guard let key else { continue }
            clusters.append(MapMarkers.Cluster(latitude: row[0], longitude: row[1], count: row[2], keyAssetID: key))
        }
        return MapMarkers(items: [], clusters: clusters, total: total)
    }

    /// The region's markers counted from its rows: each asset when there are at most `itemLimit`, else one pass
    /// grouping them by cell.
    private static func countedMarkers(
        _ db: any SQLSession, in region: MapRegion, zoom: Int, itemLimit: Int, matching predicate: AssetPredicate?
    ) throws -> MapMarkers {
        var arguments: [any SQLBindable] = [region.south, region.north]
        var conditions = [visibleLocated, "a.latitude BETWEEN ? AND ?"]
        if region.west <= region.east {
            conditions.append("a.longitude BETWEEN ? AND ?")
        } else {
            conditions.append("(a.longitude >= ? OR a.longitude <= ?)")
        }
        arguments += [region.west, region.east]
        if let predicate { conditions.append(compile(predicate, dialect: db.dialect, into: &arguments)) }
        let filter = conditions.joined(separator: " AND ")
        let total: Int = try db.value("SELECT count(*) FROM asset a WHERE \(filter)", arguments) ?? 0
        if total <= itemLimit {
            let items = try db.fetch(
                "SELECT a.localIdentifier, a.latitude, a.longitude FROM asset a WHERE \(filter) ORDER BY a.creationDate DESC LIMIT ?",
                arguments + [itemLimit]
            ).map { MapMarkers.Item(id: $0[0], latitude: $0[1], longitude: $0[2]) }
            return MapMarkers(items: items, clusters: [], total: total)
        }
        // Cells counted where the rows are: one pass, however many assets. Positions shifted to be positive, so
        // that truncation is the floor on both databases.
        let degrees = MapCells.degrees(zoom: zoom)
        let latitudeCell = cell("a.latitude", shift: 90, dialect: db.dialect)
        let longitudeCell = cell("a.longitude", shift: 180, dialect: db.dialect)
        let clusters = try db.fetch(
            """
            SELECT avg(a.latitude), avg(a.longitude), count(*), max(a.localIdentifier)
            FROM asset a WHERE \(filter) GROUP BY \(latitudeCell), \(longitudeCell)
            """, arguments + [degrees, degrees]
        ).map { MapMarkers.Cluster(latitude: $0[0], longitude: $0[1], count: $0[2], keyAssetID: $0[3]) }
        return MapMarkers(items: [], clusters: clusters, total: total)
    }
}
