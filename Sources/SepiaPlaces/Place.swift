/// A named place: the city nearest a position, with its region and country, in English, from GeoNames.
///
/// Places are what ``ReverseGeocoder`` answers; a library keeps the place beside an asset's coordinates and
/// groups its Places album by ``countryCode`` and ``id``.
public struct Place: Sendable, Hashable, Codable {
    /// The city's GeoNames identifier: stable across GeoNames releases, so a stored place can be looked up again.
    public var id: Int
    /// The city's name, as GeoNames gives it ("Lisbon", "Munich").
    public var city: String
    /// The first-level division the city is in ("Lisbon", "Bavaria"), when GeoNames names one.
    public var region: String?
    /// The country's name ("Portugal").
    public var country: String
    /// The country's ISO 3166-1 alpha-2 code ("PT").
    public var countryCode: String
    /// The city's own latitude, in degrees.
    public var latitude: Double
    /// The city's own longitude, in degrees.
    public var longitude: Double

    /// A place with the given names.
    public init(id: Int, city: String, region: String?, country: String, countryCode: String, latitude: Double, longitude: Double) {
        self.id = id
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "City, Region, Country", leaving out a region that only repeats the city's name.
    public var displayName: String {
        var parts = [city]
        if let region, region != city { parts.append(region) }
        parts.append(country)
        return parts.joined(separator: ", ")
    }
}
