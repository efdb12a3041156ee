import Foundation
import Synchronization

/// Names the place at a position, offline: the nearest GeoNames city, with its region and country.
///
/// ```swift
/// let geocoder = try ReverseGeocoder.shared()
/// geocoder.place(latitude: 38.7139, longitude: -9.1394)?.displayName  // "Lisbon, Lisbon, Portugal"
/// ```
///
/// The tables are read once, from ``systemDirectory`` (Debian's `libtimezonemap-data`) unless
/// `SEPIA_GEONAMES` or the caller names another folder, into a k-d tree of about 24 000 cities (200 000 with
/// GeoNames' `cities500.txt`). A lookup takes about a microsecond and is safe from any thread. Positions farther
/// than ``maximumDistance`` from every city have no place: a photo in mid-ocean or deep in a wilderness is
/// better without a name than with one 300 km away.
public final class ReverseGeocoder: Sendable {
    /// Where Debian's `libtimezonemap-data` installs GeoNames' tables.
    public static let systemDirectory = "/usr/share/libtimezonemap/ui"
    /// The environment variable that names another folder of GeoNames tables.
    public static let environmentVariable = "SEPIA_GEONAMES"
    /// How far from a position its nearest city may be and still name it, in metres (100 km).
    public static let defaultMaximumDistance = 100_000.0

    /// The folder the tables were read from.
    public let directory: String
    /// The cities table that was read.
    public let citiesPath: String
    /// How many cities the tree holds.
    public var cityCount: Int { places.count }
    /// How far, in metres, the nearest city may be.
    public let maximumDistance: Double

    private let places: [Place]
    private let placesByID: [Int: Place]
    private let tree: SphereTree

    /// Reads the GeoNames tables in `directory` (by default the environment's or the system's folder).
    public init(directory: String? = nil, maximumDistance: Double = ReverseGeocoder.defaultMaximumDistance) throws(PlacesError) {
        let directory = directory ?? Self.defaultDirectory
        let tables = try GeoNamesTables.load(from: directory)
        places = tables.cities.map { city in
            Place(
                id: city.id, city: city.name, region: tables.regions["\(city.countryCode).\(city.regionCode)"],
                country: tables.countries[city.countryCode] ?? city.countryCode, countryCode: city.countryCode,
                latitude: city.latitude, longitude: city.longitude)
        }
        placesByID = Dictionary(places.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        tree = SphereTree(tables.cities.map { SphereTree.Point(latitude: $0.latitude, longitude: $0.longitude) })
        self.directory = directory
        self.citiesPath = tables.citiesPath
        self.maximumDistance = maximumDistance
    }

    /// `SEPIA_GEONAMES` when set, else ``systemDirectory``.
    public static var defaultDirectory: String {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? systemDirectory
    }

    /// The place at a position, or nil when the position is not a valid one or no city is within
    /// ``maximumDistance``.
    public func place(latitude: Double, longitude: Double) -> Place? {
        guard let (place, metres) = nearestCity(latitude: latitude, longitude: longitude), metres <= maximumDistance else { return nil }
        return place
    }

    /// The city nearest a position, however far, with its distance in metres; nil for an invalid position.
    public func nearestCity(latitude: Double, longitude: Double) -> (place: Place, metres: Double)? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        guard let (index, metres) = tree.nearest(to: SphereTree.Point(latitude: latitude, longitude: longitude)) else { return nil }
        return (places[index], metres)
    }

    /// The place with a GeoNames identifier, if the tables hold it.
    public func place(id: Int) -> Place? {
        placesByID[id]
    }

    // MARK: - One per folder

    private static let loaded = Mutex<[String: ReverseGeocoder]>([:])

    /// The geocoder for `directory` (by default ``defaultDirectory``), read on first use and kept for the
    /// process: every library and request shares it.
    public static func shared(directory: String? = nil) throws(PlacesError) -> ReverseGeocoder {
        let directory = directory ?? defaultDirectory
        if let geocoder = loaded.withLock({ $0[directory] }) { return geocoder }
        let geocoder = try ReverseGeocoder(directory: directory)
        return loaded.withLock { loaded in
            if let other = loaded[directory] { return other }
            loaded[directory] = geocoder
            return geocoder
        }
    }
}
