public import Foundation

/// A capture date and time as people write it, in the place it was taken: ISO 8601's
/// `2024-05-01T14:30:00+02:00`, or without a zone (`2024-05-01 14:30`) when the zone is to be decided
/// elsewhere. What the command line and the HTTP API read for Adjust Date & Time.
public struct CaptureDateTime: Sendable, Hashable {
    /// The calendar date and clock time, as written.
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// A fraction of a second, 0 when none was written.
    public var fraction: Double = 0
    /// The offset from GMT in seconds that the text gave, if it gave one (`Z` is 0).
    public var secondsFromGMT: Int?

    /// Reads `YYYY-MM-DD[T| ]HH:MM[:SS]` with an optional zone (`Z`, `+HH:MM`, `+HHMM`, `+HH`).
    /// - Throws: ``LibraryError`` (``LibraryError/Code/invalidRequest``) saying what is wrong.
    public init(parsing text: String) throws(LibraryError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let pattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/
        guard let match = trimmed.wholeMatch(of: pattern) else {
            throw LibraryError(
                .invalidRequest,
                "\"\(trimmed.prefix(40))\" is not a date and time: write YYYY-MM-DDTHH:MM[:SS], optionally with a zone such as +02:00 or Z")
        }
        let (y, mo, d, h, mi) = (Int(match.1) ?? 0, Int(match.2) ?? 0, Int(match.3) ?? 0, Int(match.4) ?? 0, Int(match.5) ?? 0)
        let s = match.6.flatMap { Int($0) } ?? 0
        guard (1...12).contains(mo), (1...31).contains(d), (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s) else {
            throw LibraryError(.invalidRequest, "\"\(trimmed)\" has a month, day, hour, minute or second out of range")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let check = calendar.date(from: DateComponents(year: y, month: mo, day: d)),
            calendar.component(.day, from: check) == d
        else { throw LibraryError(.invalidRequest, "\"\(trimmed)\": month \(mo) of \(y) has no day \(d)") }
        (year, month, day, hour, minute, second) = (y, mo, d, h, mi, min(s, 59))
        fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        secondsFromGMT = try match.8.map { zone throws(LibraryError) in try Self.offset(parsing: String(zone)) ?? 0 }
    }

    /// The moment this local time is at `secondsFromGMT` from GMT (UTC when nil).
    public func date(secondsFromGMT offset: Int?) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let utc =
            calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
            ?? Date(timeIntervalSince1970: 0)
        return utc.addingTimeInterval(fraction - Double(offset ?? 0))
    }

    /// Reads a time zone as an offset from GMT: `+02:00`, `-0530`, `+09`, `Z`, `UTC`, `GMT`, or `unknown`
    /// (nil).
    /// - Throws: ``LibraryError`` when it is none of these, or more than 14 hours from GMT.
    public static func offset(parsing text: String) throws(LibraryError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "unknown", "none": return nil
        case "z", "utc", "gmt": return 0
        default: break
        }
        guard let match = trimmed.wholeMatch(of: /([+-])(\d{2})(?::?(\d{2}))?/) else {
            throw LibraryError(
                .invalidRequest, "\"\(trimmed.prefix(20))\" is not a time zone: write an offset from GMT such as +02:00 or -05:30, Z, or unknown")
        }
        let hours = Int(match.2) ?? 0
        let minutes = match.3.flatMap { Int($0) } ?? 0
        let offset = (match.1 == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        guard minutes < 60, abs(offset) <= MetadataValidation.maximumOffset else {
            throw LibraryError(.invalidRequest, "\"\(trimmed)\" is not a time zone: offsets go from -14:00 to +14:00")
        }
        return offset
    }

    /// `+02:00` for 7200; `Z` for 0 is not used, so that the zone reads the same everywhere.
    public static func offsetText(_ offset: Int) -> String {
        String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
    }

    /// `2024-05-01T14:30:00+02:00`: the date's local time at the offset, with it; without an offset, the UTC
    /// time and no zone.
    public static func text(_ date: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date.addingTimeInterval(Double(offset ?? 0)))
        let local = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        return local + (offset.map(offsetText) ?? "")
    }
}
