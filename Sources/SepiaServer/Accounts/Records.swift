import Foundation
import GRDB

/// An account. The owner's library is the server's `--library`; other users' libraries live in the data
/// folder.
struct UserRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: String
    var username: String
    var passwordHash: String
    var isOwner: Bool
    /// The library folder, relative to the data folder; empty for the owner (the configured library).
    var libraryPath: String
    var createdAt: Date
}

/// A login session: the cookie's secret is stored as its SHA-256 only.
struct SessionRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "session"
    var tokenHash: String
    var userID: String
    /// Sent back in `X-CSRF-Token` with every state-changing request made with the cookie.
    var csrfToken: String
    var createdAt: Date
    var expiresAt: Date
    var lastSeenAt: Date
}

/// An API token: its secret is stored as its SHA-256 only and shown once.
struct APITokenRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "apiToken"
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

    func isExpired(at now: Date = Date()) -> Bool { expiresAt.map { $0 <= now } ?? false }
}

/// A read-only link to one photo or one album. Its token is kept as is, so the owner can copy the link again;
/// revoking deletes it.
struct ShareLinkRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "shareLink"
    var id: String
    var userID: String
    var token: String
    var assetID: String?
    var albumID: String?
    /// Whether the share shows the date, camera and place.
    var includeMetadata: Bool
    var createdAt: Date
    var expiresAt: Date?

    func isExpired(at now: Date = Date()) -> Bool { expiresAt.map { $0 <= now } ?? false }
}

/// A one-time link that creates an account: the owner's (printed at first start) or an invited user's.
struct SetupTokenRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setupToken"
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
