/// A per-pixel operation on runs of unpremultiplied, linear-light RGBA pixels.
///
/// Consecutive point kernels are fused into one pass over each tile (Core Image concatenates colour
/// kernels the same way), and kernels that are affine in colour are multiplied into one matrix.
protocol PointKernel: Sendable {
    /// Transforms `count` pixels in place; the first is at absolute pixel (`x`, `y`).
    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int)
    /// The kernel as a colour matrix, when it is one; lets the compiler fold neighbours together.
    var colorMatrix: ColorMatrix? { get }
    /// Whether the output alpha always equals the input alpha.
    var preservesAlpha: Bool { get }
}

/// A colour matrix, evaluated with four multiply-adds per pixel.
struct MatrixPointKernel: PointKernel {
    let matrix: ColorMatrix

    var colorMatrix: ColorMatrix? { matrix }
    var preservesAlpha: Bool { matrix.preservesAlpha }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        let (c0, c1, c2, c3) = matrix.columns
        let bias = matrix.biasVector
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = bias + c0 * p[0] + c1 * p[1] + c2 * p[2] + c3 * p[3]
        }
    }
}

/// Runs a point filter's per-pixel function over runs of pixels; specialised for each filter type.
struct FilterPointKernel<F: PointFilter>: PointKernel {
    let filter: F

    var colorMatrix: ColorMatrix? { filter.colorMatrix }
    var preservesAlpha: Bool { filter.preservesAlpha }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        for i in 0..<count {
            pixels[i] = filter.apply(to: pixels[i])
        }
    }
}

/// Runs a position-dependent filter (vignettes) over runs of pixels.
struct PositionalPointKernel<F: PositionalPointFilter>: PointKernel {
    let filter: F

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        let cy = Float(y) + 0.5
        for i in 0..<count {
            pixels[i] = filter.apply(to: pixels[i], x: Float(x + i) + 0.5, y: cy)
        }
    }
}
