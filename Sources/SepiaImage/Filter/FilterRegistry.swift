import Foundation

/// Every filter Sepia knows, and the one string-keyed path into them: building a filter from a name and
/// parameter values (edit recipes, the command line, HTTP), with validation against its descriptor.
///
/// Adding a filter means adding its file under `Filters/` and one line to ``allTypes``.
/// `FilterConformanceTests` fails if a filter type is missing from the list.
public enum FilterRegistry {
    /// Every filter type.
    public static let allTypes: [any Filter.Type] = [
        // Colour adjustment
        ColorControls.self,
        ColorMatrix.self,
        ExposureAdjust.self,
        HighlightShadowAdjust.self,
        TemperatureAndTint.self,
        ToneCurve.self,
        Vibrance.self,
        // Colour effects
        ColorCube.self,
        ColorInvert.self,
        ColorMonochrome.self,
        ColorPosterize.self,
        PhotoEffectChrome.self,
        PhotoEffectFade.self,
        PhotoEffectInstant.self,
        PhotoEffectMono.self,
        PhotoEffectNoir.self,
        PhotoEffectProcess.self,
        PhotoEffectTonal.self,
        PhotoEffectTransfer.self,
        SepiaTone.self,
        // Blur and sharpen
        BoxBlur.self,
        GaussianBlur.self,
        NoiseReduction.self,
        SharpenLuminance.self,
        UnsharpMask.self,
        // Stylize
        Crystallize.self,
        Edges.self,
        FilmGrain.self,
        Pixellate.self,
        Vignette.self,
        VignetteEffect.self,
        // Geometry
        AffineTransform.self,
        Crop.self,
        LanczosScaleTransform.self,
        StraightenFilter.self,
    ]

    private static let byName: [String: any Filter.Type] = {
        var map: [String: any Filter.Type] = [:]
        for type in allTypes {
            map[type.descriptor.name] = type
            map[type.descriptor.coreImageName] = type
        }
        return map
    }()

    /// Every descriptor, in ``allTypes`` order.
    public static var descriptors: [FilterDescriptor] { allTypes.map { $0.descriptor } }

    /// The filter type called `name` (Sepia's or Core Image's name).
    public static func type(named name: String) -> (any Filter.Type)? {
        byName[name]
    }

    /// Builds a filter from parameter values keyed by Sepia or Core Image keys; missing parameters take their
    /// defaults. Values are validated, never adjusted: an unknown key, a value of the wrong kind, NaN or an
    /// out-of-range value is an error.
    public static func makeFilter(named name: String, parameters: [String: FilterValue] = [:]) throws(FilterError) -> any Filter {
        guard let type = type(named: name) else { throw .unknownFilter(name: name) }
        let descriptor = type.descriptor
        var values: [String: FilterValue] = [:]
        for parameter in descriptor.parameters {
            values[parameter.key] = parameter.defaultValue
        }
        for (key, value) in parameters {
            guard let parameter = descriptor.parameter(forKey: key) else {
                throw .unknownParameter(filter: descriptor.coreImageName, key: key, known: descriptor.parameters.map(\.key))
            }
            values[parameter.key] = try validate(value, for: parameter, in: descriptor, key: key)
        }
        return try decode(type, from: values)
    }

    /// The parameter values of `filter`, keyed by Sepia keys.
    public static func parameters(of filter: any Filter) -> [String: FilterValue] {
        guard let data = try? JSONEncoder().encode(filter),
            let values = try? JSONDecoder().decode([String: FilterValue].self, from: data)
        else { return [:] }
        return values
    }

    /// Instafilter's single slider (`applyProcessing()`): the Core Image keys it drives and the factor each
    /// gets: the intensity key `t`, a radius `t × 200`, a scale `t × 10`.
    public static let sliderScales: [(coreImageKey: String, scale: Double)] = [("inputIntensity", 1), ("inputRadius", 200), ("inputScale", 10)]

    /// Instafilter's single slider (`applyProcessing()`): for `t` in 0…1, the intensity key gets `t`, a radius
    /// `t × 200` and a scale `t × 10`, each clamped into the parameter's valid range. Filters without those keys
    /// get nothing.
    public static func sliderParameters(for descriptor: FilterDescriptor, intensity t: Double) -> [String: FilterValue] {
        var values: [String: FilterValue] = [:]
        for parameter in descriptor.parameters {
            guard let scale = sliderScales.first(where: { $0.coreImageKey == parameter.coreImageKey })?.scale else { continue }
            values[parameter.key] = .number(parameter.clamp(t * scale))
        }
        return values
    }

    /// Checks `value` for `parameter`; errors name the parameter by `key`, the key as the caller wrote it.
    static func validate(
        _ value: FilterValue, for parameter: FilterParameter, in descriptor: FilterDescriptor, key: String? = nil
    ) throws(FilterError) -> FilterValue {
        let name = descriptor.coreImageName
        let key = key ?? parameter.key
        switch parameter.kind {
        case .boolean:
            switch value {
            case .bool: return value
            case .number(let n) where n == 0 || n == 1: return .bool(n == 1)
            default: throw .wrongType(filter: name, key: key, expected: "true or false", value: value.description)
            }
        case .scalar, .distance, .angle, .count:
            guard case .number(let n) = value else {
                throw .wrongType(filter: name, key: key, expected: "a number", value: value.description)
            }
            guard n.isFinite else { throw .notFinite(filter: name, key: key) }
            if parameter.kind == .count && n != n.rounded() {
                throw .wrongType(filter: name, key: key, expected: "a whole number", value: value.description)
            }
            if let lo = parameter.minimum, n < lo {
                throw .parameterOutOfRange(filter: name, key: key, value: n, minimum: parameter.minimum, maximum: parameter.maximum)
            }
            if let hi = parameter.maximum, n > hi {
                throw .parameterOutOfRange(filter: name, key: key, value: n, minimum: parameter.minimum, maximum: parameter.maximum)
            }
            return value
        case .color, .position, .offset, .vector, .rectangle, .transform, .data:
            guard let numbers = value.numbers else {
                throw .wrongType(filter: name, key: key, expected: "a list of numbers", value: value.description)
            }
            if let count = parameter.kind.componentCount, numbers.count != count {
                let expected = parameter.kind == .color && numbers.count == 3 ? nil : "\(count) numbers"
                if let expected {
                    throw .wrongType(filter: name, key: key, expected: expected, value: value.description)
                }
            }
            if numbers.contains(where: { !$0.isFinite }) { throw .notFinite(filter: name, key: key) }
            if parameter.kind == .color && numbers.count == 3 { return .vector(numbers + [1]) }
            if let lo = parameter.minimum, let bad = numbers.first(where: { $0 < lo }) {
                throw .parameterOutOfRange(filter: name, key: key, value: bad, minimum: parameter.minimum, maximum: parameter.maximum)
            }
            if let hi = parameter.maximum, let bad = numbers.first(where: { $0 > hi }) {
                throw .parameterOutOfRange(filter: name, key: key, value: bad, minimum: parameter.minimum, maximum: parameter.maximum)
            }
            return .vector(numbers)
        }
    }

    private static func decode<F: Filter>(_ type: F.Type, from values: [String: FilterValue]) throws(FilterError) -> any Filter {
        let filter: F
        do {
            let data = try JSONEncoder().encode(values)
            filter = try JSONDecoder().decode(type, from: data)
        } catch {
            throw .invalidRecipe(reason: "\(F.descriptor.coreImageName): \(error)")
        }
        try filter.validate()
        return filter
    }
}
