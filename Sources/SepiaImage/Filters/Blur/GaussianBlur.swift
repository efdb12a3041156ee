/// Spreads each pixel by a Gaussian distribution: Core Image's `CIGaussianBlur`.
///
/// `radius` is the Gaussian's σ in pixels (as in Core Image: "inputRadius is really sigma"). The image is
/// clamped to its extent before blurring and cropped back after, so edges do not fade to transparent and the
/// output keeps the input's extent — what a photo editor needs. (Core Image grows the extent by about 3σ and
/// fades the border unless you clamp and crop yourself.) σ below 0.16 leaves the image unchanged, as
/// `CIImage.applyingGaussianBlur(sigma:)` does. σ < 2.5 uses the exact kernel truncated at 4σ; larger σ uses
/// four extended-box passes with the same variance (see ``BlurPlan``).
public struct GaussianBlur: Filter {
    /// Core Image name `CIGaussianBlur`.
    public static let descriptor = FilterDescriptor(
        name: "GaussianBlur", coreImageName: "CIGaussianBlur", displayName: "Gaussian Blur",
        categories: [.blur, .stillImage, .builtIn],
        summary: "Spreads source pixels by an amount specified by a Gaussian distribution.",
        parameters: [
            .scalar("radius", kind: .distance, summary: "σ of the Gaussian, in pixels.", default: 10, minimum: 0, slider: 0...100, identity: 0)
        ])

    /// σ in pixels, ≥ 0.
    public var radius: Float

    /// Creates the filter; `radius` is at least 0 and at most 10 000.
    public init(radius: Float = 10) {
        self.radius = min(max(radius.isFinite ? radius : 0, 0), 10_000)
    }

    /// Clamps, blurs, crops back.
    public func apply(to image: Image) -> Image {
        if radius < 0.16 || image.extent.isEmpty { return image }
        let plan = BlurPlan.gaussian(sigma: Double(radius))
        if image.extent.isInfinite { return image.blurred(plan) }
        return image.clampedToExtent().blurred(plan).cropped(to: image.extent)
    }
}
