/// Extends its input infinitely by repeating the edge pixels (Core Image's `clampedToExtent()`).
final class ClampRenderNode: RenderNode, @unchecked Sendable {
    let inner: IntRect

    init(input: RenderNode) {
        inner = input.extent
        super.init(extent: .infinite, inputs: [input])
    }

    override var scratchSlots: Int { 1 }

    private func clampedRect(_ rect: IntRect) -> IntRect {
        let x0 = min(max(rect.minX, inner.minX), inner.maxX - 1)
        let x1 = min(max(rect.maxX - 1, inner.minX), inner.maxX - 1)
        let y0 = min(max(rect.minY, inner.minY), inner.maxY - 1)
        let y1 = min(max(rect.maxY - 1, inner.minY), inner.maxY - 1)
        return IntRect(minX: x0, minY: y0, maxX: x1 + 1, maxY: y1 + 1)
    }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        inner.isEmpty ? [.zero] : [clampedRect(rect)]
    }

    /// A copy, with the margins outside the inner image filled from its edges.
    override var operationsPerPixel: Double { 0.25 }

    /// Only the part of each request inside the inner image reaches the input (the margins repeat its edges):
    /// the requests' pixels in proportion, at most each request's clamped rectangle.
    override func inputDemands(for demand: CostDemand) -> [CostDemand] {
        if inner.isEmpty { return [CostDemand(region: .zero, pixels: 0, piece: IntSize(width: 0, height: 0))] }
        let inside = demand.region.intersection(inner)
        let fraction = CostDemand.area(inside) / max(1, CostDemand.area(demand.region))
        let piece = clampedRect(demand.typicalPiece)
        // Each request reads at least its clamped rectangle (an edge row or column, outside the inner image).
        let pixels = demand.pixels * fraction + demand.requests * Double(max(piece.width, piece.height))
        return [CostDemand(region: clampedRect(demand.region), pixels: pixels, piece: piece.size)]
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        if inner.isEmpty {
            view.fill(.zero)
            return
        }
        let rect = view.rect
        if inner.contains(rect) {
            try inputs[0].produce(into: view, scratch: scratch)
            return
        }
        let source = clampedRect(rect)
        let tile = scratchView(0, source, scratch)
        try inputs[0].produce(into: tile, scratch: scratch)
        for y in rect.minY..<rect.maxY {
            let sy = min(max(y, source.minY), source.maxY - 1)
            let src = tile.row(sy)
            let dst = view.row(y)
            // Left margin, copied middle, right margin.
            let leftCount = min(max(source.minX - rect.minX, 0), rect.width)
            if leftCount > 0 { dst.update(repeating: src[0], count: leftCount) }
            let midStart = max(rect.minX, source.minX)
            let midEnd = min(rect.maxX, source.maxX)
            if midEnd > midStart {
                (dst + (midStart - rect.minX)).update(from: src + (midStart - source.minX), count: midEnd - midStart)
            }
            let rightStart = max(source.maxX, rect.minX)
            if rect.maxX > rightStart {
                (dst + (rightStart - rect.minX)).update(repeating: src[source.width - 1], count: rect.maxX - rightStart)
            }
        }
    }
}
