public import Foundation

/// A saved edit: the filters applied to a photo, in order, as data. Sepia's `PHAdjustmentData`: a format
/// identifier, a format version and the steps.
///
/// Filters are named by their Core Image names and parameters by their Core Image keys, so a recipe reads like
/// Core Image code:
/// ```json
/// {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1",
///  "steps": [{"filter": "CISepiaTone", "parameters": {"inputIntensity": 0.8}},
///            {"filter": "CIVignette", "parameters": {"inputIntensity": 0.5, "inputRadius": 1.2}}]}
/// ```
/// Decoding validates every step against the filter's descriptor: an unknown filter or parameter, a wrong type
/// or an out-of-range value is an error, never silently changed. A recipe of another format or a later version
/// is refused (``canHandle(formatIdentifier:formatVersion:)``), as PhotoKit's `canHandleAdjustmentData` does.
public struct EditRecipe: Codable, Hashable, Sendable {
    /// This format's identifier.
    public static let currentFormatIdentifier = "org.sepia.recipe"
    /// This format's version. Bumped on any change of meaning; filters' maths never change in place.
    public static let currentFormatVersion = "1"

    /// One filter invocation.
    public struct Step: Codable, Hashable, Sendable {
        /// The Core Image name (`CISepiaTone`); Sepia's name is accepted too.
        public var filter: String
        /// Parameter values by Core Image key (`inputIntensity`); short keys are accepted too. Missing
        /// parameters take their defaults.
        public var parameters: [String: FilterValue]

        /// Creates a step.
        public init(filter: String, parameters: [String: FilterValue] = [:]) {
            self.filter = filter
            self.parameters = parameters
        }

        /// Decodes a step; `parameters` may be left out when every parameter keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            filter = try container.decode(String.self, forKey: .filter)
            parameters = try container.decodeIfPresent([String: FilterValue].self, forKey: .parameters) ?? [:]
        }

        private enum CodingKeys: String, CodingKey {
            case filter, parameters
        }
    }

    /// The format identifier of this recipe.
    public var formatIdentifier: String
    /// The format version of this recipe.
    public var formatVersion: String
    /// The filters, applied first to last.
    public var steps: [Step]

    /// Creates a recipe of the current format.
    public init(steps: [Step]) {
        formatIdentifier = Self.currentFormatIdentifier
        formatVersion = Self.currentFormatVersion
        self.steps = steps
    }

    /// Creates a recipe from filter values (every parameter is written, by Core Image key).
    public init(filters: [any Filter]) {
        self.init(
            steps: filters.map { filter in
                let descriptor = type(of: filter).descriptor
                var parameters: [String: FilterValue] = [:]
                for (key, value) in FilterRegistry.parameters(of: filter) {
                    parameters[descriptor.parameter(forKey: key)?.coreImageKey ?? key] = value
                }
                return Step(filter: descriptor.coreImageName, parameters: parameters)
            })
    }

    /// Whether this version of Sepia can read recipes of this format and version.
    public static func canHandle(formatIdentifier: String, formatVersion: String) -> Bool {
        formatIdentifier == currentFormatIdentifier && formatVersion == currentFormatVersion
    }

    /// Decodes and validates a recipe.
    public static func decode(_ data: Data) throws(FilterError) -> EditRecipe {
        let recipe: EditRecipe
        do {
            recipe = try JSONDecoder().decode(EditRecipe.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidRecipe(reason: "the field '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalidRecipe(reason: "a value has the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw .invalidRecipe(reason: "it is not valid JSON")
        }
        guard canHandle(formatIdentifier: recipe.formatIdentifier, formatVersion: recipe.formatVersion) else {
            throw .unsupportedRecipe(formatIdentifier: recipe.formatIdentifier, formatVersion: recipe.formatVersion)
        }
        _ = try recipe.makeFilters()
        return recipe
    }

    /// The recipe as JSON (keys sorted, so equal recipes are equal bytes).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The filters, each validated against its descriptor. A RAW development (``RAWDevelopmentStep``, allowed
    /// only as the first step) is validated too, but makes no filter: it is honoured when the photo is decoded.
    public func makeFilters() throws(FilterError) -> [any Filter] {
        var filters: [any Filter] = []
        for (index, step) in steps.enumerated() {
            if Self.isRAWDevelopment(step) {
                guard index == 0 else {
                    throw .invalidRecipe(
                        reason: "CIRAWFilter develops the RAW file, so it can only be the recipe's first step (it is step \(index + 1))")
                }
                _ = try RAWDevelopmentStep(parameters: step.parameters)
                continue
            }
            filters.append(try FilterRegistry.makeFilter(named: step.filter, parameters: step.parameters))
        }
        return filters
    }

    /// `image` with every step applied.
    public func apply(to image: Image) throws(FilterError) -> Image {
        image.applying(try makeFilters())
    }
}
