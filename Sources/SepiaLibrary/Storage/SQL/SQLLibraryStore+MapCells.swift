extension SQLLibraryStore {
    /// The visible located assets counted per kept cell at every kept zoom, as `mapCell`'s columns (zoom, cellRow,
    /// cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID): what the triggers keep, computed anew.
    static func countedMapCells(dialect: SQLDialect) -> String {
        let cellRow = cell("a.latitude", shift: 90, size: "z.degrees", dialect: dialect)
        let cellColumn = cell("a.longitude", shift: 180, size: "z.degrees", dialect: dialect)
        return """
            SELECT z.zoom AS zoom, \(cellRow) AS cellRow, \(cellColumn) AS cellColumn, count(*) AS assetCount,
              sum(a.latitude) AS latitudeSum, sum(a.longitude) AS longitudeSum, max(a.rowID) AS keyRowID
            FROM asset a, mapZoom z
            WHERE \(visibleLocated)
            GROUP BY 1, 2, 3
            """
    }

    /// Fills `mapCell` from the assets' rows, in the caller's transaction; returns the cells written.
    @discardableResult
    static func rebuildMapCells(_ db: any SQLSession) throws -> Int {
        try db.execute("DELETE FROM mapCell")
        return try db.execute(
            "INSERT INTO mapCell (zoom, cellRow, cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID) "
                + countedMapCells(dialect: db.dialect))
    }

    func rebuildMapCells() throws(LibraryError) -> Int {
        try write { db in try Self.rebuildMapCells(db) }
    }

    /// How many kept cells differ from the assets' rows (a count missing, extra or not the rows'), for the
    /// library's check.
    static func differingMapCells(_ db: any SQLSession) throws -> Int {
        try db.value(
            """
            SELECT count(*) FROM (\(countedMapCells(dialect: db.dialect))) counted
            FULL OUTER JOIN mapCell m ON m.zoom = counted.zoom AND m.cellRow = counted.cellRow AND m.cellColumn = counted.cellColumn
            WHERE m.assetCount IS NULL OR counted.assetCount IS NULL OR m.assetCount <> counted.assetCount
            """, as: Int.self) ?? 0
    }
}
