import Foundation
import GRDB
import SepiaCodecs

extension SQLiteLibraryStore {
    func withUnreferencedFiles(_ files: [StoredFile], remove: ([StoredFile]) -> Void) throws(LibraryError) {
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
            // until they are gone, and a commit naming one afterwards finds it missing and writes it again.
            remove(unreferenced)
        }
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
