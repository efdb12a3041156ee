/// Pixels already in memory.
final class MemoryRenderNode: RenderNode, @unchecked Sendable {
    let buffer: PixelBuffer

    init(buffer: PixelBuffer) {
        self.buffer = buffer
        super.init(extent: buffer.extent, inputs: [])
    }

    /// A copy.
    override var operationsPerPixel: Double { 0.25 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let r = view.rect
        let width = buffer.extent.width
        buffer.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in r.minY..<r.maxY {
                let start = (y - buffer.extent.minY) * width + (r.minX - buffer.extent.minX)
                view.row(y).update(from: base + start, count: r.width)
            }
        }
    }
}
