extension EditRecipe {
    /// The recipe for the same photo at another scale: every parameter measured in pixels — distances
    /// (radii, cell sizes), positions, rectangles and an affine transform's translation — multiplied by
    /// `factor` (offsets, such as a tone curve's points or a white point's temperature and tint, are not
    /// measured in pixels and stay as they are), so the recipe applied to a copy of the image resized by `factor` looks like the full-size
    /// result resized by `factor`. Parameters left at their defaults are written out scaled too (a default
    /// blur radius of 10 pixels is 2.5 pixels on a quarter-size preview). Scaled values are clamped into their
    /// parameters' ranges (a pixellation cell cannot be smaller than one pixel).
    ///
    /// This is how an editor previews an edit on a display-size image, and how the filter strip shows each
    /// filter on a thumbnail.
    ///
    /// - Throws: ``FilterError`` when a step names an unknown filter or parameter.
    public func scaled(by factor: Double) throws(FilterError) -> EditRecipe {
        guard factor.isFinite, factor > 0 else { throw .invalidRecipe(reason: "the scale \(factor) is not a positive number") }
        var recipe = self
        recipe.steps = try steps.map { (step) throws(FilterError) in try Self.scaled(step, by: factor) }
        return recipe
    }

    private static func scaled(_ step: Step, by factor: Double) throws(FilterError) -> Step {
        // A RAW development has no distances: it is the same at every size.
        if isRAWDevelopment(step) { return step }
        guard let type = FilterRegistry.type(named: step.filter) else { throw .unknownFilter(name: step.filter) }
        let descriptor = type.descriptor
        var parameters: [String: FilterValue] = [:]
        var given: [String: FilterValue] = [:]
        for (key, value) in step.parameters {
            guard let parameter = descriptor.parameter(forKey: key) else {
                throw .unknownParameter(filter: descriptor.coreImageName, key: key, known: descriptor.parameters.map(\.coreImageKey))
            }
            given[parameter.coreImageKey] = value
        }
        for parameter in descriptor.parameters {
            let value = given[parameter.coreImageKey] ?? parameter.defaultValue
            guard given[parameter.coreImageKey] != nil || isMeasuredInPixels(parameter.kind) else { continue }
            parameters[parameter.coreImageKey] = scaled(value, parameter, by: factor)
        }
        return Step(filter: step.filter, parameters: parameters, intensity: step.intensity)
    }

    private static func isMeasuredInPixels(_ kind: FilterParameter.Kind) -> Bool {
        switch kind {
        case .distance, .position, .rectangle, .transform: true
        default: false
        }
    }

    private static func scaled(_ value: FilterValue, _ parameter: FilterParameter, by factor: Double) -> FilterValue {
        // Core Image's "infinite" extents and other huge values stay as they are.
        func scale(_ x: Double) -> Double { abs(x) > 1e300 ? x : x * factor }
        switch (parameter.kind, value) {
        case (.distance, .number(let n)):
            return .number(parameter.clamp(scale(n)))
        case (.position, .vector(let v)), (.rectangle, .vector(let v)):
            return .vector(v.map(scale))
        case (.transform, .vector(let v)) where v.count == 6:
            return .vector([v[0], v[1], v[2], v[3], scale(v[4]), scale(v[5])])
        default:
            return value
        }
    }
}
