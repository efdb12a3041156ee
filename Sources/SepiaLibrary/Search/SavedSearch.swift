public import Foundation

/// A search kept as a smart album: its photos are whatever its query finds now (``PhotoLibrary/saveSearch(title:query:)``).
public struct SavedSearch: Sendable, Hashable, Codable, Identifiable {
    /// The stable identifier (a UUID string).
    public var id: String
    /// The album's title.
    public var title: String
    /// What the search box held: words, kinds and dates (``SearchQuery``).
    public var query: String
    /// When it was saved.
    public var creationDate: Date

    /// The most a library keeps.
    public static let maximumCount = 50
    /// The longest query, in characters, as the search box allows.
    public static let maximumQueryLength = 200
}
