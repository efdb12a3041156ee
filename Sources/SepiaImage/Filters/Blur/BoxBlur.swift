/// Averages each pixel with its neighbours in a square window: Core Image's `CIBoxBlur`.
///
/// The window spans `2·radius + 1` pixels in each direction (Core Image does not document its width); a
/// fractional radius weighs the outermost row and column by its fraction. Edges are clamped and the output
/// keeps the input's extent, as for ``GaussianBlur``.
public struct BoxBlur: Filter {
    /// Core Image name `CIBoxBlur`.
    public static let descriptor = FilterDescriptor(
        name: "BoxBlur", coreImageName: "CIBoxBlur", displayName: "Box Blur",
        categories: [.blur, .stillImage, .builtIn],
        summary: "Smooths or sharpens an image using a box-shaped convolution kernel.",
        parameters: [
            .scalar("radius", kind: .distance, summary: "Half the window, in pixels.", default: 10, minimum: 1, slider: 1...100)
        ])

    /// Half the window width, ≥ 1.
    public var radius: Float

    /// Creates the filter; `radius` is between 1 and 10 000.
    public init(radius: Float = 10) {
        self.radius = min(max(radius.isFinite ? radius : 1, 1), 10_000)
    }

    /// Clamps, blurs, crops back.
    public func apply(to image: Image) -> Image {
        if image.extent.isEmpty { return image }
        let plan = BlurPlan.box(radius: Double(radius))
        if image.extent.isInfinite { return image.blurred(plan) }
        return image.clampedToExtent().blurred(plan).cropped(to: image.extent)
    }
}
