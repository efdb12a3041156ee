/// Smooths small changes of brightness and sharpens large ones: Core Image's `CINoiseReduction`.
///
/// Core Image: "small changes in luminance below the noise level are treated as noise and smoothed by a local
/// blur; changes above it are edges and are sharpened". Sepia's exact maths, on premultiplied linear RGBA, with
/// `B` the ``GaussianBlur`` of σ = 1.5 pixels (``blurRadius``; edges clamped), `Y` the Rec. 709 luminance
/// (0.2126 R + 0.7152 G + 0.0722 B) and `n` the noise level:
/// ```
/// d   = |Y(in) − Y(B)|
/// e   = smoothstep(n/2, 3n/2, d)        = 3u² − 2u³, u = clamp((d − n/2) / n, 0, 1); e = 1 when n = 0
/// out = B + e · (1 + sharpness) · (in − B)
/// ```
/// so where the pixel differs from its neighbourhood by less than half the noise level it becomes the blur,
/// where it differs by more than 1.5 times the noise level it is unsharp-masked
/// (`in + sharpness · (in − B)`), and in between it moves smoothly from one to the other (halfway at the
/// noise level). `noiseLevel` 0…0.1 (default 0.02) is in linear light; `sharpness` 0…2 (default 0.4).
/// Noise level 0 and sharpness 0 together are the identity.
public struct NoiseReduction: Filter {
    /// Core Image name `CINoiseReduction`.
    public static let descriptor = FilterDescriptor(
        name: "NoiseReduction", coreImageName: "CINoiseReduction", displayName: "Noise Reduction",
        categories: [.sharpen, .stillImage, .builtIn],
        summary: "Reduces noise using a threshold value to define what is considered noise.",
        parameters: [
            .scalar(
                "noiseLevel", summary: "Luminance changes smaller than this (linear light) are smoothed.", default: 0.02, minimum: 0,
                maximum: 0.1, slider: 0...0.1, identity: 0),
            .scalar(
                "sharpness", summary: "How much larger changes (edges) are sharpened.", default: 0.4, minimum: 0, maximum: 2, slider: 0...2,
                identity: 0),
        ])

    /// σ of the local blur, in pixels.
    public static let blurRadius: Float = 1.5

    /// Noise threshold in linear luminance, 0…0.1.
    public var noiseLevel: Float
    /// Edge sharpening, 0…2.
    public var sharpness: Float

    /// Creates the filter; values are clamped to their ranges.
    public init(noiseLevel: Float = 0.02, sharpness: Float = 0.4) {
        self.noiseLevel = min(max(noiseLevel.isFinite ? noiseLevel : 0.02, 0), 0.1)
        self.sharpness = min(max(sharpness.isFinite ? sharpness : 0.4, 0), 2)
    }

    /// The image blended with its blur by the size of each pixel's luminance change.
    public func apply(to image: Image) -> Image {
        if (noiseLevel == 0 && sharpness == 0) || image.extent.isEmpty { return image }
        let blurred = GaussianBlur(radius: Self.blurRadius).apply(to: image)
        return image.blending(with: blurred, kernel: Kernel(noiseLevel: noiseLevel, sharpness: sharpness))
    }

    struct Kernel: BlendKernel {
        let noiseLevel: Float
        let sharpness: Float
        var preservesAlpha: Bool { true }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            let w = SepiaTone.luminance
            let gain = 1 + sharpness
            for i in 0..<count {
                let p = a[i], q = b[i]
                let d = abs((w.x * p[0] + w.y * p[1] + w.z * p[2]) - (w.x * q[0] + w.y * q[1] + w.z * q[2]))
                let e: Float
                if noiseLevel > 0 {
                    let u = min(max((d - noiseLevel / 2) / noiseLevel, 0), 1)
                    e = u * u * (3 - 2 * u)
                } else {
                    e = 1
                }
                a[i] = q + (p - q) * (e * gain)
            }
        }
    }
}
