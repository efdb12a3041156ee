/// Finds edges and shows them in colour: Core Image's `CIEdges`.
///
/// For each colour channel separately, on sRGB-encoded values, the Sobel gradient magnitude
/// `√(Gx² + Gy²)` times `intensity`, clamped to 0…1; flat areas turn black. Edges of the image are clamped.
/// Core Image lists an identity value of 0 for `intensity`, but at 0 every pixel is black, not the input.
public struct Edges: Filter {
    /// Core Image name `CIEdges`.
    public static let descriptor = FilterDescriptor(
        name: "Edges", coreImageName: "CIEdges", displayName: "Edges",
        categories: [.stylize, .stillImage, .builtIn],
        summary: "Finds all edges in an image and displays them in color.",
        parameters: [
            .scalar("intensity", summary: "Gain on the gradient magnitude.", default: 1, minimum: 0, slider: 0...10, identity: 0)
        ])

    /// Gain, ≥ 0.
    public var intensity: Float

    /// Creates the filter; `intensity` is between 0 and 10 000.
    public init(intensity: Float = 1) {
        self.intensity = min(max(intensity.isFinite ? intensity : 1, 0), 10_000)
    }

    /// Clamps, detects edges, crops back.
    public func apply(to image: Image) -> Image {
        if image.extent.isEmpty || image.extent.isInfinite { return image }
        return image.clampedToExtent().applyingArea(Kernel(intensity: intensity), extent: image.extent)
    }

    struct Kernel: AreaKernel {
        let intensity: Float

        /// Encoding, two 3×3 gradients and decoding per pixel.
        var operationsPerPixel: Double { 8 }

        func regionOfInterest(for rect: IntRect) -> IntRect {
            rect.insetBy(dx: -1, dy: -1)
        }

        func render(input: TileView, into output: TileView) {
            let rect = output.rect
            let width = rect.width + 2
            // Encoded, unpremultiplied rows of the region, three at a time.
            var rows = [[SIMD4<Float>]](repeating: [SIMD4<Float>](repeating: .zero, count: width), count: 3)
            func load(_ y: Int, into slot: Int) {
                let src = input.pointer(x: rect.minX - 1, y: y)
                for i in 0..<width {
                    let p = src[i]
                    let a = p[3]
                    let colour = a > 0 && a != 1 ? SIMD4(p[0] / a, p[1] / a, p[2] / a, a) : p
                    rows[slot][i] = TransferCurve.encode(colour)
                }
            }
            load(rect.minY - 1, into: 0)
            load(rect.minY, into: 1)
            for y in rect.minY..<rect.maxY {
                load(y + 1, into: 2)
                let t = rows[0], m = rows[1], b = rows[2]
                let dst = output.row(y)
                for x in 0..<rect.width {
                    let gx = (t[x + 2] + 2 * m[x + 2] + b[x + 2]) - (t[x] + 2 * m[x] + b[x])
                    let gy = (b[x] + 2 * b[x + 1] + b[x + 2]) - (t[x] + 2 * t[x + 1] + t[x + 2])
                    var e = SIMD4<Float>.zero
                    for c in 0..<3 {
                        let magnitude = (gx[c] * gx[c] + gy[c] * gy[c]).squareRoot() * intensity
                        e[c] = TransferCurve.decode(min(max(magnitude, 0), 1))
                    }
                    let alpha = m[x + 1][3]
                    dst[x] = SIMD4(e[0] * alpha, e[1] * alpha, e[2] * alpha, alpha)
                }
                rows.swapAt(0, 1)
                rows.swapAt(1, 2)
            }
        }
    }
}
