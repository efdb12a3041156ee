import Foundation
import Synchronization

/// One render in progress: the tiles of the requested region, claimed by pool workers one at a time.
///
/// Streaming output is emitted in tile order by whichever worker completes the next tile due; workers do not
/// run more than a few tiles ahead of the emitted one, which bounds memory. Sources that stream release rows
/// as soon as the oldest unfinished tile no longer needs them.
///
/// Sendable: all mutable state is guarded by `condition`; output memory is written at disjoint places.
final class RenderJob: @unchecked Sendable {
    enum Output {
        case pixels(UnsafeMutablePointer<SIMD4<Float>>)
        case bitmap(UnsafeMutablePointer<UInt8>, Bitmap.Layout)
        case stream(Bitmap.Layout, any RowSink)
    }

    let graph: RenderGraph
    let region: IntRect
    let tiles: [IntRect]
    let output: Output
    /// How urgently the task that asked for the render wants it: the pool serves higher priorities first.
    let priority: RenderPriority
    private let background: SIMD3<Float>
    private let opaque: Bool
    private let maxAhead: Int
    /// For each streaming source, the first row (relative to its extent) that tile `i` or any later tile reads.
    private let releaseRows: [(SourceRenderNode, [Int])]

    private let condition = NSCondition()
    /// Set when the job is cancelled or has failed, read by the nodes between bands without the lock.
    private let stopSignal = StopSignal()
    private var nextTile = 0
    private var inFlight = Set<Int>()
    private var failure: (any Error)?
    private var cancelled = false
    private var pending: [Int: [UInt8]] = [:]
    private var nextToEmit = 0
    private var emitting = false
    private var finished = false
    /// The outcome, once finished: a handler registered after that (a job cancelled before it was submitted)
    /// is called with it at once.
    private var outcome: Result<Void, any Error>?
    private var completion: (@Sendable (Result<Void, any Error>) -> Void)?

    init(graph: RenderGraph, region: IntRect, options: RenderOptions, output: Output) {
        self.graph = graph
        self.region = region
        self.output = output
        priority = RenderPriority.current
        background = options.background
        opaque = graph.root.extent.contains(region) && graph.isOpaque
        maxAhead = 2 * options.threadCount + 2

        var tiles: [IntRect] = []
        let tileHeight = options.tileHeight ?? graph.nodes.compactMap(\.preferredTileHeight).max() ?? 64
        let tileWidth: Int
        if case .stream = output {
            tileWidth = region.width
        } else {
            tileWidth = options.tileWidth ?? region.width
        }
        var y = region.minY
        while y < region.maxY {
            let h = min(tileHeight, region.maxY - y)
            var x = region.minX
            while x < region.maxX {
                let w = min(tileWidth, region.maxX - x)
                tiles.append(IntRect(x: x, y: y, width: w, height: h))
                x += w
            }
            y += h
        }
        self.tiles = tiles

        // What each source is read for, all tiles together: a decoder may skip the rest (a crop's tiles).
        let wanted = graph.regions(for: region)
        for source in graph.sources {
            let unread = IntRect(x: source.extent.minX, y: source.extent.minY, width: 0, height: 0)
            source.readRegion = wanted[ObjectIdentifier(source)]?.intersection(source.extent) ?? unread
        }
        // And each pass down a node's input (a cell mean's), where it starts and ends.
        for node in graph.nodes {
            (node as? CellMeanRenderNode)?.plannedRegion = wanted[ObjectIdentifier(node)]
        }

        var release: [(SourceRenderNode, [Int])] = []
        if !graph.streamingSources.isEmpty {
            var firstRows = graph.streamingSources.map { _ in [Int](repeating: Int.max, count: tiles.count) }
            for (i, tile) in tiles.enumerated() {
                let regions = graph.regions(for: tile)
                for (s, source) in graph.streamingSources.enumerated() {
                    if let r = regions[ObjectIdentifier(source)]?.intersection(source.extent), !r.isEmpty {
                        firstRows[s][i] = r.minY - source.extent.minY
                    }
                }
            }
            for (s, source) in graph.streamingSources.enumerated() {
                var suffix = firstRows[s]
                if suffix.count > 1 {
                    for i in stride(from: suffix.count - 2, through: 0, by: -1) {
                        suffix[i] = min(suffix[i], suffix[i + 1])
                    }
                }
                release.append((source, suffix))
            }
        }
        releaseRows = release
    }

    /// Registers the completion handler; call before the job is submitted. A job that has finished already
    /// (cancelled before it started) calls it at once.
    func onCompletion(_ handler: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        condition.lock()
        guard let outcome else {
            completion = handler
            condition.unlock()
            return
        }
        condition.unlock()
        handler(outcome)
    }

    /// Stops claiming tiles; the job completes with ``RenderError/cancelled``.
    func cancel() {
        stopSignal.raise()
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        finishIfDone()
    }

    /// Whether the job has ended (its completion handler called or ready to be): a worker may still hold it for a
    /// moment before taking it off the pool's queue.
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Whether no tile is left to claim.
    var isExhausted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return failure != nil || cancelled || nextTile >= tiles.count
    }

    /// Renders tiles until none is left, or until `leave` says, between two tiles, that the worker is wanted
    /// elsewhere; called by each pool worker.
    func work(until leave: () -> Bool = { false }) {
        let stop = stopSignal
        let scratch = WorkerScratch(slots: graph.scratchSlotCount, shouldStop: { stop.isRaised })
        let tileStorage = TileStorage(capacity: min(tiles.first?.area ?? 1, Self.pieceWidth * 64))
        while !leave(), let index = claim() {
            var rows: [UInt8]?
            do {
                rows = try compute(index, scratch: scratch, storage: tileStorage)
            } catch {
                record(error)
            }
            complete(index, rows: rows)
        }
    }

    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if failure != nil || cancelled || nextTile >= tiles.count { return nil }
            if case .stream = output, nextTile >= nextToEmit + maxAhead {
                condition.wait()
                continue
            }
            let index = nextTile
            nextTile += 1
            inFlight.insert(index)
            return index
        }
    }

    /// Columns computed at a time inside a tile: the working-space pixels of one piece stay a few megabytes
    /// even for tall, wide strips.
    private static let pieceWidth = 512

    private func compute(_ index: Int, scratch: WorkerScratch, storage: TileStorage) throws -> [UInt8]? {
        let tile = tiles[index]
        var bytes: [UInt8] = []
        var layout = Bitmap.Layout.rgb
        if case .stream(let streamLayout, _) = output {
            layout = streamLayout
            bytes = [UInt8](repeating: 0, count: tile.area * layout.channels)
        }
        var x = tile.minX
        while x < tile.maxX {
            let piece = IntRect(x: x, y: tile.minY, width: min(Self.pieceWidth, tile.maxX - x), height: tile.height)
            storage.reserve(piece.area)
            let view = TileView(rect: piece, base: storage.base, stride: piece.width)
            try graph.root.produce(into: view, scratch: scratch)
            try deliver(view, tile: tile, bytes: &bytes, layout: layout)
            x += piece.width
        }
        if case .stream = output { return bytes }
        return nil
    }

    /// Copies or encodes a computed piece of `tile` into the output.
    private func deliver(_ view: TileView, tile: IntRect, bytes: inout [UInt8], layout: Bitmap.Layout) throws {
        let rect = view.rect
        switch output {
        case .pixels(let base):
            for y in rect.minY..<rect.maxY {
                let offset = (y - region.minY) * region.width + (rect.minX - region.minX)
                let row = base + offset
                row.update(from: view.row(y), count: rect.width)
                // An opaque image's alpha is exactly 1; resampling weights can sum to 1 ± 1 ulp.
                if opaque { for x in 0..<rect.width { row[x][3] = 1 } }
            }
        case .bitmap(let base, let layout):
            let channels = layout.channels
            SRGB.encodeTable.withUnsafeBufferPointer { table in
                guard let table = table.baseAddress else { return }
                for y in rect.minY..<rect.maxY {
                    let offset = ((y - region.minY) * region.width + (rect.minX - region.minX)) * channels
                    OutputRowEncoder.encode(
                        view.row(y), count: rect.width, layout: layout, opaque: opaque, background: background,
                        table: table, into: base + offset)
                }
            }
        case .stream:
            let channels = layout.channels
            let rowBytes = tile.width * channels
            SRGB.encodeTable.withUnsafeBufferPointer { table in
                bytes.withUnsafeMutableBufferPointer { out in
                    guard let table = table.baseAddress, let out = out.baseAddress else { return }
                    for y in rect.minY..<rect.maxY {
                        OutputRowEncoder.encode(
                            view.row(y), count: rect.width, layout: layout, opaque: opaque, background: background,
                            table: table, into: out + (y - tile.minY) * rowBytes + (rect.minX - tile.minX) * channels)
                    }
                }
            }
        }
    }

    /// Keeps the first error and stops the other workers. The error is kept before they are told to stop: a worker
    /// stopped in the middle of a band throws ``RenderError/cancelled``, and that must not be the error kept when a
    /// decoder failed (under AddressSanitizer's slowness a damaged TIFF's render once ended "cancelled" this way).
    private func record(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
        stopSignal.raise()
    }

    private func complete(_ index: Int, rows: [UInt8]?) {
        condition.lock()
        inFlight.remove(index)
        if let rows { pending[index] = rows }
        releaseSourceRows()
        if case .stream(_, let sink) = output, !emitting {
            emitting = true
            while failure == nil && !cancelled, let next = pending.removeValue(forKey: nextToEmit) {
                condition.unlock()
                var writeError: (any Error)?
                do {
                    try sink.write(rows: next, rowCount: tiles[nextToEmit].height)
                } catch {
                    writeError = error
                }
                condition.lock()
                if let writeError, failure == nil { failure = writeError }
                nextToEmit += 1
                condition.broadcast()
            }
            emitting = false
        }
        condition.broadcast()
        condition.unlock()
        finishIfDone()
    }

    /// Called with `condition` held.
    private func releaseSourceRows() {
        guard !releaseRows.isEmpty else { return }
        let oldest = inFlight.min() ?? nextTile
        for (source, firstRows) in releaseRows {
            if oldest >= firstRows.count {
                source.releaseAll()
            } else if firstRows[oldest] != Int.max {
                source.releaseRows(below: firstRows[oldest])
            }
        }
    }

    private func finishIfDone() {
        condition.lock()
        guard !finished, inFlight.isEmpty, !emitting else {
            condition.unlock()
            return
        }
        let result: Result<Void, any Error>
        if let failure {
            result = .failure(failure)
        } else if cancelled {
            result = .failure(RenderError.cancelled)
        } else if nextTile >= tiles.count {
            if case .stream = output, nextToEmit < tiles.count {
                condition.unlock()
                return
            }
            result = .success(())
        } else {
            condition.unlock()
            return
        }
        finished = true
        outcome = result
        let handler = completion
        completion = nil
        condition.unlock()
        for source in graph.sources { source.releaseAll() }
        if graph.sources.contains(where: { $0.extent.area >= FreedMemory.minimumSourcePixels }) { FreedMemory.returnToSystem() }
        handler?(result)
    }
}

/// A flag raised once, read without a lock.
private final class StopSignal: Sendable {
    private let flag = Atomic(false)

    func raise() { flag.store(true, ordering: .releasing) }

    var isRaised: Bool { flag.load(ordering: .acquiring) }
}
