/// The vertical passes of a box-cascade blur rolling down one chunk of columns.
///
/// A strip rendered on its own must recompute the blur's whole vertical reach above and below it, once per
/// pass. A stream instead keeps, for each pass, a ring of the few rows its window still needs and the running
/// sum that reached them, so consecutive strips asked for in order compute every row of every pass once. The
/// rings hold `2r + 3` rows plus a batch per pass, whatever the image height.
///
/// A row's value does not depend on where the stream started or how its rows were asked for: the running sums
/// restart at fixed anchors (``BlurPlan``) and add the same rows in the same order, so renders are
/// bit-identical for any tiling.
///
/// Not thread-safe: the owner hands a stream to one worker at a time.
final class BoxCascadeStream {
    /// The output columns this stream covers.
    let columns: Range<Int>
    /// The next output row; rows are produced in order from here.
    private(set) var nextRow: Int

    private let passes: [BlurPlan.BoxPass]
    private let width: Int
    /// `rings[k]` holds rows of pass `k`'s input (ring 0: the horizontal pass's output).
    private let rings: [RowRing]
    /// One row of running sums per pass.
    private let sums: UnsafeMutablePointer<SIMD4<Float>>
    /// Where output rows before the first requested one go.
    private let discard: UnsafeMutablePointer<SIMD4<Float>>
    /// `next[k]`: the next row pass `k` outputs.
    private var next: [Int]
    /// Rows of ring 0 filled so far (exclusive upper bound).
    private var filled: Int
    private let firstRow: Int

    /// Rows the horizontal pass produces at a time.
    static let batchRows = 4

    /// A stream whose first output row is `firstRow`.
    init(columns: Range<Int>, passes: [BlurPlan.BoxPass], firstRow: Int) {
        precondition(!passes.isEmpty)
        self.columns = columns
        self.passes = passes
        self.firstRow = firstRow
        nextRow = firstRow
        width = columns.count
        rings = passes.map { RowRing(capacity: 2 * $0.radius + 3 + Self.batchRows, width: columns.count) }
        sums = .allocate(capacity: passes.count * max(1, columns.count))
        discard = .allocate(capacity: max(1, columns.count))

        // Every pass starts on one of its anchors (where its sum restarts), early enough for the next pass.
        var next = [Int](repeating: 0, count: passes.count)
        var start = firstRow
        for k in stride(from: passes.count - 1, through: 0, by: -1) {
            next[k] = passes[k].anchor(before: start)
            start = next[k] - passes[k].radius - 1
        }
        self.next = next
        filled = start
    }

    deinit {
        sums.deallocate()
        discard.deallocate()
    }

    /// Produces output rows `nextRow..<end`, writing row `i` at `out(i)`. `horizontal(rows, view)` must fill
    /// `view` (this stream's columns, rows `rows`, at most ``batchRows``) with the horizontal pass.
    func advance(
        to end: Int, horizontal: (Range<Int>, TileView) throws -> Void, out: (Int) -> UnsafeMutablePointer<SIMD4<Float>>
    ) rethrows {
        let last = passes.count - 1
        // The rows each level must reach for `end`.
        var target = [Int](repeating: end, count: passes.count)
        for k in stride(from: last - 1, through: 0, by: -1) {
            target[k] = target[k + 1] + passes[k + 1].radius + 1
        }
        let target0 = target[0] + passes[0].radius + 1

        while next[last] < end {
            // Ring 0: as far as the target, and no further than pass 0's oldest needed row allows.
            let oldest0 = next[0] - passes[0].radius - 1
            let limit0 = min(target0, oldest0 + rings[0].capacity)
            while filled < limit0 {
                let wrap = rings[0].capacity - RowRing.slot(filled, rings[0].capacity)
                let count = min(Self.batchRows, limit0 - filled, wrap)
                let rows = filled..<(filled + count)
                try horizontal(
                    rows,
                    TileView(
                        rect: IntRect(x: columns.lowerBound, y: filled, width: width, height: count),
                        base: rings[0].row(filled), stride: width))
                filled += count
            }
            for k in 0...last {
                let pass = passes[k]
                let available = k == 0 ? filled : next[k - 1]
                var limit = min(target[k], available - pass.radius - 1)
                if k < last {
                    let oldest = next[k + 1] - passes[k + 1].radius - 1
                    limit = min(limit, oldest + rings[k + 1].capacity)
                }
                guard limit > next[k] else { continue }
                let source = rings[k]
                let output = next[k]..<limit
                let sum = sums + k * width
                if k < last {
                    let ring = rings[k + 1]
                    BlurKernel.boxColumns(
                        rows: { source.row($0) }, output: output, width: width, pass: pass, sum: sum, out: { ring.row($0) })
                } else {
                    let first = firstRow
                    let discard = discard
                    BlurKernel.boxColumns(
                        rows: { source.row($0) }, output: output, width: width, pass: pass, sum: sum,
                        out: { $0 < first ? discard : out($0) })
                }
                next[k] = limit
            }
        }
        nextRow = next[last]
    }
}
