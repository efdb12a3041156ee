/// A parameter value as it appears in data: a number, a vector (also colours, points, rectangles and
/// transforms), a flag or a string. Encodes as the plain JSON value.
public enum FilterValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A scalar.
    case number(Double)
    /// A list of numbers.
    case vector([Double])
    /// A flag.
    case bool(Bool)
    /// Text.
    case string(String)

    /// Decodes whichever JSON value is present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let v = try? container.decode([Double].self) {
            self = .vector(v)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the plain JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .vector(let v): try container.encode(v)
        case .bool(let b): try container.encode(b)
        case .string(let s): try container.encode(s)
        }
    }

    /// The scalar, if this is one.
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The numbers of a vector (a scalar counts as a vector of one).
    public var numbers: [Double]? {
        switch self {
        case .vector(let v): return v
        case .number(let n): return [n]
        default: return nil
        }
    }

    /// The value as written on a command line: `0.5`, `[0.6 0.45 0.3 1]`, `true`.
    public var description: String {
        func format(_ d: Double) -> String {
            d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        }
        switch self {
        case .number(let n): return format(n)
        case .vector(let v): return "[" + v.map(format).joined(separator: " ") + "]"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        }
    }
}
