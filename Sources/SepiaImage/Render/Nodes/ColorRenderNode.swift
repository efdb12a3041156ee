/// A uniform colour over its extent (usually infinite).
final class ColorRenderNode: RenderNode, @unchecked Sendable {
    let color: SIMD4<Float>

    init(color: SIMD4<Float>, extent: IntRect) {
        self.color = color
        super.init(extent: extent, inputs: [])
    }

    /// A fill.
    override var operationsPerPixel: Double { 0.25 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        view.fill(color)
    }
}
