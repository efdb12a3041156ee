import Foundation

extension SQLLibraryStore {
    func mapMarkers(
        in region: MapRegion, cellDegrees: Double, itemLimit: Int, matching predicate: AssetPredicate?
    ) throws(LibraryError)
        -> MapMarkers
    {
        try read { db in
            var arguments: [any SQLBindable] = [region.south, region.north]
            var conditions = ["a.latitude IS NOT NULL", "a.trashedDate IS NULL", "a.isHidden = FALSE", "a.latitude BETWEEN ? AND ?"]
            if region.west <= region.east {
                conditions.append("a.longitude BETWEEN ? AND ?")
            } else {
                conditions.append("(a.longitude >= ? OR a.longitude <= ?)")
            }
            arguments += [region.west, region.east]
            if let predicate { conditions.append(Self.compile(predicate, dialect: db.dialect, into: &arguments)) }
            let filter = conditions.joined(separator: " AND ")
            let total: Int = try db.value("SELECT count(*) FROM asset a WHERE \(filter)", arguments) ?? 0
            if total <= itemLimit {
                let items = try db.fetch(
                    "SELECT a.localIdentifier, a.latitude, a.longitude FROM asset a WHERE \(filter) ORDER BY a.creationDate DESC LIMIT ?",
                    arguments + [itemLimit]
                ).map { MapMarkers.Item(id: $0[0], latitude: $0[1], longitude: $0[2]) }
                return MapMarkers(items: items, clusters: [], total: total)
            }
            // Cells counted where the rows are: one pass, however many assets. Positions shifted to be positive,
            // so that truncation is the floor on both databases.
            let cell = max(cellDegrees, 1e-6)
            let row = db.dialect == .sqlite ? "CAST((a.latitude + 90) / ? AS INTEGER)" : "floor((a.latitude + 90) / ?)::bigint"
            let column = db.dialect == .sqlite ? "CAST((a.longitude + 180) / ? AS INTEGER)" : "floor((a.longitude + 180) / ?)::bigint"
            let clusters = try db.fetch(
                """
                SELECT avg(a.latitude), avg(a.longitude), count(*), max(a.localIdentifier)
                FROM asset a WHERE \(filter) GROUP BY \(row), \(column)
                """, arguments + [cell, cell]
            ).map { MapMarkers.Cluster(latitude: $0[0], longitude: $0[1], count: $0[2], keyAssetID: $0[3]) }
            return MapMarkers(items: [], clusters: clusters, total: total)
        }
    }
}
