import Foundation

/// Brightens shadows and darkens highlights: Core Image's `CIHighlightShadowAdjust`.
///
/// On sRGB-encoded luma `L` (Rec. 709 weights), after GPUImage's highlight/shadow shader:
/// ```
/// lift(L, s)  = max(0, L^(1/(s+1)) − 0.76·L^(2/(s+1)) − L)
/// shadow      = s ≥ 0 ? lift(L, s) : −lift(L, −s)                      shadowAmount −1…1, identity 0
/// highlight   = clamp(1 − ((1−L)^(1/(2−h)) − 0.8·(1−L)^(2/(2−h))) − L, −1, 0)   highlightAmount 0…1, identity 1
/// colour     ·= (L + shadow + highlight) / L                           (on encoded colour)
/// ```
/// With `radius` 0 the adjustment is global. A positive `radius` takes `L` from a Gaussian blur of that
/// radius instead, so the adjustment follows regions rather than single pixels and keeps local detail
/// (Core Image's "preserving spatial detail").
public struct HighlightShadowAdjust: PointFilter {
    /// Core Image name `CIHighlightShadowAdjust`.
    public static let descriptor = FilterDescriptor(
        name: "HighlightShadowAdjust", coreImageName: "CIHighlightShadowAdjust", displayName: "Highlight and Shadow Adjust",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adjust the tonal mapping of an image while preserving spatial detail.",
        parameters: [
            .scalar(
                "radius", kind: .distance, summary: "Radius of the neighbourhood whose brightness drives the adjustment; 0 adjusts pixel by pixel.",
                default: 0, minimum: 0, slider: 0...10, identity: 0),
            .scalar(
                "shadowAmount", summary: "Positive values brighten shadows, negative darken them.",
                default: 0, minimum: -1, maximum: 1, slider: -1...1, identity: 0),
            .scalar(
                "highlightAmount", summary: "Below 1 darkens highlights.",
                default: 1, minimum: 0, maximum: 1, slider: 0.3...1, identity: 1),
        ])

    /// Blur radius for local adjustment; 0 is global.
    public var radius: Float
    /// Shadow amount, −1…1.
    public var shadowAmount: Float
    /// Highlight amount, 0…1.
    public var highlightAmount: Float

    /// Creates the filter; values are clamped to their ranges.
    public init(radius: Float = 0, shadowAmount: Float = 0, highlightAmount: Float = 1) {
        self.radius = max(radius.isFinite ? radius : 0, 0)
        self.shadowAmount = min(max(shadowAmount.isFinite ? shadowAmount : 0, -1), 1)
        self.highlightAmount = min(max(highlightAmount.isFinite ? highlightAmount : 1, 0), 1)
    }

    private var isIdentity: Bool { shadowAmount == 0 && highlightAmount == 1 }

    /// The tone curve's gain for encoded luma `l`.
    public func gain(_ l: Float) -> Float {
        let L = Double(l)
        func lift(_ s: Double) -> Double {
            max(0, pow(L, 1 / (s + 1)) - 0.76 * pow(L, 2 / (s + 1)) - L)
        }
        let s = Double(shadowAmount), h = Double(highlightAmount)
        let shadow = s >= 0 ? lift(s) : -lift(-s)
        let highlight = min(0, max(-1, 1 - (pow(1 - L, 1 / (2 - h)) - 0.8 * pow(1 - L, 2 / (2 - h))) - L))
        guard L > 1e-6 else { return 1 }
        return Float(max(0, L + shadow + highlight) / L)
    }

    /// Applies the global adjustment to one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        LuminanceGainTable.applying(gain(LuminanceGainTable.encodedLuma(pixel)), to: pixel)
    }

    /// Global (radius 0) or local (blurred luminance) adjustment.
    public func apply(to image: Image) -> Image {
        if isIdentity { return image }
        let table = LuminanceGainTable(gain)
        if radius < 0.16 || image.extent.isInfinite {
            return image.applyingPointKernel(GlobalToneKernel(table: table))
        }
        let blurred = image.clampedToExtent().blurred(.gaussian(sigma: Double(radius))).cropped(to: image.extent)
        return image.blending(with: blurred, kernel: LocalToneKernel(table: table))
    }
}
