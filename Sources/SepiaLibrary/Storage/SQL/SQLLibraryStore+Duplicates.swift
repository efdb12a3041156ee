import Foundation

extension SQLLibraryStore {
    /// Photos and videos not yet hashed by `algorithm` (or by an older one), after `afterRowID`, in row order.
    func assetsWaitingForHash(algorithm: Int, afterRowID: Int64, limit: Int) throws(LibraryError) -> [Asset] {
        try read { db in
            try db.fetch(
                """
                SELECT \(Self.assetColumns) FROM asset a LEFT JOIN perceptualHash h ON h.assetRowID = a.rowID
                WHERE a.trashedDate IS NULL AND (h.assetRowID IS NULL OR h.algorithm < ?) AND a.rowID > ? ORDER BY a.rowID LIMIT ?
                """, [algorithm, afterRowID, limit]
            ).map(Self.asset(from:))
        }
    }

    /// Records each asset's hash (nil: its picture could not be read) by `algorithm`, in one transaction; an asset
    /// deleted meanwhile is skipped.
    func recordHashes(_ hashes: [(rowID: Int64, hash: UInt64?)], algorithm: Int) throws(LibraryError) {
        guard !hashes.isEmpty else { return }
        try write { db in
            for (rowID, hash) in hashes {
                try db.execute(
                    """
                    INSERT INTO perceptualHash (assetRowID, hash, algorithm) SELECT rowID, ?, ? FROM asset WHERE rowID = ?
                    ON CONFLICT (assetRowID) DO UPDATE SET hash = excluded.hash, algorithm = excluded.algorithm
                    """, [hash.map { Int64(bitPattern: $0) }, algorithm, rowID])
            }
        }
    }

    /// The hashes of the visible photos and videos `predicate` matches: row, identifier, hash.
    func hashedAssets(algorithm: Int, matching predicate: AssetPredicate?) throws(LibraryError) -> [(rowID: Int64, id: String, hash: UInt64)] {
        try read { db in
            var arguments: [any SQLBindable] = [algorithm]
            var conditions = ["h.hash IS NOT NULL", "h.algorithm = ?", "a.trashedDate IS NULL", "a.isHidden = FALSE"]
            if let predicate { conditions.append(Self.compile(predicate, dialect: db.dialect, into: &arguments)) }
            return try db.fetch(
                """
                SELECT a.rowID, a.localIdentifier, h.hash FROM perceptualHash h JOIN asset a ON a.rowID = h.assetRowID
                WHERE \(conditions.joined(separator: " AND "))
                """, arguments
            ).map { row in (row[0] as Int64, row[1] as String, UInt64(bitPattern: row[2] as Int64)) }
        }
    }

    /// Every pair of assets the user said are not duplicates (smaller row first).
    func duplicateDismissals() throws(LibraryError) -> [(Int64, Int64)] {
        try read { db in
            try db.fetch("SELECT firstRowID, secondRowID FROM duplicateDismissal").map { ($0[0] as Int64, $0[1] as Int64) }
        }
    }

    /// Records (or, with `dismissed` false, forgets) that no two of `ids` are duplicates; returns how many of the
    /// identifiers name assets.
    func setDuplicateDismissal(_ ids: [String], dismissed: Bool) throws(LibraryError) -> Int {
        try write { db in
            let rows = try db.fetch(
                "SELECT rowID FROM asset WHERE \(db.dialect.inList("localIdentifier"))", [SQLValue.texts(ids)]
            ).map { $0[0] as Int64 }.sorted()
            for (i, first) in rows.enumerated() {
                for second in rows[(i + 1)...] {
                    if dismissed {
                        try db.execute(
                            "INSERT INTO duplicateDismissal (firstRowID, secondRowID) VALUES (?, ?) ON CONFLICT DO NOTHING", [first, second])
                    } else {
                        try db.execute("DELETE FROM duplicateDismissal WHERE firstRowID = ? AND secondRowID = ?", [first, second])
                    }
                }
            }
            return rows.count
        }
    }

    func duplicatesStatus(algorithm: Int) throws(LibraryError) -> DuplicatesStatus {
        try read { db in
            DuplicatesStatus(
                hashedAssets: try db.value(
                    """
                    SELECT count(*) FROM perceptualHash h JOIN asset a ON a.rowID = h.assetRowID
                    WHERE a.trashedDate IS NULL AND h.algorithm >= ? AND h.hash IS NOT NULL
                    """, [algorithm]) ?? 0,
                waitingAssets: try db.value(
                    """
                    SELECT count(*) FROM asset a LEFT JOIN perceptualHash h ON h.assetRowID = a.rowID
                    WHERE a.trashedDate IS NULL AND (h.assetRowID IS NULL OR h.algorithm < ?)
                    """, [algorithm]) ?? 0,
                unreadableAssets: try db.value(
                    """
                    SELECT count(*) FROM perceptualHash h JOIN asset a ON a.rowID = h.assetRowID
                    WHERE a.trashedDate IS NULL AND h.algorithm >= ? AND h.hash IS NULL
                    """, [algorithm]) ?? 0)
        }
    }

    /// What the groups depend on, cheap to read: the change generation (deletions, recoveries, hiding), the
    /// hashes recorded, and the dismissals.
    func duplicatesState() throws(LibraryError) -> [Int64] {
        try read { db in
            let row = try db.fetch(
                """
                SELECT (SELECT coalesce(max(generation), 0) FROM change), (SELECT count(*) FROM perceptualHash),
                  (SELECT count(*) FROM duplicateDismissal), (SELECT CAST(coalesce(sum(firstRowID * 7 + secondRowID), 0) AS BIGINT) FROM duplicateDismissal)
                """)
            return row.first.map { [$0[0] as Int64, $0[1] as Int64, $0[2] as Int64, $0[3] as Int64] } ?? []
        }
    }
}
