import Foundation
import GRDB
import Synchronization

/// The server's own database (`server.sqlite` in the data folder): accounts, sessions, API tokens, share
/// links and setup links. Secrets are stored as SHA-256 hashes, except share links' (their owner copies them
/// again). Every method is one transaction.
///
/// Credentials are checked on every request, so recent look-ups are kept in memory for a few seconds;
/// revoking or changing one here drops it from memory at once.
final class AccountStore: Sendable {
    let pool: DatabasePool
    private let credentialCache = Mutex<[String: (value: CachedCredential, time: Date)]>([:])
    private let cacheLifetime: TimeInterval = 10
    /// Raised whenever a credential leaves the cache (revoked, changed, signed out), so that whoever kept a
    /// cached answer can tell, with one atomic read, that it may no longer hold.
    private let forgetting = Atomic<Int>(0)

    enum CachedCredential: Sendable {
        case session(SessionRecord, UserRecord)
        case token(APITokenRecord, UserRecord)
        case none
    }

    /// Opens (creating) the database at `path`.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        configuration.label = "sepia.server"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        pool = try DatabasePool(path: path, configuration: configuration)
        let migrator = Self.migrator
        if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
            throw APIError.internalError("the server database was written by a newer version of Sepia; update Sepia to open it")
        }
        try migrator.migrate(pool)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (
                      id TEXT PRIMARY KEY,
                      username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                      passwordHash TEXT NOT NULL,
                      isOwner BOOLEAN NOT NULL,
                      libraryPath TEXT NOT NULL,
                      createdAt DOUBLE NOT NULL
                    );
                    CREATE UNIQUE INDEX user_owner ON user(isOwner) WHERE isOwner;
                    CREATE TABLE session (
                      tokenHash TEXT PRIMARY KEY,
                      userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                      csrfToken TEXT NOT NULL,
                      createdAt DOUBLE NOT NULL,
                      expiresAt DOUBLE NOT NULL,
                      lastSeenAt DOUBLE NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX session_byUser ON session(userID);
                    CREATE TABLE apiToken (
                      id TEXT PRIMARY KEY,
                      userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                      name TEXT NOT NULL,
                      tokenHash TEXT NOT NULL UNIQUE,
                      accessLevel TEXT NOT NULL,
                      albumIDs TEXT NOT NULL,
                      createdAt DOUBLE NOT NULL,
                      expiresAt DOUBLE,
                      lastUsedAt DOUBLE
                    );
                    CREATE INDEX apiToken_byUser ON apiToken(userID);
                    CREATE TABLE shareLink (
                      id TEXT PRIMARY KEY,
                      userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                      token TEXT NOT NULL UNIQUE,
                      assetID TEXT,
                      albumID TEXT,
                      includeMetadata BOOLEAN NOT NULL,
                      createdAt DOUBLE NOT NULL,
                      expiresAt DOUBLE,
                      CHECK ((assetID IS NULL) <> (albumID IS NULL))
                    );
                    CREATE INDEX shareLink_byUser ON shareLink(userID);
                    CREATE TABLE setupToken (
                      tokenHash TEXT PRIMARY KEY,
                      kind TEXT NOT NULL,
                      createdBy TEXT,
                      createdAt DOUBLE NOT NULL,
                      expiresAt DOUBLE NOT NULL,
                      usedAt DOUBLE
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }

    // MARK: - Users

    func userCount() throws -> Int {
        try pool.read { db in try UserRecord.fetchCount(db) }
    }

    func user(id: String) throws -> UserRecord? {
        try pool.read { db in try UserRecord.fetchOne(db, key: id) }
    }

    func user(username: String) throws -> UserRecord? {
        try pool.read { db in try UserRecord.filter(sql: "username = ?", arguments: [username]).fetchOne(db) }
    }

    func users() throws -> [UserRecord] {
        try pool.read { db in try UserRecord.order(sql: "createdAt").fetchAll(db) }
    }

    /// Deletes an account with its sessions, tokens and share links. The owner cannot be deleted.
    func deleteUser(id: String) throws -> UserRecord? {
        let removed = try pool.write { db -> UserRecord? in
            guard let user = try UserRecord.fetchOne(db, key: id), !user.isOwner else { return nil }
            try user.delete(db)
            return user
        }
        clearCache()
        return removed
    }

    /// Replaces a password and ends every other session of the account.
    func setPassword(userID: String, hash: String, keepingSession keep: String?) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE id = ?", arguments: [hash, userID])
            try db.execute(sql: "DELETE FROM session WHERE userID = ? AND tokenHash <> ?", arguments: [userID, keep ?? ""])
        }
        clearCache()
    }

    // MARK: - Setup links

    /// Makes a one-time link secret. A new owner link replaces every unused one.
    func createSetupToken(kind: SetupTokenRecord.Kind, lifetime: TimeInterval, createdBy: String?) throws -> (String, SetupTokenRecord) {
        let secret = Secret.generate()
        let now = Date()
        let record = SetupTokenRecord(
            tokenHash: Secret.hash(secret), kind: kind, createdBy: createdBy, createdAt: now, expiresAt: now.addingTimeInterval(lifetime),
            usedAt: nil)
        try pool.write { db in
            try db.execute(sql: "DELETE FROM setupToken WHERE expiresAt < ?", arguments: [now.addingTimeInterval(-30 * 86_400)])
            if kind == .owner { try db.execute(sql: "DELETE FROM setupToken WHERE kind = 'owner' AND usedAt IS NULL") }
            try record.insert(db)
        }
        return (secret, record)
    }

    func setupToken(secret: String) throws -> SetupTokenRecord? {
        guard Secret.isWellFormed(secret) else { return nil }
        return try pool.read { db in try SetupTokenRecord.fetchOne(db, key: Secret.hash(secret)) }
    }

    /// Uses a setup link: creates the account it is for, in one transaction with marking the link used.
    func redeemSetupToken(
        secret: String, username: String, passwordHash: String, libraryPath: (String) -> String
    ) throws -> UserRecord {
        let now = Date()
        return try pool.write { db in
            guard Secret.isWellFormed(secret), let token = try SetupTokenRecord.fetchOne(db, key: Secret.hash(secret)) else {
                throw APIError.notFound("this setup link is unknown; ask for a new one")
            }
            guard token.usedAt == nil else { throw APIError.gone("this setup link was used already; sign in instead") }
            guard token.expiresAt > now else {
                throw APIError.gone(
                    token.kind == .owner
                        ? "this setup link has expired; restart the server to print a new one" : "this invitation has expired; ask for a new one")
            }
            if token.kind == .owner, try UserRecord.filter(sql: "isOwner").fetchCount(db) > 0 {
                throw APIError.gone("this server already has an owner; sign in instead")
            }
            if try UserRecord.filter(sql: "username = ?", arguments: [username]).fetchCount(db) > 0 {
                throw APIError.conflict("the name '\(username)' is taken; choose another")
            }
            let id = UUID().uuidString.lowercased()
            let user = UserRecord(
                id: id, username: username, passwordHash: passwordHash, isOwner: token.kind == .owner,
                libraryPath: token.kind == .owner ? "" : libraryPath(id), createdAt: now)
            try user.insert(db)
            try db.execute(sql: "UPDATE setupToken SET usedAt = ? WHERE tokenHash = ?", arguments: [now, token.tokenHash])
            return user
        }
    }

    // MARK: - Sessions

    func createSession(userID: String, lifetime: TimeInterval) throws -> (secret: String, session: SessionRecord) {
        let secret = Secret.generate()
        let now = Date()
        let session = SessionRecord(
            tokenHash: Secret.hash(secret), userID: userID, csrfToken: Secret.generate(), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime), lastSeenAt: now)
        try pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expiresAt < ?", arguments: [now])
            try session.insert(db)
        }
        return (secret, session)
    }

    /// The live session and account a cookie's secret opens.
    func session(secret: String) throws -> (SessionRecord, UserRecord)? {
        guard Secret.isWellFormed(secret) else { return nil }
        let hash = Secret.hash(secret)
        let found = try cached(hash) { db -> CachedCredential in
            guard let session = try SessionRecord.fetchOne(db, key: hash), let user = try UserRecord.fetchOne(db, key: session.userID)
            else { return .none }
            return .session(session, user)
        }
        guard case .session(let session, let user) = found, session.expiresAt > Date() else { return nil }
        return (session, user)
    }

    /// Extends a session that is in use (at most once an hour).
    func touch(_ session: SessionRecord, lifetime: TimeInterval) {
        let now = Date()
        guard now.timeIntervalSince(session.lastSeenAt) > 3600 else { return }
        try? pool.write { db in
            try db.execute(
                sql: "UPDATE session SET lastSeenAt = ?, expiresAt = ? WHERE tokenHash = ?",
                arguments: [now, now.addingTimeInterval(lifetime), session.tokenHash])
        }
        forget(session.tokenHash)
    }

    func deleteSession(hash: String) throws {
        _ = try pool.write { db in try SessionRecord.deleteOne(db, key: hash) }
        forget(hash)
    }

    // MARK: - API tokens

    func tokens(userID: String) throws -> [APITokenRecord] {
        try pool.read { db in try APITokenRecord.filter(sql: "userID = ?", arguments: [userID]).order(sql: "createdAt").fetchAll(db) }
    }

    func createToken(
        userID: String, name: String, accessLevel: AccessLevel, albumIDs: [String], expiresAt: Date?
    ) throws -> (secret: String, token: APITokenRecord) {
        let secret = Secret.generate(prefix: "sepia_")
        let token = APITokenRecord(
            id: UUID().uuidString.lowercased(), userID: userID, name: name, tokenHash: Secret.hash(secret), accessLevel: accessLevel,
            albumIDs: albumIDs, createdAt: Date(), expiresAt: expiresAt, lastUsedAt: nil)
        try pool.write { db in try token.insert(db) }
        return (secret, token)
    }

    /// The live token and account a bearer secret opens.
    func token(secret: String) throws -> (APITokenRecord, UserRecord)? {
        guard Secret.isWellFormed(secret, prefix: "sepia_") else { return nil }
        let hash = Secret.hash(secret)
        let found = try cached(hash) { db -> CachedCredential in
            guard let token = try APITokenRecord.filter(sql: "tokenHash = ?", arguments: [hash]).fetchOne(db),
                let user = try UserRecord.fetchOne(db, key: token.userID)
            else { return .none }
            return .token(token, user)
        }
        guard case .token(let token, let user) = found, !token.isExpired() else { return nil }
        return (token, user)
    }

    /// A credential found in the cache, with how long that answer holds: until the cache entry's lifetime
    /// ends, the token or session expires, or ``credentialGeneration`` moves past `generation`.
    struct CachedCredentialHit {
        var credential: CachedCredential
        var validUntil: Date
        var generation: Int
    }

    /// Moves on whenever a credential leaves the cache.
    var credentialGeneration: Int { forgetting.load(ordering: .acquiring) }

    /// The live token or session a secret opens, if a recent look-up left it in memory; never reads the
    /// database (for answers given on the connection's event loop).
    func cachedCredential(bearer secret: String?, cookie: String?) -> CachedCredential? {
        cachedCredentialHit(bearer: secret, cookie: cookie)?.credential
    }

    /// ``cachedCredential(bearer:cookie:)``, with how long the answer holds.
    func cachedCredentialHit(bearer secret: String?, cookie: String?) -> CachedCredentialHit? {
        let now = Date()
        let generation = credentialGeneration
        if let secret {
            guard Secret.isWellFormed(secret, prefix: "sepia_") else { return nil }
            guard let hit = credentialCache.withLock({ $0[Secret.hash(secret)] }), now.timeIntervalSince(hit.time) < cacheLifetime,
                case .token(let token, _) = hit.value, !token.isExpired(at: now)
            else { return nil }
            let until = min(hit.time.addingTimeInterval(cacheLifetime), token.expiresAt ?? .distantFuture)
            return CachedCredentialHit(credential: hit.value, validUntil: until, generation: generation)
        }
        if let cookie {
            guard Secret.isWellFormed(cookie) else { return nil }
            guard let hit = credentialCache.withLock({ $0[Secret.hash(cookie)] }), now.timeIntervalSince(hit.time) < cacheLifetime,
                case .session(let session, _) = hit.value, session.expiresAt > now
            else { return nil }
            let until = min(hit.time.addingTimeInterval(cacheLifetime), session.expiresAt)
            return CachedCredentialHit(credential: hit.value, validUntil: until, generation: generation)
        }
        return nil
    }

    /// Records that a token was used (at most once a minute).
    func touch(_ token: APITokenRecord) {
        let now = Date()
        if let last = token.lastUsedAt, now.timeIntervalSince(last) < 60 { return }
        try? pool.write { db in try db.execute(sql: "UPDATE apiToken SET lastUsedAt = ? WHERE id = ?", arguments: [now, token.id]) }
        forget(token.tokenHash)
    }

    /// Revokes a token of `userID`; false when it has no such token.
    func deleteToken(id: String, userID: String) throws -> Bool {
        let hash = try pool.write { db -> String? in
            guard let token = try APITokenRecord.fetchOne(db, key: id), token.userID == userID else { return nil }
            try token.delete(db)
            return token.tokenHash
        }
        if let hash { forget(hash) }
        return hash != nil
    }

    // MARK: - Share links

    func shares(userID: String) throws -> [ShareLinkRecord] {
        try pool.read { db in try ShareLinkRecord.filter(sql: "userID = ?", arguments: [userID]).order(sql: "createdAt").fetchAll(db) }
    }

    func createShare(userID: String, assetID: String?, albumID: String?, includeMetadata: Bool, expiresAt: Date?) throws -> ShareLinkRecord {
        let share = ShareLinkRecord(
            id: UUID().uuidString.lowercased(), userID: userID, token: Secret.generate(), assetID: assetID, albumID: albumID,
            includeMetadata: includeMetadata, createdAt: Date(), expiresAt: expiresAt)
        try pool.write { db in try share.insert(db) }
        return share
    }

    func share(token: String) throws -> ShareLinkRecord? {
        guard Secret.isWellFormed(token) else { return nil }
        return try pool.read { db in try ShareLinkRecord.filter(sql: "token = ?", arguments: [token]).fetchOne(db) }
    }

    func deleteShare(id: String, userID: String) throws -> Bool {
        try pool.write { db in
            guard let share = try ShareLinkRecord.fetchOne(db, key: id), share.userID == userID else { return false }
            return try share.delete(db)
        }
    }

    // MARK: - Credential cache

    private func cached(_ key: String, fetch: (Database) throws -> CachedCredential) throws -> CachedCredential {
        let now = Date()
        if let hit = credentialCache.withLock({ $0[key] }), now.timeIntervalSince(hit.time) < cacheLifetime { return hit.value }
        let value = try pool.read { db in try fetch(db) }
        credentialCache.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = (value, now)
        }
        return value
    }

    private func forget(_ key: String) {
        _ = credentialCache.withLock { $0.removeValue(forKey: key) }
        forgetting.add(1, ordering: .releasing)
    }

    private func clearCache() {
        credentialCache.withLock { $0.removeAll() }
        forgetting.add(1, ordering: .releasing)
    }
}
