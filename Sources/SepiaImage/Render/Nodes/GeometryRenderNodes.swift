/// Limits its input to a rectangle; transparent elsewhere. The extent is the intersection.
final class CropRenderNode: RenderNode, @unchecked Sendable {
    init(input: RenderNode, rect: IntRect) {
        super.init(extent: input.extent.intersection(rect), inputs: [input])
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view, scratch: scratch)
    }
}

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

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        try inputs[0].produce(into: view.relabeled(dx: -dx, dy: -dy), scratch: scratch)
    }
}

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
