import Foundation
import Hummingbird

/// An account, as the API shows it.
struct UserResponse: ResponseEncodable {
    var id: String
    var username: String
    var isOwner: Bool
    var createdAt: Date
    /// Whether the account signs in with a second factor: in the owner's list of users only.
    var twoFactorEnabled: Bool?

    init(_ user: UserRecord, twoFactorEnabled: Bool? = nil) {
        id = user.id
        username = user.username
        isOwner = user.isOwner
        createdAt = user.createdAt
        self.twoFactorEnabled = twoFactorEnabled
    }
}

/// The answer to login and setup, and to `GET /session`.
struct SessionResponse: ResponseEncodable {
    struct Credential: Encodable {
        var kind: String
        var accessLevel: AccessLevel
        var albumIDs: [String]?
    }

    var user: UserResponse
    var csrfToken: String?
    var credential: Credential
}

/// An API token, without its secret (which is shown once, in ``CreatedTokenResponse``).
struct TokenResponse: ResponseEncodable {
    var id: String
    var name: String
    var accessLevel: AccessLevel
    var albumIDs: [String]
    var createdAt: Date
    var expiresAt: Date?
    var lastUsedAt: Date?
    /// The address the token was last used from, and where that is in words (``NetworkPlace``).
    var lastAddress: String?
    var lastPlace: String?

    init(_ token: APITokenRecord) {
        id = token.id
        name = token.name
        accessLevel = token.accessLevel
        albumIDs = token.albumIDs
        createdAt = token.createdAt
        expiresAt = token.expiresAt
        lastUsedAt = token.lastUsedAt
        lastAddress = token.lastAddress.flatMap { $0.isEmpty ? nil : $0 }
        lastPlace = lastAddress.map(NetworkPlace.of)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(accessLevel, forKey: .accessLevel)
        try c.encode(albumIDs, forKey: .albumIDs)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
        try c.encode(lastAddress, forKey: .lastAddress)
        try c.encode(lastPlace, forKey: .lastPlace)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, accessLevel, albumIDs, createdAt, expiresAt, lastUsedAt, lastAddress, lastPlace
    }
}

/// A signed-in browser in the list of one's sessions.
struct SignedInSessionResponse: Encodable {
    var id: String
    /// What the browser said it was, in words ("Firefox on Linux"), and what it said exactly.
    var device: String
    var userAgent: String
    /// The address it was last used from ("" when not known yet), and where that is in words (``NetworkPlace``).
    var address: String
    var place: String
    var createdAt: Date
    var lastUsedAt: Date
    var expiresAt: Date
    /// Whether this is the session the request was made with.
    var current: Bool

    init(_ session: SessionRecord, current: Bool) {
        id = session.publicID
        device = DeviceDescription.of(userAgent: session.userAgent)
        userAgent = session.userAgent
        address = session.address
        place = NetworkPlace.of(session.address)
        createdAt = session.createdAt
        lastUsedAt = session.lastSeenAt
        expiresAt = session.expiresAt
        self.current = current
    }
}

/// A new API token with its secret.
struct CreatedTokenResponse: ResponseEncodable {
    var token: String
    var details: TokenResponse

    func encode(to encoder: any Encoder) throws {
        try details.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(token, forKey: .token)
    }

    private enum Key: String, CodingKey { case token }
}

/// A share link.
struct ShareResponse: ResponseEncodable {
    var id: String
    var kind: String
    var title: String
    var assetID: String?
    var albumID: String?
    var url: String
    var includeMetadata: Bool
    var allowDownload: Bool
    var createdAt: Date
    var expiresAt: Date?

    init(_ share: ShareLinkRecord, baseURL: String, title: String) {
        id = share.id
        kind = share.assetID != nil ? "asset" : "album"
        self.title = title
        assetID = share.assetID
        albumID = share.albumID
        url = baseURL + "/s/" + share.token
        includeMetadata = share.includeMetadata
        allowDownload = share.allowDownload
        createdAt = share.createdAt
        expiresAt = share.expiresAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(title, forKey: .title)
        try c.encode(assetID, forKey: .assetID)
        try c.encode(albumID, forKey: .albumID)
        try c.encode(url, forKey: .url)
        try c.encode(includeMetadata, forKey: .includeMetadata)
        try c.encode(allowDownload, forKey: .allowDownload)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(expiresAt, forKey: .expiresAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, title, assetID, albumID, url, includeMetadata, allowDownload, createdAt, expiresAt
    }
}
