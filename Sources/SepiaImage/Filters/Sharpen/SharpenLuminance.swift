/// Sharpens brightness only, leaving colour alone: Core Image's `CISharpenLuminance`.
///
/// With `Y` the linear luminance (Rec. 709) and `G` a Gaussian of σ = `radius`:
/// `rgb += sharpness · (Y(in) − Y(G(in)))`, the same amount on every channel, so chrominance is unchanged;
/// alpha is unchanged.
public struct SharpenLuminance: Filter {
    /// Core Image name `CISharpenLuminance`.
    public static let descriptor = FilterDescriptor(
        name: "SharpenLuminance", coreImageName: "CISharpenLuminance", displayName: "Sharpen Luminance",
        categories: [.sharpen, .stillImage, .builtIn],
        summary: "Increases image detail by sharpening; it operates on the luminance of the image, the chrominance is unaffected.",
        parameters: [
            .scalar("sharpness", summary: "Amount of sharpening.", default: 0.4, minimum: 0, slider: 0...2, identity: 0),
            .scalar(
                "radius", kind: .distance, summary: "σ of the blur the detail is measured against.", default: 1.69, minimum: 0, slider: 0...20,
                identity: 0),
        ])

    /// Amount, ≥ 0.
    public var sharpness: Float
    /// σ, ≥ 0.
    public var radius: Float

    /// Creates the filter; values are clamped to their minimums.
    public init(sharpness: Float = 0.4, radius: Float = 1.69) {
        self.sharpness = max(sharpness.isFinite ? sharpness : 0, 0)
        self.radius = min(max(radius.isFinite ? radius : 0, 0), 10_000)
    }

    /// The image plus its luminance detail.
    public func apply(to image: Image) -> Image {
        if radius < 0.16 || sharpness == 0 || image.extent.isEmpty { return image }
        let blurred = GaussianBlur(radius: radius).apply(to: image)
        return image.blending(with: blurred, kernel: Kernel(sharpness: sharpness))
    }

    struct Kernel: BlendKernel {
        let sharpness: Float
        var preservesAlpha: Bool { true }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            let w = SepiaTone.luminance
            for i in 0..<count {
                let p = a[i], q = b[i]
                let delta = sharpness * ((w.x * p[0] + w.y * p[1] + w.z * p[2]) - (w.x * q[0] + w.y * q[1] + w.z * q[2]))
                a[i] = SIMD4(p[0] + delta, p[1] + delta, p[2] + delta, p[3])
            }
        }
    }
}
