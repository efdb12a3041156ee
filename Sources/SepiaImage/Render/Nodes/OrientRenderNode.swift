/// Applies an EXIF orientation: mirrors, rotates by multiples of 90° or transposes its input.
/// The output extent keeps the input's origin.
final class OrientRenderNode: RenderNode, @unchecked Sendable {
    let orientation: Orientation
    private let inputExtent: IntRect

    init(input: RenderNode, orientation: Orientation) {
        self.orientation = orientation
        inputExtent = input.extent
        let size = orientation.displaySize(forStored: input.extent.size)
        super.init(extent: IntRect(x: input.extent.minX, y: input.extent.minY, width: size.width, height: size.height), inputs: [input])
    }

    override var scratchSlots: Int { 1 }

    override var readsInputsOutOfOrder: Bool { !orientation.preservesRowOrder }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let local = rect.offsetBy(dx: -extent.minX, dy: -extent.minY)
        return [orientation.storedRect(forDisplayed: local, storedSize: inputExtent.size).offsetBy(dx: inputExtent.minX, dy: inputExtent.minY)]
    }

    /// A copy through a scratch tile, pixel by pixel.
    override var operationsPerPixel: Double { 0.5 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let source = inputRegions(for: view.rect)[0]
        let tile = scratchView(0, source, scratch)
        try inputs[0].produce(into: tile, scratch: scratch)
        let size = inputExtent.size
        let ox = extent.minX
        let oy = extent.minY
        let ix = inputExtent.minX
        let iy = inputExtent.minY
        for y in view.rect.minY..<view.rect.maxY {
            let dst = view.row(y)
            for x in view.rect.minX..<view.rect.maxX {
                let s = orientation.storedPixel(x: x - ox, y: y - oy, storedSize: size)
                dst[x - view.rect.minX] = tile.pointer(x: s.x + ix, y: s.y + iy).pointee
            }
        }
    }
}
