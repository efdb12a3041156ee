import Foundation
import SepiaLibrary

/// The list of an account's signed-in browsers: what each said it was, where it was last used from, and signing
/// one or all of them out.
extension AccountStore {
    /// A session's browser (its `User-Agent`) and last address; a token's last address. Sessions and tokens made
    /// before have neither: their address appears once they are used, and such a session's browser stays unknown
    /// (it is recorded when signing in).
    static let signedInDevicesSQL = """
        ALTER TABLE session ADD COLUMN userAgent TEXT NOT NULL DEFAULT '';
        ALTER TABLE session ADD COLUMN address TEXT NOT NULL DEFAULT '';
        ALTER TABLE apiToken ADD COLUMN lastAddress TEXT;
        """

    /// `userID`'s sessions that have not expired, the most recently used first.
    func sessions(userID: String) throws -> [SessionRecord] {
        try read { db in
            try db.fetch(
                "SELECT \(SessionRecord.columns) FROM session WHERE userID = ? AND expiresAt > ? ORDER BY lastSeenAt DESC, createdAt DESC",
                [userID, db.dialect.date(Date())]
            ).map(SessionRecord.init)
        }
    }

    /// Signs out `userID`'s session named `publicID`; false when the account has no such session.
    func deleteSession(publicID: String, userID: String) throws -> Bool {
        guard publicID.utf8.count == SessionRecord.publicIDLength, publicID.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return false }
        let hashes = try write { db -> [String] in
            let hashes = try db.values(
                "SELECT tokenHash FROM session WHERE userID = ? AND substr(tokenHash, 1, \(SessionRecord.publicIDLength)) = ?",
                [userID, publicID], as: String.self)
            for hash in hashes {
                try db.execute("DELETE FROM session WHERE tokenHash = ?", [hash])
                try announceForgetting(hash, in: db)
            }
            return hashes
        }
        hashes.forEach(forget)
        return !hashes.isEmpty
    }

    /// Signs out every session of `userID` but the one whose hash is `keeping`; answers how many.
    func deleteOtherSessions(userID: String, keeping: String) throws -> Int {
        let hashes = try write { db -> [String] in
            let hashes = try db.values("SELECT tokenHash FROM session WHERE userID = ? AND tokenHash <> ?", [userID, keeping], as: String.self)
            try db.execute("DELETE FROM session WHERE userID = ? AND tokenHash <> ?", [userID, keeping])
            for hash in hashes { try announceForgetting(hash, in: db) }
            return hashes
        }
        hashes.forEach(forget)
        return hashes.count
    }

    /// `text` cut to at most `limit` bytes, on a character boundary.
    static func clipped(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }
}
