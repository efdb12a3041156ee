import SepiaLibrary

/// Who is calling, established by ``AuthenticationMiddleware`` from a session cookie or an API token, and the
/// library their credential opens.
struct Identity: Sendable {
    /// The credential presented.
    enum Credential: Sendable {
        /// A login session (cookie).
        case session(SessionRecord)
        /// An API token (bearer).
        case token(APITokenRecord)
    }

    /// The account.
    var user: UserRecord
    /// How the caller proved it.
    var credential: Credential
    /// The account's library.
    var library: UserLibrary

    /// Sessions may do everything on their own library; tokens what their level allows.
    var accessLevel: AccessLevel {
        switch credential {
        case .session: .readWrite
        case .token(let token): token.accessLevel
        }
    }

    /// The albums a limited token is confined to; nil when the whole library is visible.
    var albumLimit: [String]? {
        switch credential {
        case .session: nil
        case .token(let token): token.albumIDs.isEmpty ? nil : token.albumIDs
        }
    }

    /// Whether the credential is a login session.
    var isSession: Bool {
        if case .session = credential { return true }
        return false
    }

    /// The session, when the credential is one.
    var session: SessionRecord? {
        if case .session(let session) = credential { return session }
        return nil
    }

    /// Whether `permission` is granted.
    func allows(_ permission: Permission) -> Bool {
        switch permission {
        case .anyone, .authenticated: true
        case .read: accessLevel != .addOnly
        case .upload: accessLevel != .read
        case .write: accessLevel == .readWrite
        case .account: isSession
        case .owner: isSession && user.isOwner
        }
    }

    /// Why `permission` is refused, in words.
    func refusal(_ permission: Permission) -> String {
        switch permission {
        case .read where accessLevel == .addOnly:
            "this API token is add-only: it may upload photos but not list or read anything"
        case .upload, .write:
            "this API token is read-only: it may not change the library"
        case .account:
            "API tokens cannot manage accounts, tokens or share links; sign in to do this"
        case .owner where !isSession:
            "users are managed from the owner's signed-in session, not with an API token"
        case .owner:
            "only the owner of this server can manage users"
        default:
            "this credential may not do this"
        }
    }
}
