/// Moves its input by whole pixels.
final class TranslateRenderNode: RenderNode, @unchecked Sendable {
    let dx: Int
    let dy: Int

    init(input: RenderNode, dx: Int, dy: Int) {
        self.dx = dx
        self.dy = dy
        super.init(extent: input.extent.offsetBy(dx: dx, dy: dy), inputs: [input])
    }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        [rect.offsetBy(dx: -dx, dy: -dy)]
    }

    /// Hands the request on, relabelled: no work of its own.
    override var operationsPerPixel: Double { 0 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view.relabeled(dx: -dx, dy: -dy), scratch: scratch)
    }
}
