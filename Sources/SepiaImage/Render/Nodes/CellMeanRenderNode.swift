import Foundation

/// Runs a ``CellMeanKernel`` whose cells are large next to the pieces the renderer asks for.
///
/// As an ``AreaRenderNode`` the node would produce each piece's region of interest: for cells of 200 pixels
/// some 60 times the piece, all of it (and everything before it in the recipe) computed again for the next
/// piece. Instead it sums the cells in one pass down its input, full rows at a time, and keeps each cell's
/// running sum until the rows below have passed it: its input is produced once, in order (so the blurs before
/// it stream), and a piece is its cells' means. The sums add the same pixels in the same order as the kernel
/// (row by row, left to right), so the pixels are the same.
///
/// Workers produce the rows of different bands at once and add them to the sums in order. A request the pass
/// cannot serve (above where it started, or whose cells were let go) is rendered as an ``AreaRenderNode``.
final class CellMeanRenderNode: AreaRenderNode, @unchecked Sendable {
    private let cells: any CellMeanKernel
    /// Whether the pass pays: a typical piece's region of interest is many times the piece.
    let streams: Bool
    /// The input columns the pass reads: the region of interest of full rows.
    private let columns: Range<Int>

    /// Rows of input produced at a time, in pieces as wide as the renderer's.
    private static let bandRows = 32
    private static let pieceWidth = 512

    /// Set by the render job before it starts: what it asks of this node, so the pass starts where the first
    /// tile's region of interest does and reads no further than the last one's.
    var plannedRegion: IntRect?

    private let condition = NSCondition()
    /// Guarded by `condition`.
    nonisolated(unsafe) private var pass = Pass()

    private struct Pass {
        var started = false
        /// The rows the pass reads.
        var rows: Range<Int> = 0..<0
        /// Rows below this are produced or being produced.
        var claimedTo = 0
        /// Rows below this are added to the sums.
        var summedTo = 0
        /// The cells whose pixels all lie above this row were let go.
        var releasedBelow = Int.min
        /// Rows kept behind `summedTo`: cells with a pixel this close are kept.
        var keepRows = 0
        var sums: [SIMD2<Int>: CellSum] = [:]
        /// Why a band could not be produced: the pass cannot go on, and every request waiting for it fails so.
        var failure: (any Error)?
    }

    private struct CellSum {
        var sum: SIMD4<Float>
        var count: Int
        var lastRow: Int
    }

    init(input: RenderNode, kernel: any CellMeanKernel, extent: IntRect) {
        cells = kernel
        let middle = IntRect(x: extent.minX + extent.width / 2, y: extent.minY + extent.height / 2, width: 0, height: 0)
        let piece = IntRect(x: middle.minX, y: middle.minY, width: Self.pieceWidth, height: 64)
        let typical = kernel.regionOfInterest(for: piece)
        let roi = kernel.regionOfInterest(for: IntRect(x: extent.minX, y: middle.minY, width: extent.width, height: 1))
        columns = roi.minX..<max(roi.minX, roi.maxX)
        streams = !extent.isInfinite && !extent.isEmpty && Double(typical.width) * Double(typical.height) >= 2 * Double(piece.area)
        super.init(input: input, kernel: kernel, extent: extent)
    }

    // Slots: 0 the region of interest (as an area node), 1 a band of input.
    override var scratchSlots: Int { 2 }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let roi = cells.regionOfInterest(for: view.rect)
        guard streams, !roi.isEmpty, try sumCells(for: view.rect, through: roi, scratch: scratch) else {
            try super.render(into: view, scratch: scratch)
            return
        }
        let rect = view.rect
        // The cells outside the lock (a crystallize's are costly), their means inside it.
        var owners = [SIMD2<Int>](repeating: .zero, count: rect.width)
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX { owners[x - rect.minX] = cells.cell(x: x, y: y) }
            condition.lock()
            let released = pass.releasedBelow > rect.minY
            if !released {
                let row = view.row(y)
                for i in 0..<rect.width {
                    let cell = pass.sums[owners[i]]
                    row[i] = cell.map { $0.count > 0 ? $0.sum / Float($0.count) : .zero } ?? .zero
                }
            }
            condition.unlock()
            if released {
                try super.render(into: view, scratch: scratch)
                return
            }
        }
    }

    /// Sums every row through the bottom of `roi`, the region of interest of `rect`, producing bands as needed;
    /// false when the pass cannot serve `rect` (it starts below `roi`, or let go of cells `rect` shows).
    private func sumCells(for rect: IntRect, through roi: IntRect, scratch: WorkerScratch) throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if !pass.started {
            let planned = plannedRegion.map { cells.regionOfInterest(for: $0.intersection(extent)) } ?? roi
            let top = min(planned.minY, roi.minY)
            pass.rows = top..<max(top, planned.maxY, roi.maxY)
            pass.claimedTo = top
            pass.summedTo = top
            pass.started = true
        }
        pass.keepRows = max(pass.keepRows, 4 * roi.height)
        guard roi.minY >= pass.rows.lowerBound, roi.maxY <= pass.rows.upperBound, rect.minY >= pass.releasedBelow else { return false }
        while pass.summedTo < roi.maxY {
            if let failure = pass.failure { throw failure }
            guard pass.claimedTo < roi.maxY else {
                condition.wait()
                continue
            }
            let band = pass.claimedTo..<min(pass.claimedTo + Self.bandRows, pass.rows.upperBound)
            pass.claimedTo = band.upperBound
            condition.unlock()
            let produced: (TileView, [SIMD2<Int>])
            do {
                produced = try produce(band, scratch: scratch)
            } catch {
                condition.lock()
                if pass.failure == nil { pass.failure = error }
                condition.broadcast()
                throw error
            }
            condition.lock()
            while pass.summedTo < band.lowerBound && pass.failure == nil { condition.wait() }
            if let failure = pass.failure { throw failure }
            add(produced.0, owners: produced.1)
            pass.summedTo = band.upperBound
            release()
            condition.broadcast()
        }
        return pass.releasedBelow <= rect.minY
    }

    /// The input's rows `band` over the pass's columns, and each pixel's cell.
    private func produce(_ band: Range<Int>, scratch: WorkerScratch) throws -> (TileView, [SIMD2<Int>]) {
        try scratch.checkStopped()
        let rect = IntRect(x: columns.lowerBound, y: band.lowerBound, width: columns.count, height: band.count)
        let view = scratchView(1, rect, scratch)
        var x = rect.minX
        while x < rect.maxX {
            let piece = IntRect(x: x, y: rect.minY, width: min(Self.pieceWidth, rect.maxX - x), height: rect.height)
            try inputs[0].produce(into: view.subview(piece), scratch: scratch)
            x = piece.maxX
        }
        var owners = [SIMD2<Int>](repeating: .zero, count: rect.area)
        var index = 0
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX {
                owners[index] = cells.cell(x: x, y: y)
                index += 1
            }
        }
        return (view, owners)
    }

    /// Adds a band's pixels to their cells' sums, row by row, left to right. Called with the lock held.
    private func add(_ view: TileView, owners: [SIMD2<Int>]) {
        let rect = view.rect
        var index = 0
        for y in rect.minY..<rect.maxY {
            let row = view.row(y)
            var current = owners[index]
            var entry = pass.sums[current] ?? CellSum(sum: .zero, count: 0, lastRow: y)
            for i in 0..<rect.width {
                let owner = owners[index]
                if owner != current {
                    pass.sums[current] = entry
                    current = owner
                    entry = pass.sums[owner] ?? CellSum(sum: .zero, count: 0, lastRow: y)
                }
                entry.sum = entry.sum + row[i]
                entry.count += 1
                entry.lastRow = y
                index += 1
            }
            pass.sums[current] = entry
        }
    }

    /// Lets go of the cells whose pixels all lie more than the kept rows above the summed ones. Called with the
    /// lock held.
    private func release() {
        let below = pass.summedTo - pass.keepRows
        guard below > pass.releasedBelow + pass.keepRows / 2 else { return }
        pass.sums = pass.sums.filter { $0.value.lastRow >= below }
        pass.releasedBelow = below
    }

    // MARK: - Cost

    /// In one pass the input is asked for once, in bands of full rows; otherwise as an area node.
    override func inputDemands(for demand: CostDemand) -> [CostDemand] {
        guard streams else { return super.inputDemands(for: demand) }
        let roi = cells.regionOfInterest(for: demand.region)
        let read = IntRect(minX: columns.lowerBound, minY: roi.minY, maxX: columns.upperBound, maxY: roi.maxY)
        return [
            CostDemand(
                region: read, pixels: CostDemand.area(read), piece: IntSize(width: min(Self.pieceWidth, read.width), height: Self.bandRows))
        ]
    }

    /// Each pixel read finds its cell and is added to it; each output pixel finds its cell and its mean.
    override func estimatedOperations(for demand: CostDemand) -> Double {
        let read = inputDemands(for: demand)[0].pixels
        return (cells.operationsPerCellLookup + 1) * (read + demand.pixels)
    }
}
