import Foundation
import Synchronization

extension SQLLibraryStore {
    /// Assets whose search document has a word starting with `word` (already folded by ``SearchText``): FTS5's
    /// prefix query on SQLite, a `tsquery` prefix on PostgreSQL's GIN index.
    static func searchCondition(_ word: String, dialect: SQLDialect, into arguments: inout [any SQLBindable]) -> String {
        searchCondition(allOf: [word], dialect: dialect, into: &arguments)
    }

    /// Assets whose search document has a word starting with each of `words`, in one query of the index: it
    /// intersects the words' lists itself, where a condition per word had each list read and matched in the
    /// assets' rows (two common words on 100 000 photos: 4 ms against 22).
    static func searchCondition(allOf words: [String], dialect: SQLDialect, into arguments: inout [any SQLBindable]) -> String {
        var queries: [String] = []
        for word in words {
            guard let query = prefixQuery(word, dialect: dialect) else { return "FALSE" }
            queries.append(query)
        }
        arguments.append(queries.joined(separator: dialect == .sqlite ? " AND " : " & "))
        switch dialect {
        case .sqlite: return "a.rowID IN (SELECT rowid FROM assetSearch WHERE assetSearch MATCH ?)"
        case .postgreSQL: return "a.rowID IN (SELECT s.assetRowID FROM assetSearch s WHERE s.vector @@ to_tsquery('simple', ?))"
        }
    }

    /// The index's query for the words starting with `word`, or nil when it has no letter or digit. The word is
    /// then letters and digits only (SearchText.words), so neither query syntax sees an operator.
    static func prefixQuery(_ word: String, dialect: SQLDialect) -> String? {
        let word = SearchText.words(word).joined()
        guard !word.isEmpty else { return nil }
        return dialect == .sqlite ? "\"" + word + "\"*" : word + ":*"
    }

    /// The search documents of these assets, from their row and their place's names.
    private static func documents(_ db: any SQLSession, rowIDs: [Int64]) throws -> [Int64: String] {
        var documents: [Int64: String] = [:]
        for row in try db.fetch(
            """
            SELECT a.rowID, a.title, a.caption, a.keywords, a.originalFilename, a.cameraMake, a.cameraModel, p.city, p.region, p.country
            FROM asset a LEFT JOIN place p ON p.id = a.placeID WHERE \(db.dialect.inList("a.rowID"))
            """, [SQLValue.integers(rowIDs)])
        {
            let keywords: String = row[3]
            documents[row[0]] = SearchText.document([
                row[1], row[2], keywords.replacingOccurrences(of: "|", with: " "), row[4], row[5], row[6], row[7], row[8], row[9],
            ])
        }
        return documents
    }

    /// Writes the documents of these assets, and removes those of the ones that no longer exist.
    static func index(_ db: any SQLSession, rowIDs: [Int64]) throws {
        guard !rowIDs.isEmpty else { return }
        let documents = try documents(db, rowIDs: rowIDs)
        for rowID in rowIDs {
            switch db.dialect {
            case .sqlite:
                try db.execute("DELETE FROM assetSearch WHERE rowid = ?", [rowID])
                if let document = documents[rowID] {
                    try db.execute("INSERT INTO assetSearch (rowid, body) VALUES (?, ?)", [rowID, document])
                }
            case .postgreSQL:
                // A deleted asset's document went with it (ON DELETE CASCADE).
                if let document = documents[rowID] {
                    try db.execute(
                        """
                        INSERT INTO assetSearch (assetRowID, vector) VALUES (?, strip(to_tsvector('simple', ?)))
                        ON CONFLICT (assetRowID) DO UPDATE SET vector = excluded.vector
                        """,
                        [rowID, document])
                }
            }
        }
    }

    /// Indexes the assets this transaction changed (the change log's entries after `generation`), in the same
    /// transaction: a search never misses a title just set, and never finds one just removed.
    static func indexChangedAssets(_ db: any SQLSession, after generation: Int64) throws {
        let rowIDs = try db.keys(
            "SELECT DISTINCT c.rowID FROM change c WHERE c.generation > ? AND c.entity = 'asset'", [generation])
        for start in stride(from: 0, to: rowIDs.count, by: 500) {
            try index(db, rowIDs: Array(rowIDs[start..<min(start + 500, rowIDs.count)]))
        }
    }

    /// The version of the documents' contents; a library indexed by another is indexed again when opened.
    static let searchIndexVersion = "1"

    /// Indexes every asset when the library has not been indexed with this version of the documents (a library
    /// written before search, or by a Sepia whose documents differ); returns whether it did. On a shared
    /// database, the server that records the version first does it, and the others wait for its transaction.
    func prepareSearchIndex() throws(LibraryError) -> Bool {
        if try read({ db in try Self.info(db, "searchIndex") }) == Self.searchIndexVersion { return false }
        return try write { db in
            guard try Self.info(db, "searchIndex") != Self.searchIndexVersion else { return false }
            try Self.rebuildSearchIndex(db)
            try Self.setInfo(db, "searchIndex", Self.searchIndexVersion)
            return true
        }
    }

    func rebuildSearchIndex() throws(LibraryError) -> Int {
        try write { db in
            let count = try Self.rebuildSearchIndex(db)
            try Self.setInfo(db, "searchIndex", Self.searchIndexVersion)
            return count
        }
    }

    /// Writes every asset's document anew, in the caller's transaction.
    @discardableResult
    static func rebuildSearchIndex(_ db: any SQLSession) throws -> Int {
        try db.execute("DELETE FROM assetSearch")
        let rowIDs = try db.keys("SELECT rowID FROM asset ORDER BY rowID", [])
        for start in stride(from: 0, to: rowIDs.count, by: 1_000) {
            try index(db, rowIDs: Array(rowIDs[start..<min(start + 1_000, rowIDs.count)]))
        }
        return rowIDs.count
    }

    // MARK: - Names a word may match

    func albums(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, title: String)] {
        let rows = try readStatement { db in try db.fetch("SELECT localIdentifier, title FROM album ORDER BY position") }
        return Self.matching(word, rows.map { (id: $0[0] as String, title: $0[1] as String) }, limit: limit) { $0.title }
    }

    func people(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, name: String)] {
        let rows = try readStatement { db in
            try db.fetch("SELECT localIdentifier, name FROM person WHERE name IS NOT NULL AND isHidden = FALSE ORDER BY assetCount DESC")
        }
        return Self.matching(word, rows.map { (id: $0[0] as String, name: $0[1] as String) }, limit: limit) { $0.name }
    }

    func places(matchingWord word: String, limit: Int) throws(LibraryError) -> [PlaceSuggestion] {
        // The names are matched in the few rows of `place`; only the matches' photos are counted, each through
        // the index of placed assets.
        try read { db in
            var cities: [PlaceSuggestion] = []
            var countries: [String: (name: String, places: [Int64])] = [:]
            let rows = try db.fetch("SELECT id, city, country, countryCode FROM place")
            foldedPlaceNames.withLock { folded in
                func matches(_ name: String) -> Bool {
                    if let words = folded[name] { return words.contains { $0.hasPrefix(word) } }
                    let words = SearchText.words(name)
                    folded[name] = words
                    return words.contains { $0.hasPrefix(word) }
                }
                for row in rows {
                    let (id, city, country, code): (Int64, String, String, String) = (row[0], row[1], row[2], row[3])
                    if matches(city) {
                        cities.append(PlaceSuggestion(name: city, country: country, placeID: Int(id), countryCode: code, assetCount: 0))
                    }
                    if matches(country) { countries[code, default: (country, [])].places.append(id) }
                }
            }
            let visible = "a.trashedDate IS NULL AND a.isHidden = FALSE"
            for index in cities.indices {
                cities[index].assetCount =
                    try db.value("SELECT count(*) FROM asset a WHERE a.placeID = ? AND \(visible)", [Int64(cities[index].placeID ?? 0)]) ?? 0
            }
            var found = try countries.map { code, country in
                PlaceSuggestion(
                    name: country.name, country: country.name, placeID: nil, countryCode: code,
                    assetCount: try db.value(
                        "SELECT count(*) FROM asset a WHERE \(db.dialect.inList("a.placeID")) AND \(visible)", [SQLValue.integers(country.places)])
                        ?? 0)
            }
            found.sort { $0.assetCount != $1.assetCount ? $0.assetCount > $1.assetCount : $0.name < $1.name }
            cities.sort { $0.assetCount != $1.assetCount ? $0.assetCount > $1.assetCount : $0.name < $1.name }
            return Array((found + cities).filter { $0.assetCount > 0 }.prefix(limit))
        }
    }

    func keywords(matchingWord word: String, limit: Int) throws(LibraryError) -> [String] {
        // The search index finds the assets with a word starting with this one (their keywords' words among
        // them); their keywords are then folded and matched here. The first 4 000 the index gives are a sample
        // that bounds the work of a one-letter word: PostgreSQL, left to plan the whole match, read every asset
        // instead (70 ms on 100 000, against 12).
        guard let query = Self.prefixQuery(word, dialect: dialect) else { return [] }
        let rows = try readStatement { db in
            let sample =
                switch db.dialect {
                case .sqlite: "a.rowID IN (SELECT rowid FROM assetSearch WHERE assetSearch MATCH ? LIMIT 4000)"
                case .postgreSQL:
                    "a.rowID = ANY(ARRAY(SELECT s.assetRowID FROM assetSearch s WHERE s.vector @@ to_tsquery('simple', ?) LIMIT 4000))"
                }
            return try db.fetch(
                "SELECT a.keywords FROM asset a WHERE a.keywords <> '' AND a.trashedDate IS NULL AND \(sample) LIMIT 2000", [query])
        }
        // Rows share their keywords: each is folded once.
        var foldedKeywords: [Substring: (words: [String], matches: Bool)] = [:]
        var counts: [String: (keyword: String, count: Int)] = [:]
        for row in rows {
            let keywords: String = row[0]
            for keyword in keywords.split(separator: "\n") {
                let leaf = keyword.split(separator: "|").last ?? keyword
                let entry: (words: [String], matches: Bool)
                if let known = foldedKeywords[leaf] {
                    entry = known
                } else {
                    let words = SearchText.words(String(leaf))
                    entry = (words, words.contains { $0.hasPrefix(word) })
                    foldedKeywords[leaf] = entry
                }
                guard entry.matches else { continue }
                counts[entry.words.joined(separator: " "), default: (String(leaf), 0)].count += 1
            }
        }
        return counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.keyword < $1.keyword }.prefix(limit).map(\.keyword)
    }

    /// Whether a word of `name` starts with `word` (both folded).
    static func matches(_ word: String, _ name: String) -> Bool {
        SearchText.words(name).contains { $0.hasPrefix(word) }
    }

    private static func matching<T>(_ word: String, _ items: [T], limit: Int, name: (T) -> String) -> [T] {
        Array(items.filter { matches(word, name($0)) }.prefix(limit))
    }
}
