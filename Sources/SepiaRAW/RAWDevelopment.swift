/// How a RAW file is developed: the parameters of Core Image's `CIRAWFilter` that LibRaw can honour. The default
/// is what a camera's own JPEG aims at: the camera's white balance, AHD demosaicing, highlights clipped, and the
/// brightness set so that 1 % of the pixels are white (dcraw's automatic brightness).
///
/// ```swift
/// var development = RAWDevelopment()
/// development.exposure = 0.7            // EV, as CIRAWFilter's exposure
/// development.noiseReduction = 0.3      // 0…1, LibRaw's wavelet denoising
/// let raw = try RAWSource(path: "DSC_0042.NEF", development: development)
/// ```
public struct RAWDevelopment: Sendable, Hashable, Codable {
    /// The exposure change in EV (stops), as `CIRAWFilter.exposure`: −4…4. Applied in linear light, after the
    /// automatic brightness.
    public var exposure: Double
    /// How much of the automatic brightness to keep, as `CIRAWFilter.boostAmount`: 0 shows the sensor's linear
    /// values, 1 (the default) lifts the image so that 1 % of its pixels are white.
    public var boost: Double
    /// The white balance.
    public var whiteBalance: WhiteBalance
    /// Wavelet noise reduction, as `CIRAWFilter.luminanceNoiseReductionAmount`: 0 (off, the default)…1.
    public var noiseReduction: Double
    /// Highlights past the sensor's white: clipped (the default), or rebuilt from the channels that still
    /// hold detail.
    public var recoverHighlights: Bool

    /// A white balance.
    public enum WhiteBalance: Sendable, Hashable, Codable {
        /// As the camera measured it (its "as shot" multipliers), else daylight.
        case asShot
        /// Daylight: the camera's daylight multipliers, without the shot's adjustment.
        case daylight
        /// Multipliers of red, green and blue (green 1).
        case multipliers(red: Double, green: Double, blue: Double)
        /// The white of a colour temperature (kelvin) and tint, as `CIRAWFilter.neutralTemperature` and
        /// `neutralTint`: the white point Adobe's Camera Raw gives these numbers, made neutral through the
        /// camera's colour matrix. Lower temperatures make the photo cooler, positive tints more magenta.
        case neutral(temperature: Double, tint: Double)
    }

    /// The default development.
    public init(
        exposure: Double = 0, boost: Double = 1, whiteBalance: WhiteBalance = .asShot, noiseReduction: Double = 0, recoverHighlights: Bool = false
    ) {
        self.exposure = exposure
        self.boost = boost
        self.whiteBalance = whiteBalance
        self.noiseReduction = noiseReduction
        self.recoverHighlights = recoverHighlights
    }

    /// The colour temperatures a white balance may name, in kelvin.
    public static let temperatureRange = 2000.0...50000.0
    /// The tints a white balance may name.
    public static let tintRange = -150.0...150.0

    /// Throws unless every value is within its range.
    public func validate() throws(RAWDevelopmentError) {
        guard exposure.isFinite, (-4...4).contains(exposure) else { throw RAWDevelopmentError("exposure must be between -4 and 4 EV") }
        guard boost.isFinite, (0...1).contains(boost) else { throw RAWDevelopmentError("boost must be between 0 and 1") }
        guard noiseReduction.isFinite, (0...1).contains(noiseReduction) else { throw RAWDevelopmentError("noise reduction must be between 0 and 1") }
        if case .multipliers(let r, let g, let b) = whiteBalance {
            guard [r, g, b].allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 16 }) else {
                throw RAWDevelopmentError("white balance multipliers must be above 0 and at most 16")
            }
        }
        if case .neutral(let temperature, let tint) = whiteBalance {
            guard temperature.isFinite, (Self.temperatureRange).contains(temperature) else {
                throw RAWDevelopmentError("the white balance temperature must be between 2000 and 50000 K")
            }
            guard tint.isFinite, (Self.tintRange).contains(tint) else {
                throw RAWDevelopmentError("the white balance tint must be between -150 and 150")
            }
        }
    }
}

/// A development parameter out of its range.
public struct RAWDevelopmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
