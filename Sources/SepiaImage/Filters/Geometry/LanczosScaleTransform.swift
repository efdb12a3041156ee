/// Scales an image with a Lanczos filter: Core Image's `CILanczosScaleTransform`.
///
/// The output is `round(width · scale · aspectRatio) × round(height · scale)` pixels (at least one),
/// resampled with Lanczos-3 in linear light (area-averaged first for reductions of 4× or more). `scale` 0
/// gives an empty image.
public struct LanczosScaleTransform: Filter {
    /// Core Image name `CILanczosScaleTransform`.
    public static let descriptor = FilterDescriptor(
        name: "LanczosScaleTransform", coreImageName: "CILanczosScaleTransform", displayName: "Lanczos Scale Transform",
        categories: [.geometryAdjustment, .stillImage, .builtIn],
        summary: "Produces a high-quality, scaled version of a source image.",
        parameters: [
            .scalar("scale", summary: "Scale factor.", default: 1, minimum: 0, slider: 0.05...1.5, identity: 1),
            .scalar("aspectRatio", summary: "Extra horizontal scale.", default: 1, minimum: 0, slider: 0.5...2, identity: 1),
        ])

    /// Scale, ≥ 0.
    public var scale: Float
    /// Horizontal factor, ≥ 0.
    public var aspectRatio: Float

    /// Creates the filter; values are between 0 and 100.
    public init(scale: Float = 1, aspectRatio: Float = 1) {
        self.scale = min(max(scale.isFinite ? scale : 1, 0), 100)
        self.aspectRatio = min(max(aspectRatio.isFinite ? aspectRatio : 1, 0), 100)
    }

    /// The resized image.
    public func apply(to image: Image) -> Image {
        let e = image.extent
        if e.isEmpty || e.isInfinite { return image }
        if scale == 0 || aspectRatio == 0 { return .empty }
        let w = max(1, Int((Double(e.width) * Double(scale) * Double(aspectRatio)).rounded()))
        let h = max(1, Int((Double(e.height) * Double(scale)).rounded()))
        return image.resized(to: IntSize(width: w, height: h))
    }
}
