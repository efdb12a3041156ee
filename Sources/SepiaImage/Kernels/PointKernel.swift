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
            var o = bias
            o.addProduct(c0, SIMD4(repeating: p[0]))
            o.addProduct(c1, SIMD4(repeating: p[1]))
            o.addProduct(c2, SIMD4(repeating: p[2]))
            o.addProduct(c3, SIMD4(repeating: p[3]))
            pixels[i] = o
        }
    }
}

extension SIMD4 where Scalar == Float {
    /// `self += a * b`, lane by lane.
    @inline(__always)
    mutating func addProduct(_ a: SIMD4<Float>, _ b: SIMD4<Float>) {
        self = self.addingProduct(a, b)
    }
}
