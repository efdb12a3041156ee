import Foundation

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
}
