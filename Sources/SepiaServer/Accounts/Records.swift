import Foundation
import SepiaLibrary

/// An account. The owner's library is the server's `--library`; other users' libraries live in the data
/// folder.
struct UserRecord: Codable, Sendable, Hashable {
    var id: String
    var username: String
    var passwordHash: String
    var isOwner: Bool
    /// The library folder, relative to the data folder; empty for the owner (the configured library).
    var libraryPath: String
    var createdAt: Date
}

/// A login session: the cookie's secret is stored as its SHA-256 only.
struct SessionRecord: Codable, Sendable, Hashable {
    var tokenHash: String
    var userID: String
    /// Sent back in `X-CSRF-Token` with every state-changing request made with the cookie.
    var csrfToken: String
    var createdAt: Date
    var expiresAt: Date
    /// When the session was last used, to the minute.
    var lastSeenAt: Date
    /// The browser's `User-Agent` when it signed in (at most 512 bytes), for the list of signed-in devices.
    var userAgent: String = ""
    /// The client's address when the session was last used.
    var address: String = ""

    /// The identifier the list of signed-in devices names a session by: the start of its secret's hash, so
    /// neither the secret nor the whole key it is looked up by is ever shown.
    var publicID: String { String(tokenHash.prefix(Self.publicIDLength)) }
    static let publicIDLength = 16
}

/// An API token: its secret is stored as its SHA-256 only and shown once.
struct APITokenRecord: Codable, Sendable, Hashable {
    var id: String
    var userID: String
    var name: String
    var tokenHash: String
    var accessLevel: AccessLevel
    /// The albums the token is limited to; empty for the whole library.
    var albumIDs: [String]
    var createdAt: Date
    var expiresAt: Date?
    var lastUsedAt: Date?
    /// The client's address when the token was last used.
    var lastAddress: String?

    func isExpired(at now: Date = Date()) -> Bool { expiresAt.map { $0 <= now } ?? false }
}

/// A read-only link to one photo or one album. Its token is kept as is, so the owner can copy the link again;
/// revoking deletes it.
struct ShareLinkRecord: Codable, Sendable, Hashable {
    var id: String
    var userID: String
    var token: String
    var assetID: String?
    var albumID: String?
    /// Whether the share shows the date, camera and place.
    var includeMetadata: Bool
    /// Whether visitors may download the files (as a ZIP file, with their metadata).
    var allowDownload: Bool
    var createdAt: Date
    var expiresAt: Date?

    func isExpired(at now: Date = Date()) -> Bool { expiresAt.map { $0 <= now } ?? false }
}

/// A one-time link that creates an account: the owner's (printed at first start) or an invited user's.
struct SetupTokenRecord: Codable, Sendable, Hashable {
    enum Kind: String, Codable, Sendable {
        case owner
        case invitation
    }

    var tokenHash: String
    var kind: Kind
    var createdBy: String?
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
}

// MARK: - Rows

extension UserRecord {
    static let columns = "id, username, passwordHash, isOwner, libraryPath, createdAt"

    init(_ row: SQLRow) {
        self.init(id: row[0], username: row[1], passwordHash: row[2], isOwner: row[3], libraryPath: row[4], createdAt: row[5])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        [id, username, passwordHash, isOwner, libraryPath, dialect.date(createdAt)]
    }
}

extension SessionRecord {
    static let columns = "tokenHash, userID, csrfToken, createdAt, expiresAt, lastSeenAt, userAgent, address"

    init(_ row: SQLRow) {
        self.init(
            tokenHash: row[0], userID: row[1], csrfToken: row[2], createdAt: row[3], expiresAt: row[4], lastSeenAt: row[5],
            userAgent: row[6], address: row[7])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        [tokenHash, userID, csrfToken, dialect.date(createdAt), dialect.date(expiresAt), dialect.date(lastSeenAt), userAgent, address]
    }
}

extension APITokenRecord {
    static let columns = "id, userID, name, tokenHash, accessLevel, albumIDs, createdAt, expiresAt, lastUsedAt, lastAddress"

    init(_ row: SQLRow) {
        let albums: String = row[5]
        self.init(
            id: row[0], userID: row[1], name: row[2], tokenHash: row[3], accessLevel: AccessLevel(rawValue: row[4]) ?? .read,
            albumIDs: (try? JSONDecoder().decode([String].self, from: Data(albums.utf8))) ?? [], createdAt: row[6], expiresAt: row[7],
            lastUsedAt: row[8], lastAddress: row[9])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        let albums = String(decoding: (try? JSONEncoder().encode(albumIDs)) ?? Data("[]".utf8), as: UTF8.self)
        return [
            id, userID, name, tokenHash, accessLevel.rawValue, albums, dialect.date(createdAt), expiresAt.map(dialect.date) ?? .null,
            lastUsedAt.map(dialect.date) ?? .null, lastAddress.map { SQLValue.text($0) } ?? .null,
        ]
    }
}

extension ShareLinkRecord {
    static let columns = "id, userID, token, assetID, albumID, includeMetadata, createdAt, expiresAt, allowDownload"

    init(_ row: SQLRow) {
        self.init(
            id: row[0], userID: row[1], token: row[2], assetID: row[3], albumID: row[4], includeMetadata: row[5], allowDownload: row[8],
            createdAt: row[6], expiresAt: row[7])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        [id, userID, token, assetID, albumID, includeMetadata, dialect.date(createdAt), expiresAt.map(dialect.date) ?? .null, allowDownload]
    }
}

/// A selection of photos and videos to download as one ZIP file, for a short while, by its owner's credentials:
/// what `POST /api/v1/downloads` makes and `GET /api/v1/downloads/{id}` answers.
struct DownloadRecord: Codable, Sendable, Hashable {
    /// A random secret: the link names it, but only the account's own credentials open it.
    var id: String
    var userID: String
    /// The items, in the order asked for.
    var assetIDs: [String]
    /// `original` or `current`.
    var version: String
    var createdAt: Date
    var expiresAt: Date

    func isExpired(at now: Date = Date()) -> Bool { expiresAt <= now }
}

extension DownloadRecord {
    static let columns = "id, userID, assetIDs, version, createdAt, expiresAt"

    init(_ row: SQLRow) {
        let ids: String = row[2]
        self.init(
            id: row[0], userID: row[1], assetIDs: (try? JSONDecoder().decode([String].self, from: Data(ids.utf8))) ?? [], version: row[3],
            createdAt: row[4], expiresAt: row[5])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        let ids = String(decoding: (try? JSONEncoder().encode(assetIDs)) ?? Data("[]".utf8), as: UTF8.self)
        return [id, userID, ids, version, dialect.date(createdAt), dialect.date(expiresAt)]
    }
}

extension SetupTokenRecord {
    static let columns = "tokenHash, kind, createdBy, createdAt, expiresAt, usedAt"

    init(_ row: SQLRow) {
        self.init(
            tokenHash: row[0], kind: Kind(rawValue: row[1]) ?? .invitation, createdBy: row[2], createdAt: row[3], expiresAt: row[4],
            usedAt: row[5])
    }

    func values(_ dialect: SQLDialect) -> [any SQLBindable] {
        [tokenHash, kind.rawValue, createdBy, dialect.date(createdAt), dialect.date(expiresAt), usedAt.map(dialect.date) ?? .null]
    }
}

extension SQLSession {
    /// Inserts a row of `table` from `columns` and `values` (in the same order).
    func insert(into table: String, columns: String, _ values: [any SQLBindable]) throws {
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try execute("INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))", values)
    }
}
