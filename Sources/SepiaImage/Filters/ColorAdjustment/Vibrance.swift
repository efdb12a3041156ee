/// Raises the saturation of muted colours more than that of vivid ones: Core Image's `CIVibrance`.
///
/// Core Image does not publish its formula; Sepia's, per unpremultiplied pixel in linear light (sRGB
/// primaries):
/// ```
/// Y   = 0.2126 R + 0.7152 G + 0.0722 B
/// s   = (max(R, G, B) − min(R, G, B)) / max(R, G, B), clamped to 0…1; 0 when max(R, G, B) ≤ 0
/// k   = 1 + amount · (1 − s)
/// rgb = Y + k · (rgb − Y)
/// ```
/// `s` is HSV saturation, so a grey (s = 0) is scaled by the full `1 + amount` (and stays grey), a pure
/// primary (s = 1) not at all, whatever its brightness. `amount` −1…1, 0 is the identity; −1 turns greys and
/// muted colours grey while leaving pure colours alone. Alpha is unchanged. Like ``ColorControls``'s
/// saturation, strong boosts can leave the gamut (negative channels); nothing is clipped.
public struct Vibrance: PointFilter {
    /// Core Image name `CIVibrance`; key `inputAmount`.
    public static let descriptor = FilterDescriptor(
        name: "Vibrance", coreImageName: "CIVibrance", displayName: "Vibrance",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adjusts the saturation of an image while keeping pleasing skin tones.",
        parameters: [
            .scalar(
                "amount", summary: "Positive saturates muted colours, negative desaturates them; vivid colours change least.",
                default: 0, minimum: -1, maximum: 1, slider: -1...1, identity: 0)
        ])

    /// Strength, −1…1; 0 is the identity.
    public var amount: Float

    /// Creates the filter; `amount` is clamped to −1…1.
    public init(amount: Float = 0) {
        self.amount = min(max(amount.isFinite ? amount : 0, -1), 1)
    }

    /// `Y + (1 + amount · (1 − s)) · (rgb − Y)`, with `s` the pixel's HSV saturation.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        if amount == 0 { return pixel }
        let r = pixel[0], g = pixel[1], b = pixel[2]
        let hi = max(r, max(g, b)), lo = min(r, min(g, b))
        let s: Float = hi > 0 ? min(max((hi - lo) / hi, 0), 1) : 0
        let k = 1 + amount * (1 - s)
        let w = SepiaTone.luminance
        let y = w.x * r + w.y * g + w.z * b
        return SIMD4(y + k * (r - y), y + k * (g - y), y + k * (b - y), pixel[3])
    }

    /// The unchanged image when `amount` is 0; otherwise the per-pixel function.
    public func apply(to image: Image) -> Image {
        if amount == 0 { return image }
        return image.applyingPointKernel(FilterPointKernel(filter: self))
    }
}
