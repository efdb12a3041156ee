/// Limits its input to a rectangle; transparent elsewhere. The extent is the intersection.
final class CropRenderNode: RenderNode, @unchecked Sendable {
    init(input: RenderNode, rect: IntRect) {
        super.init(extent: input.extent.intersection(rect), inputs: [input])
    }

    /// Hands the request on: no work of its own.
    override var operationsPerPixel: Double { 0 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view, scratch: scratch)
    }
}
