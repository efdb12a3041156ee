/// What a route requires of the caller's credential. Every route of the API is registered under exactly
/// one permission.
enum Permission: String, Sendable, Hashable, CaseIterable {
    /// No credential: health, setup, login, share links, the web app's files.
    case anyone
    /// Any valid credential, whatever its access level: who am I.
    case authenticated
    /// Reading the library: sessions, `read` and `read-write` tokens.
    case read
    /// Uploading: sessions, `add-only` and `read-write` tokens.
    case upload
    /// Changing the library: sessions and `read-write` tokens.
    case write
    /// The account itself (password, tokens, share links): a session only.
    case account
    /// Managing users: the owner's session only.
    case owner
}
