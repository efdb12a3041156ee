/// Runs a fused chain of per-pixel kernels over its input, in place, a cache-sized run of pixels at a time.
/// Kernels see unpremultiplied colour; the node unpremultiplies once before the chain and premultiplies once
/// after it, and skips both when the input is opaque and the chain keeps it so.
final class PointRenderNode: RenderNode, @unchecked Sendable {
    let kernels: [any PointKernel]
    private let inputIsOpaque: Bool
    private let keepsOpacity: Bool

    /// Pixels per run: small enough to stay in L1 while every kernel passes over it.
    private static let runLength = 512

    init(input: RenderNode, kernels: [any PointKernel], inputIsOpaque: Bool) {
        self.kernels = kernels
        self.inputIsOpaque = inputIsOpaque
        keepsOpacity = kernels.allSatisfy(\.preservesAlpha)
        super.init(extent: input.extent, inputs: [input])
    }

    /// One operation per kernel.
    override var operationsPerPixel: Double { Double(max(1, kernels.count)) }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view, scratch: scratch)
        let unpremultiply = !inputIsOpaque
        let premultiply = !(inputIsOpaque && keepsOpacity)
        let width = view.rect.width
        for y in view.rect.minY..<view.rect.maxY {
            let row = view.row(y)
            var start = 0
            while start < width {
                let n = min(Self.runLength, width - start)
                let run = row + start
                if unpremultiply { Self.unpremultiply(run, count: n) }
                for kernel in kernels { kernel.apply(run, count: n, x: view.rect.minX + start, y: y) }
                if premultiply { Self.premultiply(run, count: n) }
                start += n
            }
        }
    }

    @inline(__always)
    static func unpremultiply(_ p: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let v = p[i]
            let a = v[3]
            if a > 0 {
                if a != 1 { p[i] = SIMD4(v[0] / a, v[1] / a, v[2] / a, a) }
            } else {
                p[i] = SIMD4(0, 0, 0, a)
            }
        }
    }

    @inline(__always)
    static func premultiply(_ p: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let v = p[i]
            let a = v[3]
            if a != 1 { p[i] = SIMD4(v[0] * a, v[1] * a, v[2] * a, a) }
        }
    }
}
