import Foundation

/// Parsing and formatting of the XMP value forms SepiaXMP reads and writes.
enum XMPValues {
    /// An XMP Real: a decimal number, finite.
    static func real(_ text: String) -> Double? {
        let t = text.trimmingWhitespace()
        guard !t.isEmpty, t.count <= 40, t.allSatisfy({ "0123456789+-.eE".contains($0) }), let value = Double(t), value.isFinite else {
            return nil
        }
        return value
    }

    /// An EXIF rational as XMP writes it, `123/10`, or a decimal number.
    static func rational(_ text: String) -> Double? {
        let parts = text.trimmingWhitespace().split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1 { return real(String(parts[0])) }
        guard parts.count == 2, let numerator = real(String(parts[0])), let denominator = real(String(parts[1])), denominator != 0 else {
            return nil
        }
        let value = numerator / denominator
        return value.isFinite ? value : nil
    }

    /// `xmp:Rating`: -1, or 0 to 5 rounded to the nearest whole star.
    static func rating(_ text: String) -> XMPMetadata.Rating? {
        guard let value = real(text) else { return nil }
        if value == -1 { return .rejected }
        guard (0...5).contains(value) else { return nil }
        let stars = Int(value.rounded(.toNearestOrAwayFromZero))
        return stars == 0 ? .unrated : .stars(stars)
    }

    /// An XMP GPSCoordinate, `DDD,MM.mmk` or `DDD,MM,SSk` (k is N, S, E or W), as signed degrees; nil when it is
    /// malformed, has the wrong hemisphere letters for the axis, or is out of range.
    static func coordinate(_ text: String, latitude: Bool) -> Double? {
        var t = text.trimmingWhitespace().uppercased()
        guard let letter = t.last else { return nil }
        let positive: Character = latitude ? "N" : "E"
        let negative: Character = latitude ? "S" : "W"
        guard letter == positive || letter == negative else { return nil }
        t.removeLast()
        let parts = t.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        guard (1...3).contains(parts.count), let degrees = real(parts[0]), degrees >= 0 else { return nil }
        var value = degrees
        if parts.count >= 2 {
            guard degrees == degrees.rounded(), let minutes = real(parts[1]), (0..<60).contains(minutes) else { return nil }
            value += minutes / 60
            if parts.count == 3 {
                guard minutes == minutes.rounded(), let seconds = real(parts[2]), (0..<60).contains(seconds) else { return nil }
                value += seconds / 3600
            }
        }
        guard value <= (latitude ? 90 : 180) else { return nil }
        return letter == negative ? -value : value
    }

    /// `DDD,MM.mmmmmmk` with six decimals of minutes (about 2 mm).
    static func coordinateText(_ degrees: Double, latitude: Bool) -> String {
        let microMinutes = Int((abs(degrees) * 60 * 1_000_000).rounded())
        let whole = microMinutes / 60_000_000
        let rest = microMinutes % 60_000_000
        let letter = latitude ? (degrees < 0 ? "S" : "N") : (degrees < 0 ? "W" : "E")
        return String(format: "%d,%02d.%06d%@", whole, rest / 1_000_000, rest % 1_000_000, letter)
    }

    /// Metres as an EXIF rational with centimetre precision, `12345/100`.
    static func altitudeText(_ metres: Double) -> String {
        "\(Int((abs(metres) * 100).rounded()))/100"
    }

    /// A number as XMP writes reals: no exponent, at most six decimals, no trailing zeros.
    static func realText(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
