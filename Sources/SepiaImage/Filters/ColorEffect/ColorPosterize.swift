/// Reduces each colour channel to a few brightness levels: Core Image's `CIColorPosterize`.
///
/// On sRGB-encoded values (so the steps look even): `v' = round(v · levels) / levels`, i.e. GPUImage's
/// `floor(v · levels + 0.5) / levels`. `levels` ≥ 1 (default 6); Core Image's identity value is 300, where the
/// steps are finer than 8-bit output can show.
public struct ColorPosterize: PointFilter {
    /// Core Image name `CIColorPosterize`.
    public static let descriptor = FilterDescriptor(
        name: "ColorPosterize", coreImageName: "CIColorPosterize", displayName: "Color Posterize",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Remaps red, green, and blue color components to the number of brightness values you specify for each color component.",
        parameters: [
            .scalar("levels", summary: "Brightness levels per channel.", default: 6, minimum: 1, slider: 2...30, identity: 300)
        ])

    /// Levels per channel, ≥ 1.
    public var levels: Float

    /// Creates the filter; `levels` is at least 1.
    public init(levels: Float = 6) {
        self.levels = max(levels.isFinite ? levels : 6, 1)
    }

    /// Quantises one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        let e = TransferCurve.encode(pixel)
        let l = levels
        return TransferCurve.decode(
            SIMD4(
                (e[0] * l).rounded(.toNearestOrAwayFromZero) / l, (e[1] * l).rounded(.toNearestOrAwayFromZero) / l,
                (e[2] * l).rounded(.toNearestOrAwayFromZero) / l, pixel[3]))
    }
}
