/// How a RAW photo is developed, as a recipe's first step: Core Image's `CIRAWFilter`, whose parameters say how
/// the sensor data becomes an image (exposure, boost, white balance, noise reduction, highlight recovery) before
/// any filter runs.
///
/// ```json
/// {"filter": "CIRAWFilter", "parameters": {"inputEV": 0.7, "inputNeutralTemperature": 4800, "inputNeutralTint": 12}}
/// ```
/// It is not a filter of images: it is honoured when the photo is decoded, so it may only be a recipe's first
/// step, and only on a RAW photo. Left-out parameters keep the default development; a white balance left out is
/// the camera's ("as shot"), and a temperature without a tint (or the reverse) keeps the as-shot value of the
/// other.
public struct RAWDevelopmentStep: Sendable, Hashable {
    /// The step's filter name.
    public static let filterName = "CIRAWFilter"

    /// The step's parameters, with Core Image's keys and ranges.
    public static let descriptor = FilterDescriptor(
        name: "RAWFilter", coreImageName: filterName, displayName: "RAW Development", categories: [.colorAdjustment, .stillImage, .builtIn],
        summary: "Develops a camera RAW file's sensor data: exposure, brightness boost, white balance, noise reduction and highlight recovery.",
        parameters: [
            FilterParameter(
                key: "exposure", coreImageKey: "inputEV", kind: .scalar, displayName: "Exposure",
                summary: "The exposure change in stops, in linear light.", defaultValue: .number(0), minimum: -4, maximum: 4,
                sliderMinimum: -4, sliderMaximum: 4, identity: .number(0)),
            FilterParameter(
                key: "boostAmount", coreImageKey: "inputBoost", kind: .scalar, displayName: "Boost",
                summary:
                    "How much of the automatic brightness to apply: 0 shows the sensor's linear values, 1 brightens the photo until 1 % of it is white.",
                defaultValue: .number(1), minimum: 0, maximum: 1, sliderMinimum: 0, sliderMaximum: 1, identity: .number(1)),
            FilterParameter(
                key: "neutralTemperature", coreImageKey: "inputNeutralTemperature", kind: .scalar, displayName: "Temperature",
                summary: "The colour temperature, in kelvin, of the light that becomes white; the camera's when left out.",
                defaultValue: .number(6500), minimum: 2000, maximum: 50000, sliderMinimum: 2000, sliderMaximum: 12000),
            FilterParameter(
                key: "neutralTint", coreImageKey: "inputNeutralTint", kind: .scalar, displayName: "Tint",
                summary: "The green (negative) to magenta (positive) shift of the light that becomes white; the camera's when left out.",
                defaultValue: .number(0), minimum: -150, maximum: 150, sliderMinimum: -150, sliderMaximum: 150),
            FilterParameter(
                key: "luminanceNoiseReductionAmount", coreImageKey: "inputLuminanceNoiseReductionAmount", kind: .scalar,
                displayName: "Noise Reduction", summary: "Wavelet noise reduction of the sensor data, 0 (off) to 1.", defaultValue: .number(0),
                minimum: 0, maximum: 1, sliderMinimum: 0, sliderMaximum: 1, identity: .number(0)),
            FilterParameter(
                key: "highlightRecovery", coreImageKey: "inputEnableHighlightRecovery", kind: .boolean, displayName: "Recover Highlights",
                summary: "Rebuilds highlights past the sensor's white from the channels that still hold detail, instead of clipping them.",
                defaultValue: .bool(false), identity: .bool(false)),
        ])

    /// The exposure change in EV.
    public var exposure: Double = 0
    /// How much of the automatic brightness to apply, 0…1.
    public var boostAmount: Double = 1
    /// The white's colour temperature in kelvin; nil for the camera's.
    public var neutralTemperature: Double?
    /// The white's tint; nil for the camera's.
    public var neutralTint: Double?
    /// Noise reduction, 0…1.
    public var luminanceNoiseReductionAmount: Double = 0
    /// Whether highlights are rebuilt rather than clipped.
    public var highlightRecovery = false

    /// The default development.
    public init() {}

    /// Reads and validates a recipe step's parameters (Core Image or Sepia keys).
    public init(parameters: [String: FilterValue]) throws(FilterError) {
        let descriptor = Self.descriptor
        for (key, raw) in parameters {
            guard let parameter = descriptor.parameter(forKey: key) else {
                throw .unknownParameter(filter: Self.filterName, key: key, known: descriptor.parameters.map(\.coreImageKey))
            }
            let value = try FilterRegistry.validate(raw, for: parameter, in: descriptor, key: key)
            switch parameter.key {
            case "exposure": exposure = value.number ?? 0
            case "boostAmount": boostAmount = value.number ?? 1
            case "neutralTemperature": neutralTemperature = value.number
            case "neutralTint": neutralTint = value.number
            case "luminanceNoiseReductionAmount": luminanceNoiseReductionAmount = value.number ?? 0
            default: if case .bool(let b) = value { highlightRecovery = b }
            }
        }
    }

    /// The step's parameters by Core Image key; defaults are left out.
    public var parameters: [String: FilterValue] {
        var values: [String: FilterValue] = [:]
        if exposure != 0 { values["inputEV"] = .number(exposure) }
        if boostAmount != 1 { values["inputBoost"] = .number(boostAmount) }
        if let neutralTemperature { values["inputNeutralTemperature"] = .number(neutralTemperature) }
        if let neutralTint { values["inputNeutralTint"] = .number(neutralTint) }
        if luminanceNoiseReductionAmount != 0 { values["inputLuminanceNoiseReductionAmount"] = .number(luminanceNoiseReductionAmount) }
        if highlightRecovery { values["inputEnableHighlightRecovery"] = .bool(true) }
        return values
    }

    /// The step as a recipe step.
    public var step: EditRecipe.Step { EditRecipe.Step(filter: Self.filterName, parameters: parameters) }

    /// Whether the step develops as the default does.
    public var isDefault: Bool { self == RAWDevelopmentStep() }
}

extension EditRecipe {
    /// The recipe's RAW development (its first step, when that is `CIRAWFilter`), validated; nil when it has none.
    public func rawDevelopment() throws(FilterError) -> RAWDevelopmentStep? {
        guard let first = steps.first, Self.isRAWDevelopment(first) else { return nil }
        return try RAWDevelopmentStep(parameters: first.parameters)
    }

    /// The recipe without its RAW development step: the filters applied to the developed image.
    public var withoutRAWDevelopment: EditRecipe {
        var recipe = self
        if let first = steps.first, Self.isRAWDevelopment(first) { recipe.steps.removeFirst() }
        return recipe
    }

    static func isRAWDevelopment(_ step: Step) -> Bool {
        step.filter == RAWDevelopmentStep.filterName || step.filter == RAWDevelopmentStep.descriptor.name
    }
}
