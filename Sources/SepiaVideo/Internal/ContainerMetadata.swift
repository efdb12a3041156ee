import Foundation
import SepiaCodecs

/// Reads the metadata a camera writes into a container's tags, as FFmpeg's demuxers report them: QuickTime's
/// `mdta` keys (`com.apple.quicktime.*`) and user data atoms (`©xyz`, `©mak`, `©mod`), the container's creation
/// time, Android's keys.
enum ContainerMetadata {
    /// The metadata from `tags` (the container's, then the video stream's, first value of a key winning);
    /// problems go to `warnings`.
    static func read(_ tags: [(String, String)], warnings: inout [String]) -> VideoMetadata {
        var values: [String: String] = [:]
        for (key, value) in tags where values[key.lowercased()] == nil {
            values[key.lowercased()] = value.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        }
        func first(_ keys: String...) -> String? {
            for key in keys {
                if let value = values[key], !value.isEmpty { return value }
            }
            return nil
        }
        var m = VideoMetadata()
        if let text = first("com.apple.quicktime.creationdate") {
            if let date = CaptureDate.iso8601(text, origin: .quickTime) {
                m.captureDate = date
            } else {
                warnings.append("the creation date '\(text)' cannot be read")
            }
        }
        if m.captureDate == nil, let text = first("creation_time", "date") {
            // FFmpeg writes the container's UTC time as ISO 8601 with a Z; AVI's ICRD is a bare date.
            if let date = CaptureDate.iso8601(text, origin: .containerCreation), !isEpochPlaceholder(date) {
                m.captureDate = date
            }
        }
        m.cameraMake = first("com.apple.quicktime.make", "make", "com.android.manufacturer")
        m.cameraModel = first("com.apple.quicktime.model", "model", "com.android.model")
        m.software = first("com.apple.quicktime.software", "software", "com.android.version", "encoder")
        if let text = first("com.apple.quicktime.location.iso6709", "location", "location-eng") {
            if let location = parseISO6709(text) {
                m.location = location
            } else {
                warnings.append("the location '\(text)' is not ISO 6709")
            }
        }
        m.contentIdentifier = first("com.apple.quicktime.content.identifier")
        return m
    }

    /// QuickTime's and MP4's creation times count from 1904; a zero field reads as 1904-01-01 or, rebased, as
    /// 1970-01-01: neither is a capture date.
    static func isEpochPlaceholder(_ date: CaptureDate) -> Bool {
        (date.year == 1904 || date.year == 1970) && date.month == 1 && date.day == 1 && date.hour == 0 && date.minute == 0
    }

    /// Parses an ISO 6709 point: `+37.3349-122.0090+012.345/`, with latitude and longitude in decimal degrees
    /// (±DD.D, ±DDDMM.M and ±DDDMMSS.S forms), an optional altitude in metres and an optional CRS suffix.
    static func parseISO6709(_ text: String) -> GPSLocation? {
        var fields: [(sign: Double, digits: String)] = []
        var current: (sign: Double, digits: String)?
        for character in text {
            if character == "+" || character == "-" {
                if let c = current { fields.append(c) }
                current = (character == "-" ? -1 : 1, "")
            } else if character.isASCII && (character.isNumber || character == ".") {
                guard current != nil else { return nil }
                current?.digits.append(character)
            } else {
                break  // "/" ends the point; "CRS…" follows it
            }
        }
        if let c = current { fields.append(c) }
        guard fields.count >= 2 else { return nil }
        guard let latitude = angle(fields[0].digits, degreeDigits: 2), let longitude = angle(fields[1].digits, degreeDigits: 3) else { return nil }
        let altitude = fields.count >= 3 ? Double(fields[2].digits).map { $0 * fields[2].sign } : nil
        return GPSLocation(latitude: latitude * fields[0].sign, longitude: longitude * fields[1].sign, altitude: altitude)
    }

    /// An angle written as degrees (`DD.D`), degrees and minutes (`DDMM.M`) or degrees, minutes and seconds
    /// (`DDMMSS.S`), told apart by the number of digits before the point.
    private static func angle(_ digits: String, degreeDigits: Int) -> Double? {
        let integer = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !digits.isEmpty, let value = Double(digits) else { return nil }
        switch integer.count {
        case degreeDigits:
            return value
        case degreeDigits + 2:
            let degrees = (value / 100).rounded(.towardZero)
            let minutes = value - degrees * 100
            guard minutes < 60 else { return nil }
            return degrees + minutes / 60
        case degreeDigits + 4:
            let degrees = (value / 10_000).rounded(.towardZero)
            let minutes = ((value - degrees * 10_000) / 100).rounded(.towardZero)
            let seconds = value - degrees * 10_000 - minutes * 100
            guard minutes < 60, seconds < 60 else { return nil }
            return degrees + minutes / 60 + seconds / 3600
        default:
            return nil
        }
    }
}
