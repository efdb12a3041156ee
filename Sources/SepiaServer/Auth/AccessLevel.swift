/// What an API token may do with its owner's library (PhotoKit's `PHAccessLevel`, plus read-only).
public enum AccessLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// List, view, download, preview and watch changes; change nothing.
    case read
    /// Upload only (PhotoKit's `.addOnly`): nothing can be listed or read, not even what it uploaded.
    case addOnly = "add-only"
    /// Everything on the library (PhotoKit's `.readWrite`).
    case readWrite = "read-write"
}
