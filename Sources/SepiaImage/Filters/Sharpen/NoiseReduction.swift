/// Smooths small changes of brightness and sharpens large ones: Core Image's `CINoiseReduction`.
///
/// Core Image: "small changes in luminance below the noise level are treated as noise and smoothed by a local
/// blur; changes above it are edges and are sharpened". Sepia's exact maths, with `B` the ``GaussianBlur`` of
/// σ = 1.5 pixels (``blurRadius``; edges clamped) of the premultiplied linear image, `Y` the Rec. 709 luminance
/// (0.2126 R + 0.7152 G + 0.0722 B, of premultiplied linear values), `enc` the sRGB transfer function (so the
/// noise level is measured on how light or dark a change looks, the same in shadows and highlights) and `n`
/// the noise level:
/// ```
/// d   = |enc(Y(in)) − enc(Y(B))|                    the change at each pixel
/// D   = the largest d in the pixel's 3×3 neighbourhood (edges clamped), so an edge's neighbours count as edge
/// e   = smoothstep(n/2, 3n/2, D) = 3u² − 2u³, u = clamp((D − n/2) / n, 0, 1);  e = 1 when n = 0
/// rgb = B + e · (1 + sharpness) · (in − B)          premultiplied; alpha unchanged
/// ```
/// so where nothing nearby changes by more than half the noise level the pixel becomes the blur, where
/// something changes by more than 1.5 times the noise level it is unsharp-masked
/// (`in + sharpness · (in − B)`), and in between it moves smoothly from one to the other (halfway at the
/// noise level). `noiseLevel` 0…0.1 (default 0.02, about 5 of 255 sRGB steps); `sharpness` 0…2 (default 0.4).
/// Noise level 0 and sharpness 0 together are the identity.
public struct NoiseReduction: Filter {
    /// Core Image name `CINoiseReduction`.
    public static let descriptor = FilterDescriptor(
        name: "NoiseReduction", coreImageName: "CINoiseReduction", displayName: "Noise Reduction",
        categories: [.sharpen, .stillImage, .builtIn],
        summary: "Reduces noise using a threshold value to define what is considered noise.",
        parameters: [
            .scalar(
                "noiseLevel", summary: "Luminance changes smaller than this (sRGB-encoded) are smoothed.", default: 0.02, minimum: 0,
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

    /// The image blended with its blur by the size of the luminance changes around each pixel.
    public func apply(to image: Image) -> Image {
        if (noiseLevel == 0 && sharpness == 0) || image.extent.isEmpty || image.extent.isInfinite { return image }
        let blurred = GaussianBlur(radius: Self.blurRadius).apply(to: image)
        let change = image.blending(with: blurred, kernel: ChangeKernel())
        let spread = change.clampedToExtent().applyingArea(NeighbourhoodMaximum(), extent: image.extent)
        let packed = blurred.blending(with: spread, kernel: PackKernel())
        return image.blending(with: packed, kernel: Kernel(noiseLevel: noiseLevel, sharpness: sharpness))
    }

    /// `(d, d, d, 1)`, d = |enc(Y(a)) − enc(Y(b))|.
    struct ChangeKernel: BlendKernel {
        var preservesAlpha: Bool { true }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            let w = SepiaTone.luminance
            for i in 0..<count {
                let p = a[i], q = b[i]
                let yp = TransferCurve.encode(w.x * p[0] + w.y * p[1] + w.z * p[2])
                let yq = TransferCurve.encode(w.x * q[0] + w.y * q[1] + w.z * q[2])
                let d = abs(yp - yq)
                a[i] = SIMD4(d, d, d, 1)
            }
        }
    }

    /// The largest value of each channel in the 3×3 neighbourhood.
    struct NeighbourhoodMaximum: AreaKernel {
        /// 27 comparisons per pixel.
        var operationsPerPixel: Double { 5 }

        func regionOfInterest(for rect: IntRect) -> IntRect {
            rect.insetBy(dx: -1, dy: -1)
        }

        func render(input: TileView, into output: TileView) {
            let rect = output.rect
            for y in rect.minY..<rect.maxY {
                let rows = (
                    input.pointer(x: rect.minX - 1, y: y - 1), input.pointer(x: rect.minX - 1, y: y), input.pointer(x: rect.minX - 1, y: y + 1)
                )
                let dst = output.row(y)
                for x in 0..<rect.width {
                    var m = rows.0[x]
                    for dx in 0..<3 {
                        m = pointwiseMax(m, pointwiseMax(rows.0[x + dx], pointwiseMax(rows.1[x + dx], rows.2[x + dx])))
                    }
                    dst[x] = m
                }
            }
        }
    }

    /// The blur's colour with the neighbourhood's change in place of its alpha: `(b.rgb, c)`.
    struct PackKernel: BlendKernel {
        var preservesAlpha: Bool { false }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            for i in 0..<count {
                let p = a[i]
                a[i] = SIMD4(p[0], p[1], p[2], b[i][0])
            }
        }
    }

    /// `rgb = B + e (1 + sharpness) (in − B)` with `e` the smoothstep of the packed change; alpha kept.
    struct Kernel: BlendKernel {
        let noiseLevel: Float
        let sharpness: Float
        var preservesAlpha: Bool { true }

        func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
            let gain = 1 + sharpness
            for i in 0..<count {
                let p = a[i], q = b[i]
                let e: Float
                if noiseLevel > 0 {
                    let u = min(max((q[3] - noiseLevel / 2) / noiseLevel, 0), 1)
                    e = u * u * (3 - 2 * u)
                } else {
                    e = 1
                }
                let k = e * gain
                a[i] = SIMD4(q[0] + (p[0] - q[0]) * k, q[1] + (p[1] - q[1]) * k, q[2] + (p[2] - q[2]) * k, p[3])
            }
        }
    }
}
