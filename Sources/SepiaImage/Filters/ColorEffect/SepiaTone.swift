/// Maps colours to shades of brown: Core Image's `CISepiaTone`.
///
/// The W3C Filter Effects sepia matrix, mixed with the identity by `intensity`, applied to linear-light
/// colour (Core Image's working space):
///
/// ```
/// R' = 0.393 R + 0.769 G + 0.189 B
/// G' = 0.349 R + 0.686 G + 0.168 B
/// B' = 0.272 R + 0.534 G + 0.131 B
/// out = in + intensity · (sepia(in) − in)
/// ```
/// `intensity` is 0…1 (default 1); 0 is the identity. Alpha is preserved.
public struct SepiaTone: PointFilter {
    /// Core Image name `CISepiaTone`; one parameter, `intensity`.
    public static let descriptor = FilterDescriptor(
        name: "SepiaTone", coreImageName: "CISepiaTone", displayName: "Sepia Tone",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Maps the colors of an image to various shades of brown.",
        parameters: [
            .scalar("intensity", summary: "The strength of the effect: 1 is full sepia, 0 leaves the image unchanged.",
                    default: 1, minimum: 0, maximum: 1, slider: 0...1, identity: 0)
        ])

    /// The full-strength sepia matrix (W3C Filter Effects `sepia()`).
    public static let sepiaMatrix = ColorMatrix(rgb: ([0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]))

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
