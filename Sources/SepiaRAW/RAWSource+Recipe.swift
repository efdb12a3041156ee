public import SepiaCodecs
public import SepiaImage

extension RAWDevelopment {
    /// The development a recipe's `CIRAWFilter` step asks for. A temperature or tint the step leaves out is taken
    /// from `asShot` (the camera's white, ``RAWSource/asShotNeutral``), or daylight's when the file records none.
    public init(_ step: RAWDevelopmentStep, asShot: (temperature: Double, tint: Double)?) {
        let whiteBalance: WhiteBalance
        if step.neutralTemperature == nil && step.neutralTint == nil {
            whiteBalance = .asShot
        } else {
            let temperature = step.neutralTemperature ?? asShot?.temperature ?? 6504
            let tint = step.neutralTint ?? asShot?.tint ?? 0
            whiteBalance = .neutral(
                temperature: min(max(temperature, Self.temperatureRange.lowerBound), Self.temperatureRange.upperBound),
                tint: min(max(tint, Self.tintRange.lowerBound), Self.tintRange.upperBound))
        }
        self.init(
            exposure: step.exposure, boost: step.boostAmount, whiteBalance: whiteBalance, noiseReduction: step.luminanceNoiseReductionAmount,
            recoverHighlights: step.highlightRecovery)
    }
}

extension RAWSource {
    /// The file developed as a recipe's `CIRAWFilter` step says.
    public func developing(_ step: RAWDevelopmentStep, options: RAWOptions? = nil) throws(CodecError) -> RAWSource {
        try developing(RAWDevelopment(step, asShot: asShotNeutral), options: options)
    }
}

extension PhotoDecoding {
    /// The image a recipe starts from: `file` itself, or, when the recipe begins with a `CIRAWFilter` step, the
    /// RAW file developed as that step says. `draft` allows a RAW file's half-size development whenever it is
    /// large enough (``RAWOptions/allowsDraftMode``), for interactive previews.
    ///
    /// - Throws: ``FilterError`` when the recipe develops a file that is not RAW, or its development is invalid;
    ///   ``CodecError`` when the RAW file cannot be re-opened.
    public static func base(of file: any EncodedImage, for recipe: EditRecipe, draft: Bool = false) throws -> any EncodedImage {
        let step = try recipe.rawDevelopment()
        if draft, let raw = file as? RAWSource, !raw.options.allowsDraftMode {
            var options = raw.options
            options.allowsDraftMode = true
            return try raw.developing(step ?? RAWDevelopmentStep(), options: options)
        }
        guard let step else { return file }
        guard let raw = file as? RAWSource else {
            throw FilterError.invalidRecipe(
                reason: "its first step, CIRAWFilter, develops camera RAW files, and this photo is a \(file.format) file; remove that step")
        }
        return step.isDefault ? raw : try raw.developing(step)
    }
}
