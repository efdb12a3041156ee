/// Remaps colours to shades of one colour: Core Image's `CIColorMonochrome`.
///
/// On sRGB-encoded values (the colour is an sRGB colour, as `CIColor`'s are), after GPUImage's monochrome
/// shader: the luma `L` (Rec. 709 weights) is overlay-blended with the colour `C`, then mixed with the input
/// by `intensity`:
/// ```
/// tinted = L < 0.5 ? 2·L·C : 1 − 2·(1 − L)·(1 − C)
/// out    = in + intensity · (tinted − in)            intensity 0…1, identity 0
/// ```
public struct ColorMonochrome: PointFilter {
    /// Core Image name `CIColorMonochrome`.
    public static let descriptor = FilterDescriptor(
        name: "ColorMonochrome", coreImageName: "CIColorMonochrome", displayName: "Color Monochrome",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Remaps colors so they fall within shades of a single color.",
        parameters: [
            FilterParameter(
                key: "color", kind: .color, summary: "The monochrome colour (sRGB, 0–1).",
                defaultValue: .vector([0.6, 0.45, 0.3, 1])),
            .scalar(
                "intensity", summary: "How much of the effect: 0 unchanged, 1 fully tinted.",
                default: 1, minimum: 0, maximum: 1, slider: 0...1, identity: 0),
        ])

    /// The tint, sRGB-encoded RGBA.
    public var color: SIMD4<Float>
    /// Strength, 0…1.
    public var intensity: Float

    /// Creates the filter; `intensity` is clamped to 0…1.
    public init(color: SIMD4<Float> = [0.6, 0.45, 0.3, 1], intensity: Float = 1) {
        self.color = color
        self.intensity = min(max(intensity.isFinite ? intensity : 0, 0), 1)
    }

    /// Tints one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        let e = TransferCurve.encode(pixel)
        let l = 0.2126 * e[0] + 0.7152 * e[1] + 0.0722 * e[2]
        var out = e
        for c in 0..<3 {
            let tinted = l < 0.5 ? 2 * l * color[c] : 1 - 2 * (1 - l) * (1 - color[c])
            out[c] = e[c] + intensity * (tinted - e[c])
        }
        return TransferCurve.decode(out)
    }
}
