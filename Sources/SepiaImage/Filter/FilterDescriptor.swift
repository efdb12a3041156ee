/// What a filter is called and what its parameters accept: Core Image's `attributes` dictionary as a value.
public struct FilterDescriptor: Sendable, Hashable {
    /// Sepia's name, the Swift type's name: `SepiaTone`.
    public var name: String
    /// Core Image's name: `CISepiaTone`.
    public var coreImageName: String
    /// A name for people: "Sepia Tone".
    public var displayName: String
    /// Core Image categories (`CICategoryColorEffect`, …) without the prefix.
    public var categories: [FilterCategory]
    /// One sentence on what the filter does and how.
    public var summary: String
    /// The parameters in Core Image's order.
    public var parameters: [FilterParameter]

    /// Creates a descriptor.
    public init(
        name: String, coreImageName: String, displayName: String, categories: [FilterCategory], summary: String,
        parameters: [FilterParameter]
    ) {
        self.name = name
        self.coreImageName = coreImageName
        self.displayName = displayName
        self.categories = categories
        self.summary = summary
        self.parameters = parameters
    }

    /// The parameter with Sepia key or Core Image key `key` (`intensity` or `inputIntensity`).
    public func parameter(forKey key: String) -> FilterParameter? {
        parameters.first { $0.key == key || $0.coreImageKey == key }
    }

    /// Core Image's `inputKeys`: `inputImage` followed by every parameter's Core Image key.
    public var inputKeys: [String] { ["inputImage"] + parameters.map(\.coreImageKey) }
}

/// Core Image's filter categories.
public enum FilterCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// `CICategoryColorAdjustment`.
    case colorAdjustment = "CICategoryColorAdjustment"
    /// `CICategoryColorEffect`.
    case colorEffect = "CICategoryColorEffect"
    /// `CICategoryBlur`.
    case blur = "CICategoryBlur"
    /// `CICategorySharpen`.
    case sharpen = "CICategorySharpen"
    /// `CICategoryStylize`.
    case stylize = "CICategoryStylize"
    /// `CICategoryGeometryAdjustment`.
    case geometryAdjustment = "CICategoryGeometryAdjustment"
    /// `CICategoryDistortionEffect`.
    case distortionEffect = "CICategoryDistortionEffect"
    /// `CICategoryStillImage`.
    case stillImage = "CICategoryStillImage"
    /// `CICategoryBuiltIn`.
    case builtIn = "CICategoryBuiltIn"
    /// `CICategoryXMPSerializable`.
    case xmpSerializable = "CICategoryXMPSerializable"
}

/// One parameter: its keys, kind and Core Image attributes.
public struct FilterParameter: Sendable, Hashable {
    /// What sort of value the parameter takes (Core Image's `CIAttributeType` and class).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A number (`CIAttributeTypeScalar`).
        case scalar
        /// A distance in pixels (`CIAttributeTypeDistance`).
        case distance
        /// An angle in radians (`CIAttributeTypeAngle`).
        case angle
        /// A whole number (`CIAttributeTypeCount`).
        case count
        /// A flag (`CIAttributeTypeBoolean`).
        case boolean
        /// An RGBA colour (`CIColor`), four numbers.
        case color
        /// A point (`CIAttributeTypePosition`), two numbers.
        case position
        /// Two numbers that are not a place in the image (`CIAttributeTypeOffset`): a tone curve's point, a white
        /// point's temperature and tint. Unlike a position it is never flipped between y-up and y-down nor scaled
        /// with the image.
        case offset
        /// A vector of four numbers (`CIVector`).
        case vector
        /// A rectangle: x, y, width, height (`CIAttributeTypeRectangle`).
        case rectangle
        /// An affine transform: a, b, c, d, tx, ty.
        case transform
        /// Opaque data: a list of numbers (`CIColorCube`'s cube).
        case data

        /// The number of numbers a value of this kind holds; nil for scalars, flags and data of any length.
        public var componentCount: Int? {
            switch self {
            case .color, .vector, .rectangle: return 4
            case .position, .offset: return 2
            case .transform: return 6
            default: return nil
            }
        }
    }

    /// Sepia's key (the Swift property): `intensity`.
    public var key: String
    /// Core Image's key: `inputIntensity`.
    public var coreImageKey: String
    /// The kind of value.
    public var kind: Kind
    /// A name for people.
    public var displayName: String
    /// What the parameter does.
    public var summary: String
    /// `CIAttributeDefault`.
    public var defaultValue: FilterValue
    /// `CIAttributeMin`: values below are invalid. `nil` when unbounded.
    public var minimum: Double?
    /// `CIAttributeMax`: values above are invalid. `nil` when unbounded.
    public var maximum: Double?
    /// `CIAttributeSliderMin`: the bottom of a slider's range.
    public var sliderMinimum: Double?
    /// `CIAttributeSliderMax`: the top of a slider's range.
    public var sliderMaximum: Double?
    /// `CIAttributeIdentity`: the value at which the filter does nothing.
    public var identity: FilterValue?

    /// Creates a parameter; `coreImageKey` defaults to `input` + the capitalised key.
    public init(
        key: String, coreImageKey: String? = nil, kind: Kind, displayName: String? = nil, summary: String,
        defaultValue: FilterValue, minimum: Double? = nil, maximum: Double? = nil, sliderMinimum: Double? = nil,
        sliderMaximum: Double? = nil, identity: FilterValue? = nil
    ) {
        self.key = key
        self.coreImageKey = coreImageKey ?? ("input" + key.prefix(1).uppercased() + key.dropFirst())
        self.kind = kind
        self.displayName = displayName ?? key.prefix(1).uppercased() + key.dropFirst()
        self.summary = summary
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.sliderMinimum = sliderMinimum
        self.sliderMaximum = sliderMaximum
        self.identity = identity
    }

    /// A number parameter.
    public static func scalar(
        _ key: String, coreImageKey: String? = nil, kind: Kind = .scalar, displayName: String? = nil, summary: String,
        default value: Double, minimum: Double? = nil, maximum: Double? = nil, slider: ClosedRange<Double>? = nil,
        identity: Double? = nil
    ) -> FilterParameter {
        FilterParameter(
            key: key, coreImageKey: coreImageKey, kind: kind, displayName: displayName, summary: summary,
            defaultValue: .number(value), minimum: minimum, maximum: maximum, sliderMinimum: slider?.lowerBound,
            sliderMaximum: slider?.upperBound, identity: identity.map { .number($0) })
    }

    /// Clamps `value` into `minimum...maximum`.
    public func clamp(_ value: Double) -> Double {
        var v = value
        if let minimum { v = max(v, minimum) }
        if let maximum { v = min(v, maximum) }
        return v
    }
}
