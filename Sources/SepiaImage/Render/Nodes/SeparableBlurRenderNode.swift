import Foundation

/// A separable blur: along x, then along y, in column chunks so the intermediate stays cache-sized.
///
/// For each chunk of output columns the node produces its input a few rows at a time, blurs each row
/// horizontally, then blurs the result vertically into the output. Box cascades asked for strip after strip
/// (a streamed render) roll down each chunk with a ``BoxCascadeStream``, so every row of every pass is computed
/// once and only a few rows per pass are held; any other request (a strip out of order, a kernel plan) blurs
/// its rectangle on its own, recomputing the vertical reach. Both give the same pixels.
final class SeparableBlurRenderNode: RenderNode, @unchecked Sendable {
    let plan: BlurPlan
    private let kernelWeights: [Float]

    /// Output columns per chunk (a multiple of the anchor, so chunks start at anchors).
    private static let chunkWidth = 512
    /// Input rows produced at a time.
    private static let bandRows = BoxCascadeStream.batchRows

    /// The rolling stream of each chunk (keyed by its columns), and the workers waiting for one.
    private let streamLock = NSCondition()
    /// Guarded by `streamLock`.
    nonisolated(unsafe) private var streams: [Range<Int>: StreamEntry] = [:]

    private final class StreamEntry {
        var stream: BoxCascadeStream
        /// While a worker advances the stream: the row it advances to.
        var busyUntil: Int?
        /// First rows of the strips waiting for this stream.
        var waiting: [Int] = []

        init(stream: BoxCascadeStream, busyUntil: Int) {
            self.stream = stream
            self.busyUntil = busyUntil
        }
    }

    init(input: RenderNode, plan: BlurPlan, extent: IntRect) {
        self.plan = plan
        if case .kernel(let w) = plan { kernelWeights = w } else { kernelWeights = [1] }
        super.init(extent: extent, inputs: [input])
    }

    // Slots: 0 input band, 1 intermediate (kernel plans), 2 and 3 line buffers, 4 running sums.
    override var scratchSlots: Int { 5 }

    /// Short strips for box cascades: their streams carry the vertical reach from strip to strip, so a strip
    /// costs nothing extra, and short strips keep the rows in flight (the source's and the output's) few.
    override var preferredTileHeight: Int? {
        if case .boxes = plan { return 32 }
        return nil
    }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let xs = plan.inputRange(for: rect.minX..<rect.maxX)
        let ys = plan.inputRange(for: rect.minY..<rect.maxY)
        return [IntRect(minX: xs.lowerBound, minY: ys.lowerBound, maxX: xs.upperBound, maxY: ys.upperBound)]
    }

    // MARK: - Cost

    override var inputRequestRows: Int? { Self.bandRows }

    /// The input pixels the blur reads for `demand`, and the input columns of one chunk. A box cascade streams
    /// down each chunk of columns: it reads the chunk's columns, widened by the reach, over the region's rows and
    /// the reach above and below, once for each time the region is asked for (a consumer that asks again, or
    /// overlapping pieces, count again). An exact kernel reads each request's own rows and its vertical reach.
    private func inputRead(for demand: CostDemand) -> (pixels: Double, chunkColumns: Int) {
        let region = demand.region
        let streams: Bool
        if case .boxes = plan { streams = true } else { streams = false }
        let piece = streams ? region : demand.typicalPiece
        let requests = streams ? max(1, demand.pixels / max(1, CostDemand.area(region))) : demand.requests
        let firstChunk = BlurPlan.floorDiv(piece.minX, Self.chunkWidth)
        let lastChunk = BlurPlan.floorDiv(piece.maxX - 1, Self.chunkWidth)
        let chunks = lastChunk - firstChunk + 1
        let chunkStart = firstChunk * Self.chunkWidth
        let chunkColumns = plan.inputRange(for: chunkStart..<(chunkStart + Self.chunkWidth)).count
        let widening = chunkColumns - Self.chunkWidth
        let columns = Double(piece.width) + Double(chunks) * Double(widening)
        let rows = Double(plan.inputRange(for: piece.minY..<piece.maxY).count)
        return (requests * columns * rows, chunkColumns)
    }

    override func inputDemands(for demand: CostDemand) -> [CostDemand] {
        let read = inputRead(for: demand)
        let whole = inputRegions(for: demand.region)[0]
        let inside = CostDemand.area(whole.intersection(inputs[0].extent)) / max(1, CostDemand.area(whole))
        return [CostDemand(region: whole, pixels: read.pixels * inside, piece: IntSize(width: read.chunkColumns, height: Self.bandRows))]
    }

    /// Per pixel read, each pass along x and, on the chunk's own columns, along y: a running sum plus, every
    /// 64 pixels, the box's whole width summed again (a quarter of an operation per addition).
    override func estimatedOperations(for demand: CostDemand) -> Double {
        let read = inputRead(for: demand)
        let vertical = Double(Self.chunkWidth) / Double(read.chunkColumns)
        let perPixel: Double
        switch plan {
        case .boxes(let passes):
            perPixel = passes.reduce(0) { $0 + 1 + Double(2 * $1.radius + 1) / Double(BlurPlan.anchor) }
        case .kernel(let weights):
            perPixel = Double(2 * weights.count - 1)
        }
        return 0.25 * perPixel * read.pixels * (1 + vertical)
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
        let xOffset = columns.lowerBound - view.rect.minX
        switch plan {
        case .boxes(let passes):
            // The chunk's shared stream when this strip continues it; otherwise a stream of its own, which
            // recomputes the reach above the strip.
            let shared = claimStream(columns: columns, rows: rows, passes: passes)
            let stream = shared ?? BoxCascadeStream(columns: columns, passes: passes, firstRow: rows.lowerBound)
            do {
                try stream.advance(
                    to: rows.upperBound,
                    horizontal: { try horizontalRows($0, columns: columns, into: $1, scratch: scratch) },
                    out: { view.row($0) + xOffset })
            } catch {
                if shared != nil { returnStream(columns: columns, failed: true) }
                throw error
            }
            if shared != nil { returnStream(columns: columns, failed: false) }
        case .kernel(let w):
            // Small kernels: the whole strip with its reach, horizontal into an intermediate, then vertical.
            let ys = plan.inputRange(for: rows)
            let middle = scratchView(1, IntRect(x: columns.lowerBound, y: ys.lowerBound, width: columns.count, height: ys.count), scratch)
            var bandStart = ys.lowerBound
            while bandStart < ys.upperBound {
                let bandRows = bandStart..<min(bandStart + Self.bandRows, ys.upperBound)
                try horizontalRows(bandRows, columns: columns, into: middle, scratch: scratch)
                bandStart = bandRows.upperBound
            }
            let radius = w.count - 1
            kernelWeights.withUnsafeBufferPointer { weights in
                guard let weights = weights.baseAddress else { return }
                for y in rows {
                    BlurKernel.kernelColumns(
                        rows: { middle.row($0) }, row: y, width: columns.count, weights: weights, radius: radius,
                        into: view.row(y) + xOffset)
                }
            }
        }
    }

    /// Fills rows `rows` (at most ``bandRows``) of `target`, for the chunk's columns, with the horizontal pass.
    private func horizontalRows(_ rows: Range<Int>, columns: Range<Int>, into target: TileView, scratch: WorkerScratch) throws {
        try scratch.checkStopped()
        let xs = plan.inputRange(for: columns)
        let band = scratchView(0, IntRect(x: xs.lowerBound, y: rows.lowerBound, width: xs.count, height: rows.count), scratch)
        try inputs[0].produce(into: band, scratch: scratch)
        let lineA = scratchView(2, IntRect(x: xs.lowerBound, y: 0, width: xs.count, height: Self.bandRows), scratch)
        let lineB = scratchView(3, IntRect(x: xs.lowerBound, y: 0, width: xs.count, height: Self.bandRows), scratch)
        let sums = scratchView(4, IntRect(x: 0, y: 0, width: max(columns.count, Self.bandRows), height: 1), scratch)
        horizontal(band: band, output: columns, into: target, rows: rows, lines: (lineA, lineB), sums: sums.base)
    }

    /// The shared stream that continues at `rows.lowerBound` for `columns`, now owned by the caller; `nil` when
    /// the strip must be blurred on its own (the stream is already past it).
    ///
    /// A strip waits while the stream is advancing to its first row, or while another waiting strip continues
    /// it on the way there; otherwise a stream that has fallen behind (a strip was blurred on its own) starts
    /// again here. No strip waits for one that is not being computed, so this cannot deadlock.
    private func claimStream(columns: Range<Int>, rows: Range<Int>, passes: [BlurPlan.BoxPass]) -> BoxCascadeStream? {
        let start = rows.lowerBound
        streamLock.lock()
        defer { streamLock.unlock() }
        var waited = false
        defer {
            if waited, let entry = streams[columns], let i = entry.waiting.firstIndex(of: start) {
                entry.waiting.remove(at: i)
            }
        }
        while true {
            guard let entry = streams[columns] else {
                let stream = BoxCascadeStream(columns: columns, passes: passes, firstRow: start)
                streams[columns] = StreamEntry(stream: stream, busyUntil: rows.upperBound)
                return stream
            }
            let reached = entry.busyUntil ?? entry.stream.nextRow
            let comingNext = entry.busyUntil == nil && entry.waiting.contains(entry.stream.nextRow)
            if entry.busyUntil == nil && reached == start {
                entry.busyUntil = rows.upperBound
                return entry.stream
            }
            if reached > start {
                return nil
            }
            if entry.busyUntil != nil || comingNext {
                if !waited {
                    entry.waiting.append(start)
                    waited = true
                }
                streamLock.wait()
                continue
            }
            entry.stream = BoxCascadeStream(columns: columns, passes: passes, firstRow: start)
            entry.busyUntil = rows.upperBound
            return entry.stream
        }
    }

    /// Hands a claimed stream back; a failed one is dropped (its rows are incomplete).
    private func returnStream(columns: Range<Int>, failed: Bool) {
        streamLock.lock()
        if let entry = streams[columns] {
            if failed || entry.stream.nextRow >= extent.maxY {
                streams[columns] = nil
            } else {
                entry.busyUntil = nil
            }
        }
        streamLock.broadcast()
        streamLock.unlock()
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
