public import SepiaPlaces

/// A city of the Places album: its place, how many photos and videos were taken there, and the newest of them.
public struct PlaceSummary: Sendable, Hashable, Codable {
    /// The city, with its region and country.
    public var place: Place
    /// The assets placed there.
    public var assetCount: Int
    /// The newest of them, to show for the city.
    public var keyAssetID: String
}

/// A country of the Places album, with its cities by number of assets.
public struct CountrySummary: Sendable, Hashable, Codable {
    /// The country's ISO 3166-1 alpha-2 code ("PT").
    public var countryCode: String
    /// Its name ("Portugal").
    public var country: String
    /// The assets placed in it.
    public var assetCount: Int
    /// The newest of them.
    public var keyAssetID: String
    /// Its cities, most assets first.
    public var cities: [PlaceSummary]
}

/// How far placing has come: located assets, those with a place, and those waiting.
public struct PlacesStatus: Sendable, Hashable, Codable {
    /// Assets with a location.
    public var locatedAssets: Int
    /// Located assets with a place.
    public var placedAssets: Int
    /// Assets whose place is not yet found for their location (new, edited, or waiting for the tables).
    public var waitingAssets: Int
    /// The GeoNames cities table places are found in, when it could be read.
    public var citiesTable: String?
    /// How many cities it holds.
    public var cityCount: Int
    /// Why the tables could not be read, when they could not.
    public var problem: String?
}
