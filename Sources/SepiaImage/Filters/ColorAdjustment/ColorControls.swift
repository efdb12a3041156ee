/// Adjusts saturation, brightness and contrast: Core Image's `CIColorControls`.
///
/// In linear light, in this order (each step is affine, so the whole filter is one colour matrix):
/// ```
/// Y   = 0.2126 R + 0.7152 G + 0.0722 B
/// rgb = Y + saturation · (rgb − Y)          saturation 0…(2), identity 1
/// rgb = rgb + brightness                     brightness −1…1, identity 0
/// rgb = (rgb − m) · contrast + m             contrast 0…(4), identity 1; m = 0.214, linear mid-grey (sRGB 0.5)
/// ```
/// Core Image does not document its order or pivot; this order matches GPUImage's passes, and pivoting on
/// mid-grey keeps a grey card grey.
public struct ColorControls: PointFilter {
    /// Core Image name `CIColorControls`.
    public static let descriptor = FilterDescriptor(
        name: "ColorControls", coreImageName: "CIColorControls", displayName: "Color Controls",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adjusts saturation, brightness, and contrast values.",
        parameters: [
            .scalar("saturation", summary: "0 is grey, 1 unchanged, above 1 more colourful.", default: 1, minimum: 0, slider: 0...2, identity: 1),
            .scalar("brightness", summary: "Added to every channel in linear light.", default: 0, minimum: -1, slider: -1...1, identity: 0),
            .scalar("contrast", summary: "Scales the distance from mid-grey.", default: 1, minimum: 0, slider: 0.25...4, identity: 1),
        ])

    /// Linear-light mid-grey (sRGB 0.5), the contrast pivot.
    public static let pivot: Float = 0.214_041

    /// Saturation factor, ≥ 0; 1 is the identity.
    public var saturation: Float
    /// Brightness offset, ≥ −1; 0 is the identity.
    public var brightness: Float
    /// Contrast factor, ≥ 0; 1 is the identity.
    public var contrast: Float

    /// Creates the filter; values are clamped to their minimums.
    public init(saturation: Float = 1, brightness: Float = 0, contrast: Float = 1) {
        self.saturation = max(saturation.isFinite ? saturation : 1, 0)
        self.brightness = max(brightness.isFinite ? brightness : 0, -1)
        self.contrast = max(contrast.isFinite ? contrast : 1, 0)
    }

    /// The three steps as one matrix.
    public var colorMatrix: ColorMatrix? {
        let w = SepiaTone.luminance
        let s = saturation
        let desaturate = ColorMatrix(
            rgb: (
                SIMD3(s, 0, 0) + (1 - s) * w, SIMD3(0, s, 0) + (1 - s) * w, SIMD3(0, 0, s) + (1 - s) * w
            ))
        let c = contrast
        let bias = (brightness - Self.pivot) * c + Self.pivot
        let brightContrast = ColorMatrix(rgb: ([c, 0, 0], [0, c, 0], [0, 0, c]), bias: SIMD3(repeating: bias))
        return desaturate.followed(by: brightContrast)
    }

    /// Applies the matrix.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        (colorMatrix ?? .identity).apply(to: pixel)
    }
}
