import Foundation
import Synchronization

/// Decodes an ``ImageSource`` on demand and converts its rows into the working space.
///
/// Two ways of holding pixels:
/// - **Row window** (the default when every consumer reads rows roughly top to bottom and the codec decodes
///   incrementally): decoded rows are kept in chunks only while some tile still needs them, so a
///   full-resolution JPEG streams through in a few megabytes.
/// - **Whole frame** (when a consumer reads out of order, as rotations do, or the codec decodes whole frames):
///   the frame is decoded once, in the source's compact format, and read at random.
///
/// Decoding happens on whichever worker first needs rows that are not there yet, under `decoderLock`.
final class SourceRenderNode: RenderNode, @unchecked Sendable {
    let source: any ImageSource
    let scale: Int
    /// Set by the compiler: a consumer reads rows out of order.
    var needsWholeFrame = false
    /// Set by the render job before it starts: the part of ``extent`` its tiles read, which the decoder may
    /// limit its work to. `nil` means all of it.
    var readRegion: IntRect?

    /// Rows per chunk in row-window mode.
    private static let chunkRows = 16

    private let decoderLock = NSLock()
    /// Guarded by `decoderLock`.
    nonisolated(unsafe) private var decoder: (any RowDecoder)?
    private let state = Mutex(State())

    private struct State {
        var converter: SourceRowConverter?
        var bytesPerRow = 0
        var chunks: [Int: RowChunk] = [:]
        var decodedRows = 0
        var lowWater = 0
        var wholeFrame: RowChunk?
        var failure: (any Error)?
    }

    init(source: any ImageSource, scale: Int, extent: IntRect) {
        self.source = source
        self.scale = scale
        super.init(extent: extent, inputs: [])
    }

    /// Every row the requests reach is decoded once (four operations per pixel, times the format's relative
    /// cost), and each request converts its pixels into the working space.
    override func estimatedOperations(for demand: CostDemand) -> Double {
        let decoded = Double(extent.width) * Double(demand.region.height)
        return decoded * 4 * source.reduction(scale: scale).costPerPixel + demand.pixels * 0.5
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        let rows = view.rect.minY..<view.rect.maxY
        let (converter, bytesPerRow, chunks) = try rowChunks(for: rows)
        let bpp = converter.format.bytesPerPixel
        let xOffset = (view.rect.minX - extent.minX) * bpp
        for y in rows {
            let local = y - extent.minY
            let (chunk, firstRow) = chunks.chunk(containing: local)
            let start = chunk.bytes + (local - firstRow) * bytesPerRow + xOffset
            converter.convert(UnsafeRawPointer(start), count: view.rect.width, into: view.row(y))
        }
    }

    /// Ensures rows `rows` (absolute) are decoded and returns what is needed to read them.
    private func rowChunks(for rows: Range<Int>) throws -> (SourceRowConverter, Int, ChunkSet) {
        let needed = rows.upperBound - extent.minY
        let first = rows.lowerBound - extent.minY
        while true {
            let ready: (SourceRowConverter, Int, ChunkSet)? = try state.withLock { s in
                if let failure = s.failure { throw failure }
                guard let converter = s.converter else { return nil }
                if let frame = s.wholeFrame {
                    return (converter, s.bytesPerRow, ChunkSet(whole: frame))
                }
                guard s.decodedRows >= needed else { return nil }
                if first < s.lowWater {
                    throw RenderError.internalInconsistency("row \(first) of a streamed source was requested after it was released")
                }
                let chunkRows = Self.chunkRows
                var set = ChunkSet()
                for index in (first / chunkRows)...((needed - 1) / chunkRows) {
                    guard let chunk = s.chunks[index] else {
                        throw RenderError.internalInconsistency("decoded rows of chunk \(index) are missing")
                    }
                    set.append(chunk, firstRow: index * chunkRows)
                }
                return (converter, s.bytesPerRow, set)
            }
            if let ready { return ready }
            try decode(throughRow: needed)
        }
    }

    /// Decodes until at least `needed` rows (relative) are available.
    private func decode(throughRow needed: Int) throws {
        decoderLock.lock()
        defer { decoderLock.unlock() }
        do {
            try decodeLocked(throughRow: needed)
        } catch {
            state.withLock { s in
                if s.failure == nil { s.failure = error }
            }
            decoder = nil
            throw error
        }
    }

    private func decodeLocked(throughRow needed: Int) throws {
        let available = try state.withLock { s -> Bool in
            // Another worker's decode failed while this one waited for the lock: its error is the answer.
            if let failure = s.failure { throw failure }
            return s.converter != nil && (s.wholeFrame != nil || s.decodedRows >= needed)
        }
        if available { return }
        if decoder == nil {
            let alreadyStarted = state.withLock { $0.converter != nil }
            if alreadyStarted {
                throw RenderError.internalInconsistency("the decoder of a streamed source ended early")
            }
            let made: any RowDecoder
            if let readRegion, readRegion != extent {
                let local = IntRect(
                    x: readRegion.minX - extent.minX, y: readRegion.minY - extent.minY, width: readRegion.width, height: readRegion.height)
                made = try source.makeDecoder(scale: scale, region: local)
            } else {
                made = try source.makeDecoder(scale: scale)
            }
            guard made.size == extent.size else {
                throw RenderError.internalInconsistency(
                    "decoder delivers \(made.size) but the recipe expects \(extent.size) at scale 1/\(scale)")
            }
            let converter = SourceRowConverter(format: made.format, color: made.color)
            let bytesPerRow = made.size.width * made.format.bytesPerPixel
            decoder = made
            state.withLock { s in
                s.converter = converter
                s.bytesPerRow = bytesPerRow
            }
        }
        guard let decoder else { return }
        let bytesPerRow = decoder.size.width * decoder.format.bytesPerPixel
        let height = decoder.size.height

        if needsWholeFrame || !decoder.decodesIncrementally {
            let frame = RowChunk(rows: height, bytesPerRow: bytesPerRow)
            try fill(frame, rows: height, bytesPerRow: bytesPerRow, from: decoder)
            state.withLock { s in
                s.wholeFrame = frame
                s.decodedRows = height
            }
            self.decoder = nil
            return
        }

        var decoded = state.withLock { $0.decodedRows }
        while decoded < needed && decoded < height {
            let rows = min(Self.chunkRows, height - decoded)
            let chunk = RowChunk(rows: rows, bytesPerRow: bytesPerRow)
            try fill(chunk, rows: rows, bytesPerRow: bytesPerRow, from: decoder)
            let index = decoded / Self.chunkRows
            decoded += rows
            let published = decoded
            state.withLock { s in
                s.chunks[index] = chunk
                s.decodedRows = published
            }
        }
        if decoded >= height {
            self.decoder = nil
        }
    }

    private func fill(_ chunk: RowChunk, rows: Int, bytesPerRow: Int, from decoder: any RowDecoder) throws {
        var filled = 0
        while filled < rows {
            let buffer = UnsafeMutableRawBufferPointer(
                start: chunk.bytes + filled * bytesPerRow, count: (rows - filled) * bytesPerRow)
            let got = try decoder.readRows(into: buffer, bytesPerRow: bytesPerRow)
            if got <= 0 {
                throw RenderError.sourceEndedEarly(expectedRows: extent.height, scale: scale)
            }
            filled += got
        }
    }

    /// Releases decoded rows above relative row `row`: no remaining tile needs them.
    func releaseRows(below row: Int) {
        let chunkRows = Self.chunkRows
        state.withLock { s in
            guard row > s.lowWater else { return }
            s.lowWater = row
            for index in s.chunks.keys where (index + 1) * chunkRows <= row {
                s.chunks[index] = nil
            }
        }
    }

    /// Releases everything; the node will not be read again.
    func releaseAll() {
        decoderLock.lock()
        decoder = nil
        decoderLock.unlock()
        state.withLock { s in
            s.chunks = [:]
            s.wholeFrame = nil
        }
    }
}

/// Decoded rows in the source's own format.
///
/// Sendable: the bytes are written once by the decoding worker before the chunk is published, and only read
/// afterwards.
final class RowChunk: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    let count: Int

    init(rows: Int, bytesPerRow: Int) {
        count = max(1, rows * bytesPerRow)
        bytes = .allocate(capacity: count)
    }

    deinit {
        bytes.deallocate()
    }
}

/// The chunks covering the rows a tile reads.
private struct ChunkSet {
    private var chunks: [(RowChunk, Int)] = []

    init() {}

    init(whole: RowChunk) {
        chunks = [(whole, 0)]
    }

    mutating func append(_ chunk: RowChunk, firstRow: Int) {
        chunks.append((chunk, firstRow))
    }

    func chunk(containing row: Int) -> (RowChunk, Int) {
        var result = chunks[0]
        for entry in chunks where entry.1 <= row {
            result = entry
        }
        return result
    }
}
