public import Foundation

/// When a photo was taken, as the file records it: a calendar date and time, with the offset from UTC when
/// the file gives one.
public struct CaptureDate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the date came from, most trustworthy first.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// EXIF `DateTimeOriginal`.
        case exifOriginal
        /// EXIF `DateTimeDigitized`.
        case exifDigitized
        /// An XMP date (`exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`).
        case xmp
        /// IPTC `DateCreated`/`TimeCreated`.
        case iptc
        /// The GPS receiver's UTC time.
        case gps
        /// EXIF `DateTime` (last change).
        case exifModified
        /// A QuickTime movie's `com.apple.quicktime.creationdate`: local time with its offset from UTC.
        case quickTime
        /// A video container's creation time (`mvhd`, Matroska's `DateUTC`): UTC, often when the file was written.
        case containerCreation
    }

    /// Calendar year.
    public var year: Int
    /// Month, 1–12.
    public var month: Int
    /// Day, 1–31.
    public var day: Int
    /// Hour, 0–23.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int
    /// Second, 0–60.
    public var second: Int
    /// Fraction of the second, in nanoseconds.
    public var nanosecond: Int
    /// Seconds east of UTC, when known; nil means the camera's unknown local time.
    public var utcOffsetSeconds: Int?
    /// Where the date came from.
    public var origin: Origin

    /// Creates a date, validating the fields; nil when they do not form a plausible date.
    public init?(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0,
        utcOffsetSeconds: Int? = nil, origin: Origin
    ) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second), (0..<1_000_000_000).contains(nanosecond)
        else { return nil }
        if let offset = utcOffsetSeconds, abs(offset) > 18 * 3600 { return nil }
        guard day <= Self.daysInMonth(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        self.utcOffsetSeconds = utcOffsetSeconds
        self.origin = origin
    }

    /// The instant. A date without an offset is read as UTC, so that dates sort the same on every machine.
    public var date: Date {
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) - Double(utcOffsetSeconds ?? 0)
        return Date(timeIntervalSince1970: seconds + Double(nanosecond) / 1e9)
    }

    /// ISO 8601: `2012-09-29T16:11:25+02:00`, or without an offset when unknown.
    public var description: String {
        var s = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        if nanosecond > 0 {
            var fraction = String(format: "%09d", nanosecond)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            s += "." + fraction
        }
        if let offset = utcOffsetSeconds {
            if offset == 0 {
                s += "Z"
            } else {
                let sign = offset < 0 ? "-" : "+"
                s += String(format: "%@%02d:%02d", sign, abs(offset) / 3600, (abs(offset) % 3600) / 60)
            }
        }
        return s
    }

    // MARK: - Parsing

    /// Parses EXIF's `YYYY:MM:DD HH:MM:SS` (also with `-` separators or a `T`); all-zero dates mean "unknown".
    static func exif(_ text: String, subseconds: String? = nil, offset: String? = nil, origin: Origin) -> CaptureDate? {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        let parts = digits.split(whereSeparator: { ":- T".contains($0) }).map(String.init)
        guard parts.count >= 3, let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let h = parts.count > 3 ? Int(parts[3]) ?? -1 : 0
        let mi = parts.count > 4 ? Int(parts[4]) ?? -1 : 0
        let s = parts.count > 5 ? Int(parts[5].prefix(2)) ?? -1 : 0
        var ns = 0
        if let sub = subseconds?.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))),
            !sub.isEmpty, sub.allSatisfy(\.isNumber)
        {
            let padded = (sub + "000000000").prefix(9)
            ns = Int(padded) ?? 0
        }
        return CaptureDate(
            year: y, month: mo, day: d, hour: h, minute: mi, second: s, nanosecond: ns,
            utcOffsetSeconds: offset.flatMap(parseOffset), origin: origin)
    }

    /// Parses ISO 8601 / XMP dates: `2022-01-10T15:15:44-04:00`, `2023-11-15T12:30:00Z`, `2019-03-21`; and the
    /// EXIF form several tools write into XMP instead, `2002:12:12 20:03:26.000` (with or without the fraction and
    /// an offset), which exiftool and Exiv2 read too.
    package static func iso8601(_ text: String, origin: Origin) -> CaptureDate? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard t.count >= 10 else { return nil }
        let datePart = Array(t.prefix(10))
        guard let separator = [Character("-"), ":"].first(where: { $0 == datePart[4] }), datePart[7] == separator else { return nil }
        let fields = datePart.split(separator: separator).map { String($0) }
        guard fields.count == 3, let y = Int(fields[0]), let mo = Int(fields[1]), let d = Int(fields[2]) else { return nil }
        var rest = Substring(t.dropFirst(10))
        var h = 0, mi = 0, s = 0, ns = 0
        var offset: Int?
        if rest.first == "T" || rest.first == " " {
            rest = rest.dropFirst()
            var timePart = rest
            if let zoneStart = rest.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
                timePart = rest[..<zoneStart]
                offset = parseOffset(String(rest[zoneStart...]))
            }
            let hms = timePart.split(separator: ":").map(String.init)
            guard hms.count >= 2, let hh = Int(hms[0]), let mm = Int(hms[1]) else { return nil }
            h = hh
            mi = mm
            if hms.count > 2 {
                let secParts = hms[2].split(separator: ".").map(String.init)
                s = Int(secParts[0]) ?? 0
                if secParts.count > 1 { ns = Int((secParts[1] + "000000000").prefix(9)) ?? 0 }
            }
        }
        return CaptureDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s, nanosecond: ns, utcOffsetSeconds: offset, origin: origin)
    }

    /// Parses `+02:00`, `-0400`, `Z`.
    static func parseOffset(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        if t == "Z" { return 0 }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter(\.isNumber)
        guard digits.count == 4 || digits.count == 2, let hh = Int(digits.prefix(2)) else { return nil }
        let mm = digits.count == 4 ? Int(digits.suffix(2)) ?? 0 : 0
        guard hh <= 18, mm < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, no time_t limits)

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
