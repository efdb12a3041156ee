/// Why a filter could not be made or applied from data (an edit recipe, the command line, an HTTP request).
public enum FilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No filter has this name.
    case unknownFilter(name: String)
    /// The filter has no parameter with this key.
    case unknownParameter(filter: String, key: String, known: [String])
    /// The value is not of the parameter's kind.
    case wrongType(filter: String, key: String, expected: String, value: String)
    /// The value is NaN or infinite.
    case notFinite(filter: String, key: String)
    /// The value lies outside the parameter's valid range.
    case parameterOutOfRange(filter: String, key: String, value: Double, minimum: Double?, maximum: Double?)
    /// A recipe's format is not one this version understands.
    case unsupportedRecipe(formatIdentifier: String, formatVersion: String)
    /// A recipe could not be read.
    case invalidRecipe(reason: String)

    /// A sentence naming the filter, the parameter and what to do.
    public var description: String {
        switch self {
        case .unknownFilter(let name):
            return "unknown filter '\(name)'; `sepia filters` lists the available ones"
        case .unknownParameter(let filter, let key, let known):
            let list = known.isEmpty ? "it takes no parameters" : "its parameters are " + known.joined(separator: ", ")
            return "\(filter) has no parameter '\(key)': \(list)"
        case .wrongType(let filter, let key, let expected, let value):
            return "\(filter).\(key) must be \(expected), not \(value)"
        case .notFinite(let filter, let key):
            return "\(filter).\(key) must be a finite number"
        case .parameterOutOfRange(let filter, let key, let value, let minimum, let maximum):
            let range: String
            switch (minimum, maximum) {
            case let (lo?, hi?): range = "between \(Self.format(lo)) and \(Self.format(hi))"
            case let (lo?, nil): range = "at least \(Self.format(lo))"
            case let (nil, hi?): range = "at most \(Self.format(hi))"
            default: range = "valid"
            }
            return "\(filter).\(key) is \(Self.format(value)) but must be \(range)"
        case .unsupportedRecipe(let identifier, let version):
            return "the edit recipe has format '\(identifier)' version \(version), which this version of Sepia cannot read"
        case .invalidRecipe(let reason):
            return "the edit recipe is invalid: \(reason)"
        }
    }

    private static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
