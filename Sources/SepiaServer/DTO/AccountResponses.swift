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

    init(_ token: APITokenRecord) {
        id = token.id
        name = token.name
        accessLevel = token.accessLevel
        albumIDs = token.albumIDs
        createdAt = token.createdAt
        expiresAt = token.expiresAt
        lastUsedAt = token.lastUsedAt
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
    }

    enum CodingKeys: String, CodingKey {
        case id, name, accessLevel, albumIDs, createdAt, expiresAt, lastUsedAt
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
