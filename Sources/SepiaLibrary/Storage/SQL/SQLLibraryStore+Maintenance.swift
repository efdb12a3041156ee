import Foundation
import SepiaCodecs

extension SQLLibraryStore {
    func withUnreferencedFiles(
        _ files: [StoredFile], recordingSweep: Bool, remove: ([StoredFile]) throws(LibraryError) -> [StoredFile]
    ) throws(LibraryError) {
        guard !files.isEmpty else { return }
        try write { db in
            var unreferenced: [StoredFile] = []
            for file in Set(files) {
                let sql =
                    file.kind == .original
                    ? "SELECT 1 FROM resource WHERE contentHash = ?"
                    : "SELECT 1 FROM adjustment WHERE renderedContentHash = ?"
                if try db.value(sql, [file.hash], as: Int.self) == nil { unreferenced.append(file) }
            }
            // Still inside the write transaction: no other process can commit a row naming these files
            // until they are gone, and a commit naming one afterwards finds it missing (or recorded as swept)
            // and writes it again.
            let removed = try remove(unreferenced)
            if recordingSweep && !removed.isEmpty {
                let sweep = (try db.value("SELECT value FROM libraryInfo WHERE key = 'fileSweep'", as: Int64.self) ?? 0) + 1
                try Self.setInfo(db, "fileSweep", String(sweep))
                let now = Date().timeIntervalSince1970
                for file in removed {
                    try db.execute(
                        """
                        INSERT INTO sweptFile (kind, hash, sweep, date) VALUES (?, ?, ?, ?)
                        ON CONFLICT (kind, hash) DO UPDATE SET sweep = excluded.sweep, date = excluded.date
                        """,
                        [file.kind.rawValue, file.hash, sweep, now])
                }
                // A record only matters to commits of files stored while the sweep ran: a day is ample.
                try db.execute("DELETE FROM sweptFile WHERE date < ?", [now - 86_400])
            }
        }
    }

    /// The counts `libraryInfo` keeps (see ``adjustAssetCounts(_:visible:hidden:)``) and the rows each counts:
    /// assets outside Recently Deleted, visible or hidden.
    static let keptCounts = [
        ("visibleAssets", "NOT isHidden AND trashedDate IS NULL"), ("hiddenAssets", "isHidden AND trashedDate IS NULL"),
    ]

    func recordedStorage() throws(LibraryError) -> String? {
        try read { db in try db.value("SELECT value FROM libraryInfo WHERE key = 'storage'", as: String.self) }
    }

    func recordStorage(_ identity: String?) throws(LibraryError) -> Bool {
        try write { db in
            guard try db.value("SELECT 1 FROM asset LIMIT 1", as: Int.self) == nil else { return false }
            if let identity {
                try Self.setInfo(db, "storage", identity)
            } else {
                try db.execute("DELETE FROM libraryInfo WHERE key = 'storage'")
            }
            return true
        }
    }

    /// A `libraryInfo` value, as text.
    static func info(_ db: any SQLSession, _ key: String) throws -> String? {
        try db.value("SELECT CAST(value AS TEXT) FROM libraryInfo WHERE key = ?", [key], as: String.self)
    }

    /// Sets a `libraryInfo` value (kept as text: the two databases type the column differently).
    static func setInfo(_ db: any SQLSession, _ key: String, _ value: String) throws {
        try db.execute(
            "INSERT INTO libraryInfo (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value])
    }

    func recordPlayback(of resource: AssetResource) throws(LibraryError) {
        guard let needsPlayableVersion = resource.needsPlayableVersion else { return }
        try write { db in
            _ = try db.execute(
                "UPDATE resource SET needsPlayableVersion = ?, decodedPixels = ? WHERE contentHash = ? AND needsPlayableVersion IS NULL",
                [needsPlayableVersion, resource.decodedPixels, resource.contentHash])
        }
    }

    func latestSweep() throws(LibraryError) -> Int64 {
        try read { db in try db.value("SELECT value FROM libraryInfo WHERE key = 'fileSweep'", as: Int64.self) ?? 0 }
    }

    func allFileReferences() throws(LibraryError) -> [StoredFile] {
        try read { db in
            var files: [StoredFile] = []
            for row in try db.fetch("SELECT contentHash, format FROM resource") {
                files.append(StoredFile(kind: .original, hash: row[0], format: ImageFormat(rawValue: row[1]) ?? .jpeg))
            }
            for hash in try db.values("SELECT renderedContentHash FROM adjustment WHERE renderedContentHash IS NOT NULL", as: String.self) {
                files.append(StoredFile(kind: .render, hash: hash, format: .jpeg))
            }
            return files
        }
    }

    func allAssetIDs() throws(LibraryError) -> Set<String> {
        try read { db in Set(try db.values("SELECT localIdentifier FROM asset", as: String.self)) }
    }

    func assetCounts() throws(LibraryError) -> (all: Int, videos: Int) {
        try read { db in
            let all: Int = try db.value("SELECT count(*) FROM asset") ?? 0
            let videos: Int = try db.value("SELECT count(*) FROM asset WHERE mediaType = \(MediaType.video.rawValue)") ?? 0
            return (all, videos)
        }
    }

    func integrityProblems() throws(LibraryError) -> [String] {
        var problems: [String]
        do {
            problems = try database.engineProblems()
        } catch {
            throw Self.libraryError(error)
        }
        return try read { db in
            for row in try db.fetch(
                """
                SELECT a.localIdentifier FROM asset a LEFT JOIN adjustment j ON j.localIdentifier = a.currentAdjustmentID
                WHERE a.currentAdjustmentID IS NOT NULL AND (j.rowID IS NULL OR j.assetRowID <> a.rowID OR j.renderedContentHash IS NULL)
                """
            ) {
                problems.append("asset \(row[0] as String): its current edit is missing or has no render")
            }
            for row in try db.fetch(
                """
                SELECT a.localIdentifier FROM asset a JOIN adjustment j ON j.localIdentifier = a.currentAdjustmentID
                LEFT JOIN adjustment b ON b.localIdentifier = j.baseAdjustmentID
                WHERE j.baseAdjustmentID IS NOT NULL AND (b.rowID IS NULL OR b.renderedContentHash IS NULL)
                """
            ) {
                problems.append("asset \(row[0] as String): the edit its current edit builds on has no render")
            }
            for row in try db.fetch(
                "SELECT a.localIdentifier FROM asset a LEFT JOIN resource r ON r.assetRowID = a.rowID AND r.contentHash = a.contentHash WHERE r.assetRowID IS NULL"
            ) {
                problems.append("asset \(row[0] as String): its original is not among its resources")
            }
            for (key, condition) in Self.keptCounts {
                let kept = try db.value("SELECT value FROM libraryInfo WHERE key = ?", [key], as: Int.self) ?? 0
                let counted = try db.value("SELECT count(*) FROM asset WHERE \(condition)", as: Int.self) ?? 0
                if kept != counted { problems.append("database: the kept count \(key) is \(kept), but \(counted) rows match") }
            }
            let assets: Int = try db.value("SELECT count(*) FROM asset") ?? 0
            let documents: Int = try db.value("SELECT count(*) FROM assetSearch") ?? 0
            if assets != documents {
                problems.append("search index: \(documents) documents for \(assets) assets; rebuild it with: sepia search --rebuild-index")
            }
            let cells = try Self.differingMapCells(db)
            if cells > 0 {
                problems.append("map: \(cells) of the kept map cells differ from the photos' positions; rebuild them with: sepia places update")
            }
            return problems
        }
    }
}
