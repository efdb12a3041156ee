/// Combines two inputs pixel by pixel with a ``BlendKernel``.
final class BlendRenderNode: RenderNode, @unchecked Sendable {
    let kernel: any BlendKernel

    init(a: RenderNode, b: RenderNode, kernel: any BlendKernel) {
        self.kernel = kernel
        super.init(extent: a.extent, inputs: [a, b])
    }

    override var scratchSlots: Int { 1 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view, scratch: scratch)
        let other = scratchView(0, view.rect, scratch)
        try inputs[1].produce(into: other, scratch: scratch)
        for y in view.rect.minY..<view.rect.maxY {
            kernel.apply(view.row(y), UnsafePointer(other.row(y)), count: view.rect.width)
        }
    }
}
