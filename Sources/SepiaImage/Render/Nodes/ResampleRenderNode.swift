/// Resizes its input to a new pixel size with a separable Lanczos-3 filter (horizontal pass, then vertical).
final class ResampleRenderNode: RenderNode, @unchecked Sendable {
    private let horizontal: ResampleWeights
    private let vertical: ResampleWeights

    /// `inputSpan` is the input's exact size in its own pixels when its last row or column is a partial block.
    init(input: RenderNode, outputExtent: IntRect, inputSpan: SIMD2<Double>? = nil) {
        let inExtent = input.extent
        horizontal = .lanczos3(
            inputStart: inExtent.minX, inputCount: inExtent.width, inputSpan: inputSpan?.x, outputCount: outputExtent.width)
        vertical = .lanczos3(
            inputStart: inExtent.minY, inputCount: inExtent.height, inputSpan: inputSpan?.y, outputCount: outputExtent.height)
        super.init(extent: outputExtent, inputs: [input])
    }

    override var scratchSlots: Int { 2 }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let xs = horizontal.inputRange(for: (rect.minX - extent.minX)..<(rect.maxX - extent.minX))
        let ys = vertical.inputRange(for: (rect.minY - extent.minY)..<(rect.maxY - extent.minY))
        return [IntRect(minX: xs.lowerBound, minY: ys.lowerBound, maxX: xs.upperBound, maxY: ys.upperBound)]
    }

    /// Input rows are produced a few at a time and resampled horizontally at once, so only the narrow
    /// intermediate (output width × input rows) is held, never the full-width input region.
    private static let bandRows = 8

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let rect = view.rect
        let source = inputRegions(for: rect)[0]

        // Horizontal pass over every input row the tile needs, band by band.
        let middle = scratchView(1, IntRect(x: rect.minX, y: source.minY, width: rect.width, height: source.height), scratch)
        let firstColumn = rect.minX - extent.minX
        var bandStart = source.minY
        while bandStart < source.maxY {
            let bandHeight = min(Self.bandRows, source.maxY - bandStart)
            let band = scratchView(0, IntRect(x: source.minX, y: bandStart, width: source.width, height: bandHeight), scratch)
            try inputs[0].produce(into: band, scratch: scratch)
            horizontal.weights.withUnsafeBufferPointer { w in
                horizontal.starts.withUnsafeBufferPointer { starts in
                    horizontal.counts.withUnsafeBufferPointer { counts in
                        guard let w = w.baseAddress, let starts = starts.baseAddress, let counts = counts.baseAddress else { return }
                        for y in bandStart..<(bandStart + bandHeight) {
                            ResampleKernel.horizontal(
                                band.row(y), srcStart: source.minX, into: middle.row(y), first: firstColumn,
                                count: rect.width, weights: w, starts: starts, counts: counts, stride: horizontal.stride)
                        }
                    }
                }
            }
            bandStart += bandHeight
        }

        // Vertical pass, one output row at a time.
        vertical.weights.withUnsafeBufferPointer { w in
            guard let w = w.baseAddress else { return }
            for y in rect.minY..<rect.maxY {
                let o = y - extent.minY
                ResampleKernel.vertical(
                    rows: middle.row(vertical.starts[o]), rowStride: middle.stride, taps: vertical.counts[o],
                    weights: w + o * vertical.stride, width: rect.width, into: view.row(y))
            }
        }
    }
}

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
