/// Mixes a chain of point kernels' result with its input: `in + (kernels(in) − in) · t`, on unpremultiplied
/// pixels. Used for a filter at an intensity when the filter is a chain of per-pixel kernels that keep alpha,
/// so that the mix fuses with its neighbours instead of costing a pass of its own.
struct MixedPointKernel: PointKernel {
    let kernels: [any PointKernel]
    let amount: Float

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    /// Pixels mixed per chunk: the originals of a chunk are kept on the stack.
    private static let chunk = 256

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: Self.chunk) { originals in
            let t = amount
            var start = 0
            while start < count {
                let n = min(Self.chunk, count - start)
                let run = pixels + start
                originals.baseAddress!.initialize(from: run, count: n)
                for kernel in kernels { kernel.apply(run, count: n, x: x + start, y: y) }
                for i in 0..<n {
                    let before = originals[i]
                    run[i] = before + (run[i] - before) * t
                }
                start += n
            }
        }
    }
}

/// Mixes `a` (a filter's result) with `b` (its input): `b + (a − b) · t`, on premultiplied pixels, as Core
/// Image's `CIDissolveTransition` does.
struct MixBlendKernel: BlendKernel {
    let amount: Float
    /// Whether the input is opaque, so that an opaque result mixed with it stays opaque.
    let inputIsOpaque: Bool

    var preservesAlpha: Bool { inputIsOpaque }

    func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
        let t = amount
        for i in 0..<count {
            let before = b[i]
            a[i] = before + (a[i] - before) * t
        }
    }
}
