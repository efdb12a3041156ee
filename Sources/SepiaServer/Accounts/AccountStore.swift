import Crypto
import Foundation
import GRDB
import SepiaLibrary
import Synchronization

/// The server's own database: accounts, sessions, API tokens, share links and setup links; `server.sqlite` in
/// the data folder, or a schema of a PostgreSQL database that every server of a deployment shares. Secrets
/// are stored as SHA-256 hashes, except share links' (their owner copies them again). Every method is one
/// transaction.
///
/// Credentials are checked on every request, so recent look-ups are kept in memory for a few seconds;
/// revoking or changing one drops it from memory at once, on every server of a deployment (on PostgreSQL the
/// revocation is announced with `NOTIFY`; a server that missed it forgets its cache when it reconnects, and
/// in any case within ``cacheLifetime``).
final class AccountStore: Sendable {
    let database: any SQLDatabase
    /// The schema revocations are announced for (PostgreSQL only).
    private let announcementSchema: String?
    private let listening = Mutex<PostgresChangeListener.Registration?>(nil)
    private let credentialCache = Mutex<[String: (value: CachedCredential, time: Date)]>([:])
    /// How long a credential look-up is trusted without asking the database again.
    let cacheLifetime: TimeInterval = 10
    /// Raised whenever a credential leaves the cache (revoked, changed, signed out), so that whoever kept a
    /// cached answer can tell, with one atomic read, that it may no longer hold.
    private let forgetting = Atomic<Int>(0)
    /// The deployment's secret, once read (``changeCursorKey()``, ``peopleUndoKey()``).
    private let secret = Mutex<String?>(nil)

    enum CachedCredential: Sendable {
        case session(SessionRecord, UserRecord)
        case token(APITokenRecord, UserRecord)
        case none
    }

    /// Opens (creating) the SQLite database at `path`.
    convenience init(path: String) throws {
        try self.init(database: Self.open { try SQLiteDatabase(path: path, label: "sepia.server", migrator: Self.migrator) })
    }

    /// Opens (creating) the accounts schema on a PostgreSQL server, and listens for revocations made by the
    /// other servers.
    convenience init(postgreSQL location: PostgresLocation) throws {
        let database = try Self.open { try PostgresDatabase(location: location, migrations: Self.postgresMigrations, announcesChanges: false) }
        self.init(database: database, announcementSchema: location.schema)
        guard let postgres = database as? PostgresDatabase else { return }
        let registration = PostgresChangeListener.shared(for: postgres).listen(schema: location.schema) { [weak self] message in
            guard let self else { return }
            if message.hasPrefix("forget "), message != "forget *" {
                forget(String(message.dropFirst("forget ".count)))
            } else {
                // "forget *", or a reconnection after which anything may have been missed.
                clearCache()
            }
        }
        listening.withLock { $0 = registration }
    }

    init(database: any SQLDatabase, announcementSchema: String? = nil) {
        self.database = database
        self.announcementSchema = announcementSchema
    }

    /// Tells the other servers to forget a credential (`*`: all), when the transaction commits.
    func announceForgetting(_ key: String, in db: any SQLSession) throws {
        guard let schema = announcementSchema else { return }
        try PostgresChangeListener.announce("forget " + key, schema: schema, in: db)
    }

    private static func open(_ make: () throws -> any SQLDatabase) throws -> any SQLDatabase {
        do {
            return try make()
        } catch let error as LibraryError where error.code == .newerSchema {
            throw LibraryError(.newerSchema, "the server database was written by a newer version of Sepia; update Sepia to open it")
        } catch let error as LibraryError {
            throw LibraryError(error.code, "cannot open the server database: \(error.reason)", subject: error.subject)
        }
    }

    func read<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try database.read(body)
    }

    func write<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try database.write(body)
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
        migrator.registerMigration("v2") { db in
            try db.execute(sql: JobQueue.sqliteTable)
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: JobQueue.sqliteProgressColumn)
        }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: Self.downloadsSQLite)
        }
        migrator.registerMigration("v5") { db in
            try db.execute(sql: Self.serverSecretTable)
        }
        migrator.registerMigration("v6") { db in
            try db.execute(sql: JobQueue.sqliteLaneColumn)
        }
        migrator.registerMigration("v7") { db in
            try db.execute(sql: Self.twoFactorSQLite)
        }
        migrator.registerMigration("v8") { db in
            try db.execute(sql: Self.signedInDevicesSQL)
        }
        return migrator
    }

    /// The same schema on PostgreSQL: dates as seconds since 1970, user names unique regardless of case.
    private static let postgresMigrations: [(identifier: String, sql: String)] = [
        (
            "v1",
            """
            CREATE TABLE "user" (
              id TEXT PRIMARY KEY,
              username TEXT NOT NULL,
              passwordHash TEXT NOT NULL,
              isOwner BOOLEAN NOT NULL,
              libraryPath TEXT NOT NULL,
              createdAt DOUBLE PRECISION NOT NULL
            );
            CREATE UNIQUE INDEX user_byName ON "user"(lower(username));
            CREATE UNIQUE INDEX user_owner ON "user"(isOwner) WHERE isOwner;
            CREATE TABLE session (
              tokenHash TEXT PRIMARY KEY,
              userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
              csrfToken TEXT NOT NULL,
              createdAt DOUBLE PRECISION NOT NULL,
              expiresAt DOUBLE PRECISION NOT NULL,
              lastSeenAt DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX session_byUser ON session(userID);
            CREATE TABLE apiToken (
              id TEXT PRIMARY KEY,
              userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
              name TEXT NOT NULL,
              tokenHash TEXT NOT NULL UNIQUE,
              accessLevel TEXT NOT NULL,
              albumIDs TEXT NOT NULL,
              createdAt DOUBLE PRECISION NOT NULL,
              expiresAt DOUBLE PRECISION,
              lastUsedAt DOUBLE PRECISION
            );
            CREATE INDEX apiToken_byUser ON apiToken(userID);
            CREATE TABLE shareLink (
              id TEXT PRIMARY KEY,
              userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
              token TEXT NOT NULL UNIQUE,
              assetID TEXT,
              albumID TEXT,
              includeMetadata BOOLEAN NOT NULL,
              createdAt DOUBLE PRECISION NOT NULL,
              expiresAt DOUBLE PRECISION,
              CHECK ((assetID IS NULL) <> (albumID IS NULL))
            );
            CREATE INDEX shareLink_byUser ON shareLink(userID);
            CREATE TABLE setupToken (
              tokenHash TEXT PRIMARY KEY,
              kind TEXT NOT NULL,
              createdBy TEXT,
              createdAt DOUBLE PRECISION NOT NULL,
              expiresAt DOUBLE PRECISION NOT NULL,
              usedAt DOUBLE PRECISION
            );
            """
        ),
        ("v2", JobQueue.postgresTable),
        ("v3", JobQueue.postgresProgressColumn),
        ("v4", downloadsPostgreSQL),
        ("v5", serverSecretTable),
        ("v6", JobQueue.postgresLaneColumn),
        ("v7", twoFactorPostgreSQL),
        ("v8", signedInDevicesSQL),
    ]

    /// Secrets the servers of a deployment share and no client ever sees, by name: made at random by the first
    /// server that needs one (``changeCursorKey()``).
    private static let serverSecretTable = """
        CREATE TABLE serverSecret (
          name TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
        """

    /// Downloads: whether a share link lets its visitors download the files (links made before say no), and the
    /// selections waiting to be downloaded as ZIP files (`POST /api/v1/downloads`), for a short while.
    private static let downloadsSQLite = """
        ALTER TABLE shareLink ADD COLUMN allowDownload BOOLEAN NOT NULL DEFAULT 0;
        CREATE TABLE download (
          id TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          assetIDs TEXT NOT NULL,
          version TEXT NOT NULL,
          createdAt DOUBLE NOT NULL,
          expiresAt DOUBLE NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX download_byExpiry ON download(expiresAt);
        """

    /// The same on PostgreSQL.
    private static let downloadsPostgreSQL = """
        ALTER TABLE shareLink ADD COLUMN allowDownload BOOLEAN NOT NULL DEFAULT false;
        CREATE TABLE download (
          id TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
          assetIDs TEXT NOT NULL,
          version TEXT NOT NULL,
          createdAt DOUBLE PRECISION NOT NULL,
          expiresAt DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX download_byExpiry ON download(expiresAt);
        """

    // MARK: - Server secrets

    /// The key that seals the change-stream positions of credentials limited to albums (``ChangeCursor``): the
    /// same on every server of a deployment, made by the first one that asks.
    func changeCursorKey() throws -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Data(try serverSecret().utf8)))
    }

    /// The key that signs the undo tokens of changes to people (``PeopleUndoToken``): derived from the same
    /// secret as ``changeCursorKey()`` for this purpose alone, so the same on every server of a deployment.
    func peopleUndoKey() throws -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(try serverSecret().utf8)), info: Data("sepia people undo v1".utf8), outputByteCount: 32)
    }

    /// The deployment's secret: 32 random bytes in the server database, made by the first server that asks.
    private func serverSecret() throws -> String {
        if let secret = secret.withLock({ $0 }) { return secret }
        let candidate = Secret.generate()
        let stored = try write { db -> String? in
            try db.execute("INSERT INTO serverSecret (name, value) VALUES ('changeCursor', ?) ON CONFLICT (name) DO NOTHING", [candidate])
            return try db.value("SELECT value FROM serverSecret WHERE name = 'changeCursor'", as: String.self)
        }
        guard let stored else { throw APIError.internalError("the server database has no secret") }
        secret.withLock { $0 = stored }
        return stored
    }

    // MARK: - Users

    private static let userSelect = "SELECT \(UserRecord.columns) FROM \"user\""

    func userCount() throws -> Int {
        try read { db in try db.value("SELECT count(*) FROM \"user\"") ?? 0 }
    }

    func user(id: String) throws -> UserRecord? {
        try read { db in try db.fetchOne(Self.userSelect + " WHERE id = ?", [id]).map(UserRecord.init) }
    }

    /// The account with this name, compared in its canonical form.
    func user(named name: UserName) throws -> UserRecord? {
        try read { db in try db.fetchOne(Self.userSelect + " WHERE lower(username) = ?", [name.canonical]).map(UserRecord.init) }
    }

    func users() throws -> [UserRecord] {
        try read { db in try db.fetch(Self.userSelect + " ORDER BY createdAt").map(UserRecord.init) }
    }

    /// Deletes an account with its sessions, tokens and share links. The owner cannot be deleted.
    func deleteUser(id: String) throws -> UserRecord? {
        let removed = try write { db -> UserRecord? in
            guard let user = try db.fetchOne(Self.userSelect + " WHERE id = ?", [id]).map(UserRecord.init), !user.isOwner else { return nil }
            try db.execute("DELETE FROM \"user\" WHERE id = ?", [id])
            try announceForgetting("*", in: db)
            return user
        }
        clearCache()
        return removed
    }

    /// Replaces a password and ends every other session of the account.
    func setPassword(userID: String, hash: String, keepingSession keep: String?) throws {
        try write { db in
            try db.execute("UPDATE \"user\" SET passwordHash = ? WHERE id = ?", [hash, userID])
            try db.execute("DELETE FROM session WHERE userID = ? AND tokenHash <> ?", [userID, keep ?? ""])
            try announceForgetting("*", in: db)
        }
        clearCache()
    }

    // MARK: - Setup links

    private static let setupSelect = "SELECT \(SetupTokenRecord.columns) FROM setupToken"

    /// Makes a one-time link secret. Owner links made by earlier starts stay valid until they expire: several
    /// servers of a deployment start at once and each prints one; the first used creates the owner, and the
    /// others then answer that the server has an owner.
    func createSetupToken(kind: SetupTokenRecord.Kind, lifetime: TimeInterval, createdBy: String?) throws -> (String, SetupTokenRecord) {
        let secret = Secret.generate()
        let now = Date()
        let record = SetupTokenRecord(
            tokenHash: Secret.hash(secret), kind: kind, createdBy: createdBy, createdAt: now, expiresAt: now.addingTimeInterval(lifetime),
            usedAt: nil)
        try write { db in
            try db.execute("DELETE FROM setupToken WHERE expiresAt < ?", [db.dialect.date(now.addingTimeInterval(-30 * 86_400))])
            try db.insert(into: "setupToken", columns: SetupTokenRecord.columns, record.values(db.dialect))
        }
        return (secret, record)
    }

    func setupToken(secret: String) throws -> SetupTokenRecord? {
        guard Secret.isWellFormed(secret) else { return nil }
        return try read { db in try db.fetchOne(Self.setupSelect + " WHERE tokenHash = ?", [Secret.hash(secret)]).map(SetupTokenRecord.init) }
    }

    /// Uses a setup link: creates the account it is for, in one transaction with marking the link used.
    func redeemSetupToken(
        secret: String, name: UserName, passwordHash: String, libraryPath: (String) -> String
    ) throws -> UserRecord {
        let now = Date()
        return try write { db in
            guard Secret.isWellFormed(secret),
                let token = try db.fetchOne(Self.setupSelect + " WHERE tokenHash = ?", [Secret.hash(secret)]).map(SetupTokenRecord.init)
            else {
                throw APIError.notFound("this setup link is unknown; ask for a new one")
            }
            guard token.usedAt == nil else { throw APIError.gone("this setup link was used already; sign in instead") }
            guard token.expiresAt > now else {
                throw APIError.gone(
                    token.kind == .owner
                        ? "this setup link has expired; restart the server to print a new one" : "this invitation has expired; ask for a new one")
            }
            if token.kind == .owner, try db.value("SELECT 1 FROM \"user\" WHERE isOwner", as: Int.self) != nil {
                throw APIError.gone("this server already has an owner; sign in instead")
            }
            if try db.value("SELECT 1 FROM \"user\" WHERE lower(username) = ?", [name.canonical], as: Int.self) != nil {
                throw APIError.conflict("the name '\(name.text)' is taken; choose another")
            }
            let id = UUID().uuidString.lowercased()
            let user = UserRecord(
                id: id, username: name.text, passwordHash: passwordHash, isOwner: token.kind == .owner,
                libraryPath: token.kind == .owner ? "" : libraryPath(id), createdAt: now)
            try db.insert(into: "\"user\"", columns: UserRecord.columns, user.values(db.dialect))
            try db.execute("UPDATE setupToken SET usedAt = ? WHERE tokenHash = ?", [db.dialect.date(now), token.tokenHash])
            return user
        }
    }

    // MARK: - Sessions

    /// How many sessions one account keeps; signing in past it signs out the one used least recently.
    static let maximumSessionsPerAccount = 100

    /// A new session for `userID`, signed in from a browser that says `userAgent`, at `address`.
    func createSession(userID: String, lifetime: TimeInterval, userAgent: String, address: String) throws -> (String, SessionRecord) {
        let secret = Secret.generate()
        let now = Date()
        let session = SessionRecord(
            tokenHash: Secret.hash(secret), userID: userID, csrfToken: Secret.generate(), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime), lastSeenAt: now, userAgent: Self.clipped(userAgent, to: 512),
            address: Self.clipped(address, to: 64))
        let ended = try write { db -> [String] in
            try db.execute("DELETE FROM session WHERE expiresAt < ?", [db.dialect.date(now)])
            try db.insert(into: "session", columns: SessionRecord.columns, session.values(db.dialect))
            // Signing in in a loop keeps the newest sessions only: the least recently used end first.
            let ended = try db.values(
                "SELECT tokenHash FROM session WHERE userID = ? ORDER BY lastSeenAt DESC, createdAt DESC", [userID], as: String.self
            ).dropFirst(Self.maximumSessionsPerAccount)
            for hash in ended {
                try db.execute("DELETE FROM session WHERE tokenHash = ?", [hash])
                try announceForgetting(hash, in: db)
            }
            return Array(ended)
        }
        ended.forEach(forget)
        return (secret, session)
    }

    /// The live session and account a cookie's secret opens.
    func session(secret: String) throws -> (SessionRecord, UserRecord)? {
        guard Secret.isWellFormed(secret) else { return nil }
        let hash = Secret.hash(secret)
        let found = try cached(hash) { db -> CachedCredential in
            guard let session = try db.fetchOne("SELECT \(SessionRecord.columns) FROM session WHERE tokenHash = ?", [hash]).map(SessionRecord.init),
                let user = try db.fetchOne(Self.userSelect + " WHERE id = ?", [session.userID]).map(UserRecord.init)
            else { return .none }
            return .session(session, user)
        }
        guard case .session(let session, let user) = found, session.expiresAt > Date() else { return nil }
        return (session, user)
    }

    /// Records that a session is in use from `address` and extends it: at most once a minute, and at once when the
    /// address changed.
    func touch(_ session: SessionRecord, lifetime: TimeInterval, address: String?) {
        let now = Date()
        let address = Self.clipped(address ?? "", to: 64)
        guard now.timeIntervalSince(session.lastSeenAt) > 60 || address != session.address else { return }
        _ = try? write { db in
            try db.execute(
                "UPDATE session SET lastSeenAt = ?, expiresAt = ?, address = ? WHERE tokenHash = ?",
                [db.dialect.date(now), db.dialect.date(now.addingTimeInterval(lifetime)), address, session.tokenHash])
        }
        forget(session.tokenHash)
    }

    func deleteSession(hash: String) throws {
        try write { db in
            try db.execute("DELETE FROM session WHERE tokenHash = ?", [hash])
            try announceForgetting(hash, in: db)
        }
        forget(hash)
    }

    // MARK: - API tokens

    private static let tokenSelect = "SELECT \(APITokenRecord.columns) FROM apiToken"

    func tokens(userID: String) throws -> [APITokenRecord] {
        try read { db in try db.fetch(Self.tokenSelect + " WHERE userID = ? ORDER BY createdAt", [userID]).map(APITokenRecord.init) }
    }

    func createToken(
        userID: String, name: String, accessLevel: AccessLevel, albumIDs: [String], expiresAt: Date?
    ) throws -> (secret: String, token: APITokenRecord) {
        let secret = Secret.generate(prefix: "sepia_")
        let token = APITokenRecord(
            id: UUID().uuidString.lowercased(), userID: userID, name: name, tokenHash: Secret.hash(secret), accessLevel: accessLevel,
            albumIDs: albumIDs, createdAt: Date(), expiresAt: expiresAt, lastUsedAt: nil)
        try write { db in try db.insert(into: "apiToken", columns: APITokenRecord.columns, token.values(db.dialect)) }
        return (secret, token)
    }

    /// The live token and account a bearer secret opens.
    func token(secret: String) throws -> (APITokenRecord, UserRecord)? {
        guard Secret.isWellFormed(secret, prefix: "sepia_") else { return nil }
        let hash = Secret.hash(secret)
        let found = try cached(hash) { db -> CachedCredential in
            guard let token = try db.fetchOne(Self.tokenSelect + " WHERE tokenHash = ?", [hash]).map(APITokenRecord.init),
                let user = try db.fetchOne(Self.userSelect + " WHERE id = ?", [token.userID]).map(UserRecord.init)
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

    /// Records that a token was used from `address`: at most once a minute, and at once when the address changed.
    func touch(_ token: APITokenRecord, address: String?) {
        let now = Date()
        let address = Self.clipped(address ?? "", to: 64)
        if let last = token.lastUsedAt, now.timeIntervalSince(last) < 60, address == token.lastAddress { return }
        _ = try? write { db in
            try db.execute("UPDATE apiToken SET lastUsedAt = ?, lastAddress = ? WHERE id = ?", [db.dialect.date(now), address, token.id])
        }
        forget(token.tokenHash)
    }

    /// Revokes a token of `userID`; false when it has no such token.
    func deleteToken(id: String, userID: String) throws -> Bool {
        let hash = try write { db -> String? in
            guard let token = try db.fetchOne(Self.tokenSelect + " WHERE id = ?", [id]).map(APITokenRecord.init), token.userID == userID
            else { return nil }
            try db.execute("DELETE FROM apiToken WHERE id = ?", [id])
            try announceForgetting(token.tokenHash, in: db)
            return token.tokenHash
        }
        if let hash { forget(hash) }
        return hash != nil
    }

    // MARK: - Share links

    private static let shareSelect = "SELECT \(ShareLinkRecord.columns) FROM shareLink"

    func shares(userID: String) throws -> [ShareLinkRecord] {
        try read { db in try db.fetch(Self.shareSelect + " WHERE userID = ? ORDER BY createdAt", [userID]).map(ShareLinkRecord.init) }
    }

    func createShare(
        userID: String, assetID: String?, albumID: String?, includeMetadata: Bool, allowDownload: Bool = false, expiresAt: Date?
    ) throws -> ShareLinkRecord {
        let share = ShareLinkRecord(
            id: UUID().uuidString.lowercased(), userID: userID, token: Secret.generate(), assetID: assetID, albumID: albumID,
            includeMetadata: includeMetadata, allowDownload: allowDownload, createdAt: Date(), expiresAt: expiresAt)
        try write { db in try db.insert(into: "shareLink", columns: ShareLinkRecord.columns, share.values(db.dialect)) }
        return share
    }

    func share(token: String) throws -> ShareLinkRecord? {
        guard Secret.isWellFormed(token) else { return nil }
        return try read { db in try db.fetchOne(Self.shareSelect + " WHERE token = ?", [token]).map(ShareLinkRecord.init) }
    }

    func deleteShare(id: String, userID: String) throws -> Bool {
        try write { db in try db.execute("DELETE FROM shareLink WHERE id = ? AND userID = ?", [id, userID]) > 0 }
    }

    // MARK: - Downloads

    private static let downloadSelect = "SELECT \(DownloadRecord.columns) FROM download"

    /// Records a selection to download as a ZIP file until `lifetime` has passed, and forgets those whose time
    /// has passed.
    func createDownload(userID: String, assetIDs: [String], version: String, lifetime: TimeInterval) throws -> DownloadRecord {
        let now = Date()
        let download = DownloadRecord(
            id: Secret.generate(), userID: userID, assetIDs: assetIDs, version: version, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        try write { db in
            try db.execute("DELETE FROM download WHERE expiresAt < ?", [db.dialect.date(now)])
            try db.insert(into: "download", columns: DownloadRecord.columns, download.values(db.dialect))
        }
        return download
    }

    /// The download with this identifier, whether or not its time has passed.
    func download(id: String) throws -> DownloadRecord? {
        guard Secret.isWellFormed(id) else { return nil }
        return try read { db in try db.fetchOne(Self.downloadSelect + " WHERE id = ?", [id]).map(DownloadRecord.init) }
    }

    // MARK: - Credential cache

    /// The credential under `key`, from the cache or the database. A look-up that a revocation overtook (the
    /// generation moved while it read the database) answers its own request but is not kept: what it read may
    /// be the credential as it was before the revocation, and keeping it would let the revoked credential in
    /// until the entry's lifetime ends.
    private func cached(_ key: String, fetch: (any SQLSession) throws -> CachedCredential) throws -> CachedCredential {
        let now = Date()
        if let hit = credentialCache.withLock({ $0[key] }), now.timeIntervalSince(hit.time) < cacheLifetime { return hit.value }
        let generation = credentialGeneration
        let value = try read { db in try fetch(db) }
        credentialCache.withLock { cache in
            // Revocations raise the generation while holding this lock, so the comparison and the store are one
            // step with respect to them.
            guard forgetting.load(ordering: .acquiring) == generation else { return }
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = (value, now)
        }
        return value
    }

    func forget(_ key: String) {
        credentialCache.withLock { cache in
            cache.removeValue(forKey: key)
            forgetting.add(1, ordering: .releasing)
        }
    }

    /// Forgets every credential kept in memory (after a reconnection to the database, and in tests).
    func clearCache() {
        credentialCache.withLock { cache in
            cache.removeAll()
            forgetting.add(1, ordering: .releasing)
        }
    }
}
