/// Shades outside a circle around a point: Core Image's `CIVignetteEffect`.
///
/// With `d` the distance from `center` in pixels, `amount = intensity · smoothstep(radius·(1 − falloff),
/// radius·(1 + falloff), d)`, applied as in ``Vignette`` (darken when positive, lighten when negative).
/// `falloff` 0 is a hard edge.
public struct VignetteEffect: Filter {
    /// Core Image name `CIVignetteEffect`.
    public static let descriptor = FilterDescriptor(
        name: "VignetteEffect", coreImageName: "CIVignetteEffect", displayName: "Vignette Effect",
        categories: [.colorEffect, .stillImage, .builtIn],
        summary: "Modifies the brightness of an image around the periphery of a specified region.",
        parameters: [
            FilterParameter(key: "center", kind: .position, summary: "Centre of the clear region, in pixels.", defaultValue: .vector([150, 150])),
            .scalar("radius", kind: .distance, summary: "Radius of the clear region, in pixels.", default: 150, minimum: 0, slider: 0...2000),
            .scalar(
                "intensity", summary: "Positive darkens outside, negative lightens.", default: 1, minimum: -1, maximum: 1, slider: -1...1, identity: 0
            ),
            .scalar("falloff", summary: "Width of the transition, relative to the radius.", default: 0.5, minimum: 0, maximum: 1, slider: 0...1),
        ])

    /// Centre in pixels.
    public var center: SIMD2<Double>
    /// Radius in pixels, ≥ 0.
    public var radius: Float
    /// Strength, −1…1.
    public var intensity: Float
    /// Transition width, 0…1.
    public var falloff: Float

    /// Creates the filter; values are clamped to their ranges.
    public init(center: SIMD2<Double> = [150, 150], radius: Float = 150, intensity: Float = 1, falloff: Float = 0.5) {
        self.center = SIMD2(center.x.isFinite ? center.x : 150, center.y.isFinite ? center.y : 150)
        self.radius = min(max(radius.isFinite ? radius : 150, 0), 1_000_000)
        self.intensity = min(max(intensity.isFinite ? intensity : 1, -1), 1)
        self.falloff = min(max(falloff.isFinite ? falloff : 0.5, 0), 1)
    }

    /// Shades around `center`.
    public func apply(to image: Image) -> Image {
        if intensity == 0 || image.extent.isEmpty { return image }
        return image.applyingPointKernel(
            RadialShadeKernel(
                centre: SIMD2(Float(center.x), Float(center.y)), scale: 1,
                inner: radius * (1 - falloff), outer: radius * (1 + falloff), intensity: intensity))
    }
}
