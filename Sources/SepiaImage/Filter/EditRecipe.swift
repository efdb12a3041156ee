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
///
/// ## Versions
/// - **1**: filters and their parameters.
/// - **2**: a step may also have an `intensity` (0…1) that mixes its result with its input (``FilterAtIntensity``):
///   `{"filter": "CIPhotoEffectNoir", "intensity": 0.4}`.
///
/// A recipe is written with the oldest version that holds it, so a recipe that needs nothing of version 2 is
/// written, byte for byte, as version 1 always was, and an older Sepia still reads it. A version-1 recipe with
/// a version-2 field is refused rather than read with a meaning its writer did not give it.
public struct EditRecipe: Codable, Hashable, Sendable {
    /// This format's identifier.
    public static let currentFormatIdentifier = "org.sepia.recipe"
    /// This format's newest version. Bumped on any change of meaning; filters' maths never change in place.
    public static let currentFormatVersion = "2"
    /// Every version this Sepia reads, oldest first.
    public static let supportedFormatVersions = ["1", "2"]

    /// One filter invocation.
    public struct Step: Codable, Hashable, Sendable {
        /// The Core Image name (`CISepiaTone`); Sepia's name is accepted too.
        public var filter: String
        /// Parameter values by Core Image key (`inputIntensity`); short keys are accepted too. Missing
        /// parameters take their defaults.
        public var parameters: [String: FilterValue]
        /// How much of the filter's result to keep, 0…1, mixed with the step's input (version 2); nil is the
        /// whole filter. Geometry filters and a RAW development have none.
        public var intensity: Double?

        /// Creates a step.
        public init(filter: String, parameters: [String: FilterValue] = [:], intensity: Double? = nil) {
            self.filter = filter
            self.parameters = parameters
            self.intensity = intensity
        }

        /// Decodes a step; `parameters` may be left out when every parameter keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            filter = try container.decode(String.self, forKey: .filter)
            parameters = try container.decodeIfPresent([String: FilterValue].self, forKey: .parameters) ?? [:]
            intensity = try container.decodeIfPresent(Double.self, forKey: .intensity)
        }

        private enum CodingKeys: String, CodingKey {
            case filter, parameters, intensity
        }
    }

    /// The format identifier of this recipe.
    public var formatIdentifier: String
    /// The format version of this recipe.
    public var formatVersion: String
    /// The filters, applied first to last.
    public var steps: [Step]

    /// Creates a recipe of the current format, of the oldest version that holds `steps`.
    public init(steps: [Step]) {
        formatIdentifier = Self.currentFormatIdentifier
        formatVersion = Self.minimumFormatVersion(for: steps)
        self.steps = steps
    }

    /// The oldest format version that holds `steps`: "2" when a step has an intensity, else "1".
    public static func minimumFormatVersion(for steps: [Step]) -> String {
        steps.contains { $0.intensity != nil } ? "2" : "1"
    }

    private enum CodingKeys: String, CodingKey {
        case formatIdentifier, formatVersion, steps
    }

    /// Encodes the recipe; its version is raised to the oldest that holds its steps (a recipe read as version
    /// 1 and given an intensity is written as version 2).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatIdentifier, forKey: .formatIdentifier)
        let needed = Self.minimumFormatVersion(for: steps)
        let raise = formatIdentifier == Self.currentFormatIdentifier && Self.order(of: formatVersion) < Self.order(of: needed)
        try container.encode(raise ? needed : formatVersion, forKey: .formatVersion)
        try container.encode(steps, forKey: .steps)
    }

    /// A version's place in ``supportedFormatVersions``; an unknown version sorts after them all.
    private static func order(of version: String) -> Int {
        supportedFormatVersions.firstIndex(of: version) ?? supportedFormatVersions.count
    }

    /// Creates a recipe from filter values (every parameter is written, by Core Image key).
    public init(filters: [any Filter]) {
        self.init(
            steps: filters.map { filter in
                let adjusted = filter as? any IntensityAdjustedFilter
                let base = adjusted?.baseFilter ?? filter
                let descriptor = type(of: base).descriptor
                var parameters: [String: FilterValue] = [:]
                for (key, value) in FilterRegistry.parameters(of: base) {
                    parameters[descriptor.parameter(forKey: key)?.coreImageKey ?? key] = value
                }
                return Step(filter: descriptor.coreImageName, parameters: parameters, intensity: adjusted?.stepIntensity)
            })
    }

    /// Whether this version of Sepia can read recipes of this format and version.
    public static func canHandle(formatIdentifier: String, formatVersion: String) -> Bool {
        formatIdentifier == currentFormatIdentifier && supportedFormatVersions.contains(formatVersion)
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
    ///
    /// A step with an intensity becomes a ``FilterAtIntensity``. An intensity outside 0…1, on a geometry filter
    /// (a crop or a turn at 40 % means nothing) or on a RAW development is an error, and so is any intensity in a
    /// version-1 recipe.
    public func makeFilters() throws(FilterError) -> [any Filter] {
        var filters: [any Filter] = []
        for (index, step) in steps.enumerated() {
            if let intensity = step.intensity {
                try Self.validate(intensity: intensity, of: step, at: index, version: formatVersion)
            }
            if Self.isRAWDevelopment(step) {
                guard index == 0 else {
                    throw .invalidRecipe(
                        reason: "CIRAWFilter develops the RAW file, so it can only be the recipe's first step (it is step \(index + 1))")
                }
                _ = try RAWDevelopmentStep(parameters: step.parameters)
                continue
            }
            let filter = try FilterRegistry.makeFilter(named: step.filter, parameters: step.parameters)
            if let intensity = step.intensity {
                filters.append(Self.filter(filter, atIntensity: Float(intensity)))
            } else {
                filters.append(filter)
            }
        }
        return filters
    }

    private static func filter<F: Filter>(_ filter: F, atIntensity intensity: Float) -> any Filter {
        filter.atIntensity(intensity)
    }

    private static func validate(intensity: Double, of step: Step, at index: Int, version: String) throws(FilterError) {
        let name = step.filter
        guard version != "1" else {
            throw .invalidRecipe(
                reason: "step \(index + 1) (\(name)) has an intensity, which version-1 recipes do not have: write formatVersion \"2\"")
        }
        guard intensity.isFinite else { throw .notFinite(filter: name, key: "intensity") }
        guard (0...1).contains(intensity) else {
            throw .parameterOutOfRange(filter: name, key: "intensity", value: intensity, minimum: 0, maximum: 1)
        }
        if isRAWDevelopment(step) {
            throw .invalidRecipe(reason: "CIRAWFilter develops the RAW file and has no intensity; change its parameters instead")
        }
        if let type = FilterRegistry.type(named: name), type.descriptor.categories.contains(.geometryAdjustment) {
            throw .invalidRecipe(
                reason: "\(type.descriptor.coreImageName) changes the photo's geometry and has no intensity; change its parameters instead")
        }
    }

    /// `image` with every step applied.
    public func apply(to image: Image) throws(FilterError) -> Image {
        image.applying(try makeFilters())
    }
}
