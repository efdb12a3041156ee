import Foundation
import SepiaPlaces
import Synchronization

extension SQLLibraryStore {
    /// Assets whose place was not found for their current position: new, moved, unlocated, or waiting for the
    /// GeoNames tables. It is the condition of the partial index `asset_unplaced`, spelled so that it applies.
    static func unplaced(_ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: "(a.placedLatitude IS NOT a.latitude OR a.placedLongitude IS NOT a.longitude)"
        case .postgreSQL: "(a.placedLatitude IS DISTINCT FROM a.latitude OR a.placedLongitude IS DISTINCT FROM a.longitude)"
        }
    }

    /// Places the assets this transaction changed (the change log's entries after `generation`) whose position
    /// moved, so that a commit that locates, moves or unlocates an asset names its place in the same transaction.
    static func placeChangedAssets(_ db: any SQLSession, after generation: Int64, finder: PlaceFinder) throws {
        let rows = try db.fetch(
            """
            SELECT a.rowID, a.latitude, a.longitude FROM asset a
            WHERE a.rowID IN (SELECT c.rowID FROM change c WHERE c.generation > ? AND c.entity = 'asset') AND \(unplaced(db.dialect))
            """, [generation])
        guard !rows.isEmpty, let geocoder = finder.geocoder else { return }
        try place(rows, db: db, geocoder: geocoder)
    }

    /// Records the place of each row (rowID, latitude, longitude), and the position it was found for.
    private static func place(_ rows: [SQLRow], db: any SQLSession, geocoder: ReverseGeocoder) throws {
        var recorded = Set<Int>()
        for row in rows {
            let latitude: Double? = row[1]
            let longitude: Double? = row[2]
            let place = latitude.flatMap { latitude in longitude.flatMap { geocoder.place(latitude: latitude, longitude: $0) } }
            if let place, recorded.insert(place.id).inserted {
                try db.execute(
                    """
                    INSERT INTO place (id, city, region, country, countryCode, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET city = excluded.city, region = excluded.region, country = excluded.country,
                      countryCode = excluded.countryCode, latitude = excluded.latitude, longitude = excluded.longitude
                    """,
                    [place.id, place.city, place.region, place.country, place.countryCode, place.latitude, place.longitude])
            }
            try db.execute(
                "UPDATE asset SET placeID = ?, placedLatitude = latitude, placedLongitude = longitude WHERE rowID = ?",
                [place?.id, row[0] as Int64])
        }
    }

    func placeWaitingAssets(limit: Int) throws(LibraryError) -> Int {
        try write { db in
            // Other servers placing at the same time take other rows.
            let rows = try db.fetch(
                "SELECT a.rowID, a.latitude, a.longitude FROM asset a WHERE \(Self.unplaced(db.dialect)) ORDER BY a.rowID LIMIT ?"
                    + db.dialect.forUpdateSkipLocked, [limit])
            // The tables are read only when something waits for them.
            guard !rows.isEmpty, let geocoder = places.geocoder else { return 0 }
            try Self.place(rows, db: db, geocoder: geocoder)
            // Place names are words of the search document.
            try Self.index(db, rowIDs: rows.map { $0[0] as Int64 })
            return rows.count
        }
    }

    func places(ids: [Int]) throws(LibraryError) -> [Int: Place] {
        var found = placeNames.withLock { names in ids.compactMap { names[$0] } }
        guard found.count < Set(ids).count else { return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
        let read = try readStatement { db in
            try db.fetch(
                "SELECT id, city, region, country, countryCode, latitude, longitude FROM place WHERE \(db.dialect.inList("id"))",
                [SQLValue.integers(ids.map(Int64.init))]
            ).map(Self.place(from:))
        }
        placeNames.withLock { names in
            for place in read { names[place.id] = place }
        }
        found = read
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    private static func place(from row: SQLRow) -> Place {
        Place(
            id: row[0], city: row[1], region: row[2], country: row[3], countryCode: row[4], latitude: row[5], longitude: row[6])
    }

    func placeSummaries(matching predicate: AssetPredicate?) throws(LibraryError) -> [CountrySummary] {
        let rows = try read { db in
            var arguments: [any SQLBindable] = []
            var conditions = ["a.placeID IS NOT NULL", "a.trashedDate IS NULL", "a.isHidden = FALSE"]
            if let predicate { conditions.append(Self.compile(predicate, dialect: db.dialect, into: &arguments)) }
            // One pass over the placed assets: each city's count, and its newest asset.
            return try db.fetch(
                """
                SELECT p.id, p.city, p.region, p.country, p.countryCode, p.latitude, p.longitude, t.n, t.localIdentifier, t.creationDate
                FROM (
                  SELECT a.placeID, a.localIdentifier, a.creationDate, count(*) OVER (PARTITION BY a.placeID) AS n,
                    row_number() OVER (PARTITION BY a.placeID ORDER BY a.creationDate DESC, a.rowID DESC) AS r
                  FROM asset a WHERE \(conditions.joined(separator: " AND "))
                ) t JOIN place p ON p.id = t.placeID
                WHERE t.r = 1
                """, arguments)
        }
        var countries: [String: (country: CountrySummary, newest: Double)] = [:]
        for row in rows {
            let city = PlaceSummary(place: Self.place(from: row), assetCount: row[7], keyAssetID: row[8])
            let date: Double = row[9]
            let code = city.place.countryCode
            var entry =
                countries[code]
                ?? (CountrySummary(countryCode: code, country: city.place.country, assetCount: 0, keyAssetID: city.keyAssetID, cities: []), date)
            entry.country.assetCount += city.assetCount
            entry.country.cities.append(city)
            if date > entry.newest { (entry.country.keyAssetID, entry.newest) = (city.keyAssetID, date) }
            countries[code] = entry
        }
        let mostFirst = { (a: (count: Int, name: String), b: (count: Int, name: String)) in
            a.count != b.count ? a.count > b.count : a.name.localizedStandardCompare(b.name) == .orderedAscending
        }
        return countries.values.map { entry in
            var country = entry.country
            country.cities.sort { mostFirst(($0.assetCount, $0.place.city), ($1.assetCount, $1.place.city)) }
            return country
        }.sorted { mostFirst(($0.assetCount, $0.country), ($1.assetCount, $1.country)) }
    }

    func placesStatus() throws(LibraryError) -> PlacesStatus {
        let geocoder = places.geocoder
        let counts = try read { db in
            let located: Int = try db.value("SELECT count(*) FROM asset a WHERE a.trashedDate IS NULL AND a.latitude IS NOT NULL") ?? 0
            let placed: Int = try db.value("SELECT count(*) FROM asset a WHERE a.trashedDate IS NULL AND a.placeID IS NOT NULL") ?? 0
            let waiting: Int = try db.value("SELECT count(*) FROM asset a WHERE \(Self.unplaced(db.dialect))") ?? 0
            return (located, placed, waiting)
        }
        return PlacesStatus(
            locatedAssets: counts.0, placedAssets: counts.1, waitingAssets: counts.2, citiesTable: geocoder?.citiesPath,
            cityCount: geocoder?.cityCount ?? 0, problem: places.failure?.description)
    }
}
