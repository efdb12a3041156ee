/// Maps colours to shades of brown: Core Image's `CISepiaTone`.
///
/// The classic sepia (the W3C Filter Effects `sepia()` matrix, also used by GPUImage, libvips and Pillow
/// recipes) multiplies gamma-encoded luma by a warm tint: its rows are the luma weights scaled by
/// `k = (1.351, 1.203, 0.937)`. Sepia works in linear light, like Core Image, so it applies the same tint to
/// linear luminance, each tint channel carried through the sRGB transfer curve at mid-grey
/// (`tint_c = toLinear(0.5·k_c) / toLinear(0.5)`, about `(1.934, 1.497, 0.869)`):
///
/// ```
/// Y   = 0.2126 R + 0.7152 G + 0.0722 B          (linear light)
/// out = in + intensity · (tint · Y − in)
/// ```
/// Mid-tones match the W3C look, white becomes the same light cream, and the filter stays a colour matrix that
/// folds with its neighbours. `intensity` is 0…1 (default 1); 0 is the identity. Alpha is preserved.
public struct SepiaTone: PointFilter {
    /// Core Image name `CISepiaTone`; one parameter, `intensity`.
    public static let descriptor = FilterDescriptor(
        name: "SepiaTone", coreImageName: "CISepiaTone", displayName: "Sepia Tone",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Maps the colors of an image to various shades of brown.",
        parameters: [
            .scalar(
                "intensity", summary: "The strength of the effect: 1 is full sepia, 0 leaves the image unchanged.",
                default: 1, minimum: 0, maximum: 1, slider: 0...1, identity: 0)
        ])

    /// The W3C sepia row sums: the warm tint applied to gamma-encoded luma.
    public static let w3cTint: SIMD3<Float> = [1.351, 1.203, 0.937]

    /// The tint in linear light: `toLinear(0.5·k) / toLinear(0.5)` per channel.
    public static let linearTint: SIMD3<Float> = {
        let grey = SRGB.toLinear(0.5)
        return SIMD3(
            SRGB.toLinear(0.5 * w3cTint.x) / grey, SRGB.toLinear(0.5 * w3cTint.y) / grey, SRGB.toLinear(0.5 * w3cTint.z) / grey)
    }()

    /// Rec. 709 luminance weights for linear sRGB.
    public static let luminance: SIMD3<Float> = [0.2126, 0.7152, 0.0722]

    /// The full-strength matrix: `tint · Y`.
    public static let sepiaMatrix = ColorMatrix(
        rgb: (luminance * linearTint.x, luminance * linearTint.y, luminance * linearTint.z))

    /// Strength of the effect, 0…1. 0 is the identity.
    public var intensity: Float

    /// Creates the filter; `intensity` is clamped to 0…1.
    public init(intensity: Float = 1) {
        self.intensity = min(max(intensity.isNaN ? 0 : intensity, 0), 1)
    }

    /// The sepia matrix mixed with the identity by ``intensity``.
    public var colorMatrix: ColorMatrix? { Self.sepiaMatrix.mixedWithIdentity(intensity) }

    /// Applies the mixed matrix to one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        Self.sepiaMatrix.mixedWithIdentity(intensity).apply(to: pixel)
    }
}
