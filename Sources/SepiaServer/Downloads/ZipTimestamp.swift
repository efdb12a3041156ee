import Foundation

/// When a file of a ZIP archive was last modified, in the two forms the archive records: the MS-DOS date and
/// time of every header (a wall-clock time without a zone, to two seconds, from 1980 to 2107), and the Unix
/// time of the extended-timestamp extra field (`UT`, 0x5455), which `unzip` and most extractors prefer.
///
/// An item's files carry its creation date: the DOS fields in the time of the place it was taken (its UTC
/// offset, when known; else UTC), as a camera's clock showed it, and the Unix time as the instant itself.
struct ZipTimestamp: Sendable, Hashable {
    /// Hours, minutes and seconds / 2, packed as MS-DOS packs them.
    var dosTime: UInt16
    /// Years since 1980, month and day, packed as MS-DOS packs them.
    var dosDate: UInt16
    /// Seconds since 1970 in UTC, when they fit the extra field's 32 bits; nil leaves the field out.
    var unixTime: Int32?

    /// The timestamp of `date`, whose wall-clock time is `secondsFromGMT` ahead of UTC (nil: UTC). Dates outside
    /// what DOS fields hold are clamped to 1980-01-01 00:00:00 and 2107-12-31 23:59:58.
    init(_ date: Date, secondsFromGMT: Int? = nil) {
        let instant = date.timeIntervalSince1970
        let seconds = instant.isFinite ? Int64(max(-1e15, min(1e15, instant)).rounded(.down)) : 0
        unixTime = Int32(exactly: seconds)
        let local = seconds + Int64(secondsFromGMT ?? 0)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        if year < 1980 {
            (dosDate, dosTime) = (0 << 9 | 1 << 5 | 1, 0)
        } else if year > 2107 {
            (dosDate, dosTime) = (127 << 9 | 12 << 5 | 31, 23 << 11 | 59 << 5 | 29)
        } else {
            dosDate = UInt16(year - 1980) << 9 | UInt16(month) << 5 | UInt16(day)
            let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
            dosTime = UInt16(hour) << 11 | UInt16(minute) << 5 | UInt16(second / 2)
        }
    }

    /// The proleptic Gregorian year, month (1–12) and day (1–31) of a count of days since 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`): the same answer as `Calendar`, without one per file of a large archive.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
