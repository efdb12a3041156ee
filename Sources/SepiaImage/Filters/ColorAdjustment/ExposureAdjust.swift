import Foundation

/// Changes exposure as a camera's f-stops would: Core Image's `CIExposureAdjust`.
///
/// `rgb · 2^EV` in linear light; alpha unchanged. `EV` has no bounds in Core Image (slider −10…10); values
/// are limited to ±100 stops here so results stay finite.
public struct ExposureAdjust: PointFilter {
    /// Core Image name `CIExposureAdjust`; key `inputEV`.
    public static let descriptor = FilterDescriptor(
        name: "ExposureAdjust", coreImageName: "CIExposureAdjust", displayName: "Exposure Adjust",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adjusts the exposure setting for an image similar to the way you control exposure for a camera when you change the F-stop.",
        parameters: [
            .scalar(
                "ev", coreImageKey: "inputEV", displayName: "EV", summary: "Stops: each +1 doubles the light.",
                default: 0, minimum: -100, maximum: 100, slider: -10...10, identity: 0)
        ])

    /// Exposure change in stops; 0 is the identity.
    public var ev: Float

    /// Creates the filter; `ev` is clamped to ±100.
    public init(ev: Float = 0) {
        self.ev = min(max(ev.isFinite ? ev : 0, -100), 100)
    }

    /// `2^EV` on the colour channels.
    public var colorMatrix: ColorMatrix? {
        let k = Float(exp2(Double(ev)))
        return ColorMatrix(rgb: ([k, 0, 0], [0, k, 0], [0, 0, k]))
    }

    /// Applies the gain.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        (colorMatrix ?? .identity).apply(to: pixel)
    }
}
