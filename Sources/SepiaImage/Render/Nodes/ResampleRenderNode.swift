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

    /// Each input row the horizontal pass reads costs its taps for every output column, and each output pixel
    /// the vertical pass's taps: a quarter of an operation per tap.
    override func estimatedOperations(for demand: CostDemand) -> Double {
        let piece = demand.typicalPiece
        let rowsRead = Double(inputRegions(for: piece)[0].height)
        let horizontal = demand.requests * rowsRead * Double(piece.width) * Double(self.horizontal.stride)
        let vertical = demand.pixels * Double(self.vertical.stride)
        return 0.25 * (horizontal + vertical)
    }

    override var inputRequestRows: Int? { Self.bandRows }

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
            try scratch.checkStopped()
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
