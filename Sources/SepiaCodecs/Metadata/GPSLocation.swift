import Foundation

/// A position on Earth in decimal degrees (WGS 84), with altitude in metres when known.
public struct GPSLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double
    /// Metres above sea level.
    public var altitude: Double?

    /// Creates a location; nil when the coordinates are out of range or not finite.
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }

    /// `47.62717,-122.33733`.
    public var description: String {
        String(format: "%.5f,%.5f", latitude, longitude)
    }
}
