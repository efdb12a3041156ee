/// Runs an ``AreaKernel``: produces the kernel's region of interest, then lets it fill the tile.
class AreaRenderNode: RenderNode, @unchecked Sendable {
    let kernel: any AreaKernel

    init(input: RenderNode, kernel: any AreaKernel, extent: IntRect) {
        self.kernel = kernel
        super.init(extent: extent, inputs: [input])
    }

    override var scratchSlots: Int { 1 }

    override var readsInputsOutOfOrder: Bool { kernel.readsOutOfOrder }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        [kernel.regionOfInterest(for: rect)]
    }

    override var operationsPerPixel: Double { kernel.operationsPerPixel }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try scratch.checkStopped()
        let region = kernel.regionOfInterest(for: view.rect)
        let input = scratchView(0, region, scratch)
        try inputs[0].produce(into: input, scratch: scratch)
        kernel.render(input: input, into: view)
    }
}
