/// A per-pixel operation on runs of unpremultiplied, linear-light RGBA pixels.
///
/// Consecutive point kernels are fused into one pass over each tile (Core Image concatenates colour
/// kernels the same way), and kernels that are affine in colour are multiplied into one matrix.
protocol PointKernel: Sendable {
    /// Transforms `count` pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int)
    /// The kernel as a colour matrix, when it is one; lets the compiler fold neighbours together.
    var colorMatrix: ColorMatrix? { get }
    /// Whether the output alpha always equals the input alpha.
    var preservesAlpha: Bool { get }
}

/// A colour matrix, evaluated with four fused multiply-adds per pixel.
struct MatrixPointKernel: PointKernel {
    let matrix: ColorMatrix

    var colorMatrix: ColorMatrix? { matrix }
    var preservesAlpha: Bool { matrix.preservesAlpha }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let (c0, c1, c2, c3) = matrix.columns
        let bias = matrix.biasVector
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = bias + c0 * p[0] + c1 * p[1] + c2 * p[2] + c3 * p[3]
        }
    }
}
