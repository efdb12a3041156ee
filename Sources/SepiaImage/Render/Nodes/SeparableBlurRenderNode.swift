/// A separable blur: along x, then along y, in column chunks so the intermediate stays cache-sized.
///
/// For each chunk of output columns the node produces its input a few rows at a time, blurs each row
/// horizontally into an intermediate as wide as the chunk, then blurs the intermediate vertically into the
/// output.
final class SeparableBlurRenderNode: RenderNode, @unchecked Sendable {
    let plan: BlurPlan
    private let kernelWeights: [Float]

    /// Output columns per chunk (a multiple of the anchor, so chunks start at anchors).
    private static let chunkWidth = 512
    /// Input rows produced at a time.
    private static let bandRows = 8

    init(input: RenderNode, plan: BlurPlan, extent: IntRect) {
        self.plan = plan
        if case .kernel(let w) = plan { kernelWeights = w } else { kernelWeights = [1] }
        super.init(extent: extent, inputs: [input])
    }

    // Slots: 0 input band, 1 and 2 intermediate (ping-pong), 3 and 4 line buffers, 5 running sums.
    override var scratchSlots: Int { 6 }

    /// Tall strips: the blur's vertical reach is recomputed once per strip.
    override var preferredTileHeight: Int? {
        if case .boxes = plan { return 256 }
        return nil
    }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let xs = plan.inputRange(for: rect.minX..<rect.maxX)
        let ys = plan.inputRange(for: rect.minY..<rect.maxY)
        return [IntRect(minX: xs.lowerBound, minY: ys.lowerBound, maxX: xs.upperBound, maxY: ys.upperBound)]
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let rect = view.rect
        var chunkStart = rect.minX
        while chunkStart < rect.maxX {
            let next = (BlurPlan.floorDiv(chunkStart, Self.chunkWidth) + 1) * Self.chunkWidth
            let chunkEnd = min(next, rect.maxX)
            try renderChunk(columns: chunkStart..<chunkEnd, rows: rect.minY..<rect.maxY, into: view, scratch: scratch)
            chunkStart = chunkEnd
        }
    }

    private func renderChunk(columns: Range<Int>, rows: Range<Int>, into view: TileView, scratch: WorkerScratch) throws {
        let xs = plan.inputRange(for: columns)
        let ys = plan.inputRange(for: rows)
        let width = columns.count
        let middle = scratchView(1, IntRect(x: columns.lowerBound, y: ys.lowerBound, width: width, height: ys.count), scratch)

        // Horizontal: every needed row, a band of rows at a time.
        let lineA = scratchView(3, IntRect(x: xs.lowerBound, y: 0, width: xs.count, height: Self.bandRows), scratch)
        let lineB = scratchView(4, IntRect(x: xs.lowerBound, y: 0, width: xs.count, height: Self.bandRows), scratch)
        let sums = scratchView(5, IntRect(x: 0, y: 0, width: max(width, Self.bandRows), height: 1), scratch)
        var bandStart = ys.lowerBound
        while bandStart < ys.upperBound {
            let bandHeight = min(Self.bandRows, ys.upperBound - bandStart)
            let band = scratchView(0, IntRect(x: xs.lowerBound, y: bandStart, width: xs.count, height: bandHeight), scratch)
            try inputs[0].produce(into: band, scratch: scratch)
            horizontal(band: band, output: columns, into: middle, rows: bandStart..<(bandStart + bandHeight), lines: (lineA, lineB), sums: sums.base)
            bandStart += bandHeight
        }

        // Vertical: passes down the columns of the intermediate.
        let other = scratchView(2, IntRect(x: columns.lowerBound, y: ys.lowerBound, width: width, height: ys.count), scratch)
        let xOffset = columns.lowerBound - view.rect.minX
        switch plan {
        case .kernel(let w):
            let radius = w.count - 1
            kernelWeights.withUnsafeBufferPointer { weights in
                guard let weights = weights.baseAddress else { return }
                for y in rows {
                    BlurKernel.kernelColumns(
                        rows: { middle.row($0) }, row: y, width: width, weights: weights, radius: radius,
                        into: view.row(y) + xOffset)
                }
            }
        case .boxes(let passes):
            // Output ranges of each pass, from the last back to the first.
            var ranges: [Range<Int>] = [rows]
            for pass in passes.dropFirst().reversed() {
                ranges.insert(BlurPlan.boxInputRange(for: ranges[0], pass: pass), at: 0)
            }
            var source = middle
            var target = other
            for (k, pass) in passes.enumerated() {
                let last = k == passes.count - 1
                let src = source
                let dst = target
                BlurKernel.boxColumns(
                    rows: { src.row($0) }, output: ranges[k], width: width, pass: pass, sum: sums.base,
                    out: { last ? view.row($0) + xOffset : dst.row($0) })
                swap(&source, &target)
            }
        }
    }

    /// Blurs a band of rows along x, from the band (covering the input columns) into the intermediate's
    /// `output` columns.
    private func horizontal(
        band: TileView, output: Range<Int>, into middle: TileView, rows: Range<Int>, lines: (TileView, TileView),
        sums: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        switch plan {
        case .kernel(let w):
            kernelWeights.withUnsafeBufferPointer { weights in
                guard let weights = weights.baseAddress else { return }
                for y in rows {
                    BlurKernel.kernelLine(
                        band.row(y), srcStart: band.rect.minX, into: middle.row(y), output: output, weights: weights, radius: w.count - 1)
                }
            }
        case .boxes(let passes):
            var ranges: [Range<Int>] = [output]
            for pass in passes.dropFirst().reversed() {
                ranges.insert(BlurPlan.boxInputRange(for: ranges[0], pass: pass), at: 0)
            }
            var src = UnsafePointer(band.row(rows.lowerBound))
            var srcStride = band.stride
            var srcStart = band.rect.minX
            let buffers = [lines.0, lines.1]
            for (k, pass) in passes.enumerated() {
                let last = k == passes.count - 1
                let target = last ? middle.row(rows.lowerBound) : buffers[k % 2].base
                let targetStride = last ? middle.stride : buffers[k % 2].stride
                BlurKernel.boxLines(
                    src, srcStride: srcStride, srcStart: srcStart, into: target, dstStride: targetStride, output: ranges[k],
                    rows: rows.count, pass: pass, sums: sums)
                src = UnsafePointer(target)
                srcStride = targetStride
                srcStart = ranges[k].lowerBound
            }
        }
    }
}
