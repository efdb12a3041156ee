/// Sharpens by adding back the difference from a blurred copy: Core Image's `CIUnsharpMask`.
///
/// `out = in + intensity · (in − G_radius(in))`, on premultiplied linear RGBA, with `G` the ``GaussianBlur``
/// of σ = `radius` (edges clamped). `radius` 0 or `intensity` 0 is the identity.
public struct UnsharpMask: Filter {
    /// Core Image name `CIUnsharpMask`.
    public static let descriptor = FilterDescriptor(
        name: "UnsharpMask", coreImageName: "CIUnsharpMask", displayName: "Unsharp Mask",
        categories: [.sharpen, .stillImage, .builtIn],
        summary: "Increases the contrast of the edges between pixels of different colors in an image.",
        parameters: [
            .scalar("radius", kind: .distance, summary: "σ of the blur, in pixels.", default: 2.5, minimum: 0, slider: 0...100, identity: 0),
            .scalar("intensity", summary: "How much of the difference to add.", default: 0.5, minimum: 0, slider: 0...1, identity: 0),
        ])

    /// σ of the blur.
    public var radius: Float
    /// Amount, ≥ 0.
    public var intensity: Float

    /// Creates the filter; values are clamped to their minimums.
    public init(radius: Float = 2.5, intensity: Float = 0.5) {
        self.radius = min(max(radius.isFinite ? radius : 0, 0), 10_000)
        self.intensity = max(intensity.isFinite ? intensity : 0, 0)
    }

    /// The image plus `intensity` times its difference from the blur.
    public func apply(to image: Image) -> Image {
        if radius < 0.16 || intensity == 0 || image.extent.isEmpty { return image }
        let blurred = GaussianBlur(radius: radius).apply(to: image)
        return image.blending(with: blurred, kernel: Kernel(intensity: intensity))
    }

    struct Kernel: BlendKernel {
        let intensity: Float
        var preservesAlpha: Bool { true }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            for i in 0..<count {
                let p = a[i]
                a[i] = p + (p - b[i]) * intensity
            }
        }
    }
}
