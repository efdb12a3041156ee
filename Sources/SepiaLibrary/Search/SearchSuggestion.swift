/// A place a word typed so far may mean: a city or a country with photos.
public struct PlaceSuggestion: Sendable, Hashable, Codable {
    /// The city's or the country's name.
    public var name: String
    /// The country's name (the same as `name` for a country).
    public var country: String
    /// The city's GeoNames identifier; nil for a country.
    public var placeID: Int?
    /// The country's ISO code.
    public var countryCode: String
    /// The visible photos and videos there.
    public var assetCount: Int
}

/// What the search box offers while a person types: places, keywords, albums and people whose names have a
/// word starting with the last word typed.
public struct SearchSuggestions: Sendable, Hashable, Codable {
    /// The word the suggestions are for (folded).
    public var word: String
    /// Countries, then cities, most photos first.
    public var places: [PlaceSuggestion] = []
    /// Keywords (their last level), most used first.
    public var keywords: [String] = []
    /// Albums, by identifier and title.
    public var albums: [AlbumSuggestion] = []
    /// Named people, by identifier and name.
    public var people: [PersonSuggestion] = []

    /// An album a word may mean.
    public struct AlbumSuggestion: Sendable, Hashable, Codable {
        /// The album's identifier.
        public var id: String
        /// Its title.
        public var title: String
    }

    /// A person a word may mean.
    public struct PersonSuggestion: Sendable, Hashable, Codable {
        /// The person's identifier.
        public var id: String
        /// Their name.
        public var name: String
    }
}
