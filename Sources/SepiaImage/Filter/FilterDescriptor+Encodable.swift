/// A filter's attributes as JSON, as `sepia filters --json` prints them and `GET /api/v1/filters` answers:
/// `name`, `coreImageName`, `displayName`, `categories`, `summary`, `inputKeys` and `parameters`, each with
/// its keys, kind, summary, default, minimum, maximum, slider range and identity (`null` where Core Image has
/// none).
extension FilterDescriptor: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, coreImageName, displayName, categories, summary, inputKeys, parameters
    }

    /// Encodes the attributes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(coreImageName, forKey: .coreImageName)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(categories.map(\.rawValue), forKey: .categories)
        try container.encode(summary, forKey: .summary)
        try container.encode(inputKeys, forKey: .inputKeys)
        try container.encode(parameters, forKey: .parameters)
    }
}

extension FilterParameter: Encodable {
    private enum CodingKeys: String, CodingKey {
        case key, coreImageKey, kind, displayName, summary, defaultValue, minimum, maximum, sliderMinimum, sliderMaximum, identity
    }

    /// Encodes the parameter's attributes, with `null` for those it lacks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(coreImageKey, forKey: .coreImageKey)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(summary, forKey: .summary)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
        try container.encode(sliderMinimum, forKey: .sliderMinimum)
        try container.encode(sliderMaximum, forKey: .sliderMaximum)
        try container.encode(identity, forKey: .identity)
    }
}
