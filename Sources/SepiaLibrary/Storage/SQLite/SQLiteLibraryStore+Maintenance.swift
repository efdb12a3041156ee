import Foundation
import GRDB
import SepiaCodecs

extension SQLiteLibraryStore {
    func withUnreferencedFiles(
        _ files: [StoredFile], recordingSweep: Bool, remove: ([StoredFile]) throws(LibraryError) -> [StoredFile]
    ) throws(LibraryError) {
        guard !files.isEmpty else { return }
        try write { db in
            var unreferenced: [StoredFile] = []
            for file in Set(files) {
                let sql =
                    file.kind == .original
                    ? "SELECT 1 FROM asset WHERE contentHash = ?"
                    : "SELECT 1 FROM adjustment WHERE renderedContentHash = ?"
                if try Int.fetchOne(db, sql: sql, arguments: [file.hash]) == nil { unreferenced.append(file) }
            }
            // Still inside the write transaction: no other process can commit a row naming these files
            // until they are gone, and a commit naming one afterwards finds it missing (or recorded as swept)
            // and writes it again.
            let removed = try remove(unreferenced)
            if recordingSweep && !removed.isEmpty {
                let sweep = (try Int64.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'fileSweep'") ?? 0) + 1
                try db.execute(sql: "INSERT OR REPLACE INTO libraryInfo (key, value) VALUES ('fileSweep', ?)", arguments: [sweep])
                let now = Date().timeIntervalSince1970
                for file in removed {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO sweptFile (kind, hash, sweep, date) VALUES (?, ?, ?, ?)",
                        arguments: [file.kind.rawValue, file.hash, sweep, now])
                }
                // A record only matters to commits of files stored while the sweep ran: a day is ample.
                try db.execute(sql: "DELETE FROM sweptFile WHERE date < ?", arguments: [now - 86_400])
            }
        }
    }

    func recordedStorage() throws(LibraryError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'storage'") }
    }

    func recordStorage(_ identity: String?) throws(LibraryError) -> Bool {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM asset LIMIT 1") == nil else { return false }
            if let identity {
                try db.execute(sql: "INSERT OR REPLACE INTO libraryInfo (key, value) VALUES ('storage', ?)", arguments: [identity])
            } else {
                try db.execute(sql: "DELETE FROM libraryInfo WHERE key = 'storage'")
            }
            return true
        }
    }

    func latestSweep() throws(LibraryError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'fileSweep'") ?? 0 }
    }

    func allFileReferences() throws(LibraryError) -> [StoredFile] {
        try read { db in
            var files: [StoredFile] = []
            for row in try Row.fetchAll(db, sql: "SELECT contentHash, originalFormat FROM asset") {
                files.append(StoredFile(kind: .original, hash: row[0], format: ImageFormat(rawValue: row[1]) ?? .jpeg))
            }
            for hash in try String.fetchAll(db, sql: "SELECT renderedContentHash FROM adjustment WHERE renderedContentHash IS NOT NULL") {
                files.append(StoredFile(kind: .render, hash: hash, format: .jpeg))
            }
            return files
        }
    }

    func allAssetIDs() throws(LibraryError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT localIdentifier FROM asset")) }
    }

    func integrityProblems() throws(LibraryError) -> [String] {
        try read { db in
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems += integrity.map { "database: \($0)" } }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                problems.append("database: a row of \(row[0] as String) names a missing row of \(row[2] as String)")
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.localIdentifier FROM asset a LEFT JOIN adjustment j ON j.localIdentifier = a.currentAdjustmentID
                    WHERE a.currentAdjustmentID IS NOT NULL AND (j.rowID IS NULL OR j.assetRowID <> a.rowID OR j.renderedContentHash IS NULL)
                    """)
            {
                problems.append("asset \(row[0] as String): its current edit is missing or has no render")
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.localIdentifier FROM asset a JOIN adjustment j ON j.localIdentifier = a.currentAdjustmentID
                    LEFT JOIN adjustment b ON b.localIdentifier = j.baseAdjustmentID
                    WHERE j.baseAdjustmentID IS NOT NULL AND (b.rowID IS NULL OR b.renderedContentHash IS NULL)
                    """)
            {
                problems.append("asset \(row[0] as String): the edit its current edit builds on has no render")
            }
            return problems
        }
    }
}
