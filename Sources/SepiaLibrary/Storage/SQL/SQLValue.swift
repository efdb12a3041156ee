package import Foundation

/// A value bound to a statement or read from a row, in the types both databases share.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    /// A list, matched with ``SQLDialect/inList(_:)``: JSON text for SQLite, an array for PostgreSQL.
    case integers([Int64])
    /// A list of strings, matched with ``SQLDialect/inList(_:)``.
    case texts([String])
}

/// A Swift value that can be bound to a statement.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable {
    package var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    package var sqlValue: SQLValue { .real(self) }
}

extension String: SQLBindable {
    package var sqlValue: SQLValue { .text(self) }
}

extension Bool: SQLBindable {
    package var sqlValue: SQLValue { .bool(self) }
}

extension Data: SQLBindable {
    package var sqlValue: SQLValue { .blob(self) }
}

extension SQLValue: SQLBindable {
    package var sqlValue: SQLValue { self }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A Swift value that can be read from a column. Reading is lenient where the two databases store a type
/// differently (SQLite keeps booleans as integers and untyped settings as text or integers).
package protocol SQLReadable {
    static func read(_ value: SQLValue) -> Self
}

extension Int64: SQLReadable {
    package static func read(_ value: SQLValue) -> Int64 {
        switch value {
        case .integer(let n): n
        case .real(let d): Int64(d)
        case .bool(let b): b ? 1 : 0
        case .text(let s): Int64(s) ?? 0
        default: 0
        }
    }
}

extension Int: SQLReadable {
    package static func read(_ value: SQLValue) -> Int { Int(Int64.read(value)) }
}

extension Double: SQLReadable {
    package static func read(_ value: SQLValue) -> Double {
        switch value {
        case .real(let d): d
        case .integer(let n): Double(n)
        case .text(let s): Double(s) ?? 0
        default: 0
        }
    }
}

extension String: SQLReadable {
    package static func read(_ value: SQLValue) -> String {
        switch value {
        case .text(let s): s
        case .integer(let n): String(n)
        case .real(let d): String(d)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        default: ""
        }
    }
}

extension Bool: SQLReadable {
    package static func read(_ value: SQLValue) -> Bool {
        switch value {
        case .bool(let b): b
        case .integer(let n): n != 0
        default: false
        }
    }
}

extension Data: SQLReadable {
    package static func read(_ value: SQLValue) -> Data {
        switch value {
        case .blob(let data): data
        case .text(let s): Data(s.utf8)
        default: Data()
        }
    }
}

extension SQLValue: SQLReadable {
    package static func read(_ value: SQLValue) -> SQLValue { value }
}

extension Optional: SQLReadable where Wrapped: SQLReadable {
    package static func read(_ value: SQLValue) -> Wrapped? {
        if case .null = value { return nil }
        return Wrapped.read(value)
    }
}

extension Date: SQLReadable {
    /// Reads seconds since 1970 (PostgreSQL columns) or GRDB's text, `yyyy-MM-dd HH:mm:ss.SSS` in UTC (the
    /// server's SQLite database, written before dates went through ``SQLDialect/date(_:)``).
    package static func read(_ value: SQLValue) -> Date {
        switch value {
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case .text(let text): return parseDatabaseDate(text) ?? Date(timeIntervalSince1970: 0)
        default: return Date(timeIntervalSince1970: 0)
        }
    }

    static func parseDatabaseDate(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= digits.count else { return nil }
            var value = 0
            for byte in digits[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        let hour = number(11, 2) ?? 0
        let minute = number(14, 2) ?? 0
        let second = number(17, 2) ?? 0
        let milliseconds = number(20, 3) ?? 0
        // Days from civil (H. Hinnant).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(milliseconds) / 1000
        return Date(timeIntervalSince1970: seconds)
    }
}

extension SQLDialect {
    /// A date as each database keeps it: GRDB's UTC text for SQLite (so that rows written by GRDB's records
    /// compare and read the same), seconds since 1970 for PostgreSQL.
    package func date(_ date: Date) -> SQLValue {
        switch self {
        case .postgreSQL: return .real(date.timeIntervalSince1970)
        case .sqlite:
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
            let fraction = Int(milliseconds - seconds * 1000)
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let secondOfDay = Int(seconds - days * 86_400)
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let day = doy - (153 * mp + 2) / 5 + 1
            let month = mp < 10 ? mp + 3 : mp - 9
            let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
            func pad(_ n: Int, _ width: Int) -> String {
                let text = String(n)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return .text(
                "\(pad(Int(year), 4))-\(pad(Int(month), 2))-\(pad(Int(day), 2)) \(pad(secondOfDay / 3600, 2)):"
                    + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(fraction, 3))")
        }
    }
}
