/// Shrinks its input by whole factors, averaging each `factorX × factorY` block (area averaging).
/// Output pixel `u` covers input pixels `minX + u·factorX ..< minX + (u+1)·factorX`, clipped to the input.
final class BoxShrinkRenderNode: RenderNode, @unchecked Sendable {
    let factorX: Int
    let factorY: Int
    private let inputExtent: IntRect

    init(input: RenderNode, factorX: Int, factorY: Int) {
        self.factorX = factorX
        self.factorY = factorY
        inputExtent = input.extent
        let e = input.extent
        super.init(
            extent: IntRect(
                x: e.minX / factorX, y: e.minY / factorY,
                width: (e.width + factorX - 1) / factorX, height: (e.height + factorY - 1) / factorY),
            inputs: [input])
    }

    override var scratchSlots: Int { 1 }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let x0 = inputExtent.minX + (rect.minX - extent.minX) * factorX
        let y0 = inputExtent.minY + (rect.minY - extent.minY) * factorY
        let x1 = inputExtent.minX + (rect.maxX - extent.minX) * factorX
        let y1 = inputExtent.minY + (rect.maxY - extent.minY) * factorY
        return [IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1).intersection(inputExtent)]
    }

    /// A quarter of an operation per input pixel averaged, and one per output pixel.
    override func estimatedOperations(for demand: CostDemand) -> Double {
        demand.pixels * (1 + 0.25 * Double(factorX * factorY))
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let rect = view.rect
        let source = inputRegions(for: rect)[0]
        for y in rect.minY..<rect.maxY {
            // One block row of input at a time: factorY rows, as wide as the tile needs.
            let sy0 = inputExtent.minY + (y - extent.minY) * factorY
            let sy1 = min(sy0 + factorY, inputExtent.maxY)
            let input = scratchView(0, IntRect(minX: source.minX, minY: sy0, maxX: source.maxX, maxY: sy1), scratch)
            try inputs[0].produce(into: input, scratch: scratch)
            let dst = view.row(y)
            for x in rect.minX..<rect.maxX {
                let sx0 = inputExtent.minX + (x - extent.minX) * factorX
                let sx1 = min(sx0 + factorX, inputExtent.maxX)
                var acc = SIMD4<Float>.zero
                for sy in sy0..<sy1 {
                    let row = input.pointer(x: sx0, y: sy)
                    for k in 0..<(sx1 - sx0) { acc += row[k] }
                }
                dst[x - rect.minX] = acc / Float((sy1 - sy0) * (sx1 - sx0))
            }
        }
    }
}
