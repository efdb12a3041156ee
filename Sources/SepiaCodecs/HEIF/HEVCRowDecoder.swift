import Dispatch
import Foundation
import SepiaImage

/// Decodes an 8-bit HEVC-coded HEIF image without alpha (``HEVCImageLayout``) straight through libde265, tile
/// by tile on every core, and makes upright RGB rows on demand, reduced by `scale` (1, 2, 4 or 8).
///
/// The reduction averages Y′, Cb and Cr over each block before the colour conversion (the conversion is
/// linear up to its clipping, so this is the average of the block's R′G′B′), which libheif's planar RGB
/// then averaged gave before; at 1/8 only one pixel in 64 is ever converted. The rotation (`irot`) is applied
/// while making rows, and blocks are counted from the corner that becomes the top left, so a partial block
/// ends up at the right and bottom as ``DecodeReduction`` describes. When the bitstream asks for a colour
/// matrix only libheif derives, the image is decoded by ``HEIFPlanarDecoder`` instead.
final class HEVCRowDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat = .rgb8
    let color: SourceColor
    var decodesIncrementally: Bool { true }

    private let source: HEIFSource
    private let layout: HEVCImageLayout
    private let scale: Int
    /// The part of the stored (unrotated) full-size image the render reads; tiles outside it are not decoded.
    private let storedRegion: IntRect
    private var rows: OrientedRows?
    /// Decodes through libheif instead when the bitstream asks for a conversion only libheif makes.
    private let makeFallback: () -> any RowDecoder
    private var fallback: (any RowDecoder)?
    private var nextRow = 0

    /// `scale` is 1, 2, 4 or 8. Only `region` (of the upright image reduced by `scale`) is read; pixels outside
    /// it, by more than a margin, may be left black.
    init(source: HEIFSource, layout: HEVCImageLayout, scale: Int, region: IntRect? = nil) {
        precondition([1, 2, 4, 8].contains(scale))
        self.source = source
        self.layout = layout
        self.scale = scale
        size = source.reduction(scale: scale).size
        color = source.sourceColor
        storedRegion = region.map { Self.storedRegion(of: $0, scale: scale, layout: layout) } ?? IntRect(size: layout.stored)
        makeFallback = { HEIFPlanarDecoder(source: source, scale: scale) }
    }

    /// The stored thumbnail `thumbnail`, whose coded image is `layout`, at its own size.
    init(source: HEIFSource, thumbnail: StoredThumbnail, layout: HEVCImageLayout) {
        self.source = source
        self.layout = layout
        scale = 1
        size = thumbnail.size
        color = thumbnail.color
        storedRegion = IntRect(size: layout.stored)
        makeFallback = { HEIFFrameDecoder(source: source, thumbnail: thumbnail) }
    }

    /// `region` (upright, reduced by `scale`) in the stored full-size image, with a margin of two reduced
    /// pixels so that nothing the render reads is left out.
    static func storedRegion(of region: IntRect, scale: Int, layout: HEVCImageLayout) -> IntRect {
        let shown = layout.displayed
        let x0 = max(0, (region.minX - 2) * scale)
        let y0 = max(0, (region.minY - 2) * scale)
        let x1 = min(shown.width, (region.maxX + 2) * scale)
        let y1 = min(shown.height, (region.maxY + 2) * scale)
        guard x1 > x0, y1 > y0 else { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        let (w, h) = (layout.stored.width, layout.stored.height)
        // The inverse of the rotation made in OrientedRows.row: upright (x, y) comes from stored (sx, sy).
        switch layout.quarterTurns {
        case 1: return IntRect(minX: w - y1, minY: x0, maxX: w - y0, maxY: x1)
        case 2: return IntRect(minX: w - x1, minY: h - y1, maxX: w - x0, maxY: h - y0)
        case 3: return IntRect(minX: y0, minY: h - x1, maxX: y1, maxY: h - x0)
        default: return IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
        }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        if let fallback { return try fallback.readRows(into: buffer, bytesPerRow: bytesPerRow) }
        guard let base = buffer.baseAddress, nextRow < size.height else {
            rows = nil
            return 0
        }
        if rows == nil {
            let file = UnsafeRawBufferPointer(start: source.bytes.base, count: source.bytes.count)
            let decoded: YCbCrPlanes?
            // Below a megapixel (a stored thumbnail) starting threads would cost more than they save.
            let threads = layout.stored.width * layout.stored.height >= 1 << 20 ? ProcessInfo.processInfo.activeProcessorCount : 1
            do {
                decoded = try YCbCrPlanes.decode(layout, file: file, region: storedRegion, threads: threads, format: source.format)
            } catch {
                throw error.naming(source.file)
            }
            guard let decoded else {
                let other = makeFallback()
                fallback = other
                return try other.readRows(into: buffer, bytesPerRow: bytesPerRow)
            }
            rows = OrientedRows(planes: decoded, scale: scale, quarterTurns: layout.quarterTurns, size: size)
        }
        guard let rows else { return 0 }
        let count = min(buffer.count / bytesPerRow, size.height - nextRow)
        // The colour conversion is a tenth of a full-size decode: share it between the cores when there are
        // enough rows to be worth a hand-over (the other render workers wait for these rows anyway).
        let parts = count >= 16 ? min(count / 8, ProcessInfo.processInfo.activeProcessorCount) : 1
        let first = nextRow
        let address = UInt(bitPattern: base)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let base = UnsafeMutableRawPointer(bitPattern: address)!
            let lower = part * count / parts
            let upper = (part + 1) * count / parts
            rows.rows(first + lower..<first + upper, into: base + lower * bytesPerRow, bytesPerRow: bytesPerRow)
        }
        nextRow += count
        if nextRow == size.height { self.rows = nil }
        return count
    }
}

/// Upright R′G′B′ rows from decoded Y′CbCr planes, reduced by a power of two. Rows may be made on several
/// threads at once.
private final class OrientedRows: @unchecked Sendable {
    /// The planes at full size (scale 1), or `nil` once reduced.
    private let planes: YCbCrPlanes?
    private let matrix: YCbCrMatrix
    private let quarterTurns: Int
    /// The stored (unrotated) size of the planes rows are read from.
    private let width: Int
    private let height: Int
    /// Y′, Cb and Cr averaged over each block, times 64 (scale > 1).
    private let reduced: [UInt16]
    /// The width of the rows made.
    private let rowWidth: Int
    /// The conversion of full-size 8-bit samples, in 16.16 fixed point.
    private let tables: ConversionTables?

    init(planes: YCbCrPlanes, scale: Int, quarterTurns: Int, size: IntSize) {
        matrix = planes.matrix ?? YCbCrMatrix(coefficients: 6, primaries: 2, fullRange: true)!
        self.quarterTurns = quarterTurns
        rowWidth = size.width
        tables = scale == 1 ? ConversionTables(matrix) : nil
        if scale == 1 {
            self.planes = planes
            width = planes.width
            height = planes.height
            reduced = []
        } else {
            self.planes = nil
            width = (planes.width + scale - 1) / scale
            height = (planes.height + scale - 1) / scale
            reduced = Self.reduce(planes, scale: scale, quarterTurns: quarterTurns, width: width, height: height)
        }
    }

    /// Averages blocks of `scale`×`scale` pixels (chroma taken at each pixel, as it is upsampled), in bands
    /// of rows on every core. Blocks are anchored at the corner that the rotation turns to the top left.
    private static func reduce(_ planes: YCbCrPlanes, scale: Int, quarterTurns: Int, width: Int, height: Int) -> [UInt16] {
        let shift = scale.trailingZeroBitCount
        let xReversed = quarterTurns == 1 || quarterTurns == 2
        let yReversed = quarterTurns == 2 || quarterTurns == 3
        let ox = xReversed ? (scale - planes.width % scale) % scale : 0
        let oy = yReversed ? (scale - planes.height % scale) % scale : 0
        var out = [UInt16](repeating: 0, count: width * height * 3)
        let bands = min(height, 4 * ProcessInfo.processInfo.activeProcessorCount)
        out.withUnsafeMutableBufferPointer { out in
            let address = UInt(bitPattern: out.baseAddress)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let out = UnsafeMutablePointer<UInt16>(bitPattern: address)!
                var sums = [UInt32](repeating: 0, count: width * 3)
                sums.withUnsafeMutableBufferPointer { sums in
                    let rowsPerBand = (height + bands - 1) / bands
                    for by in (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand) {
                        for i in 0..<(width * 3) { sums[i] = 0 }
                        let y0 = max(0, by * scale - oy)
                        let y1 = min(planes.height, (by + 1) * scale - oy)
                        for sy in y0..<y1 {
                            let l = planes.luma + sy * planes.width
                            let b = planes.cb + (sy >> 1) * planes.chromaWidth
                            let r = planes.cr + (sy >> 1) * planes.chromaWidth
                            for sx in 0..<planes.width {
                                let i = 3 * ((sx + ox) &>> shift)
                                sums[i] &+= UInt32(l[sx])
                                sums[i + 1] &+= UInt32(b[sx >> 1])
                                sums[i + 2] &+= UInt32(r[sx >> 1])
                            }
                        }
                        let rows = UInt32(y1 - y0)
                        let line = out + by * width * 3
                        for bx in 0..<width {
                            let x0 = max(0, bx * scale - ox)
                            let x1 = min(planes.width, (bx + 1) * scale - ox)
                            let n = rows * UInt32(x1 - x0)
                            for c in 0..<3 {
                                line[3 * bx + c] = UInt16((sums[3 * bx + c] &* 64 &+ n / 2) / n)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Upright rows `range` as interleaved 8-bit R′G′B′, `bytesPerRow` apart from `base`.
    func rows(_ range: Range<Int>, into base: UnsafeMutableRawPointer, bytesPerRow: Int) {
        var y = [Float](repeating: 0, count: rowWidth)
        var cb = y
        var cr = y
        for row in range {
            self.row(row, into: (base + (row - range.lowerBound) * bytesPerRow).assumingMemoryBound(to: UInt8.self), &y, &cb, &cr)
        }
    }

    private func row(_ row: Int, into out: UnsafeMutablePointer<UInt8>, _ y: inout [Float], _ cb: inout [Float], _ cr: inout [Float]) {
        let n = rowWidth
        // Where the row starts in the stored planes, and the step from one pixel to the next.
        let (sx0, sy0, dx, dy): (Int, Int, Int, Int)
        switch quarterTurns {
        case 1: (sx0, sy0, dx, dy) = (width - 1 - row, 0, 0, 1)
        case 2: (sx0, sy0, dx, dy) = (width - 1, height - 1 - row, -1, 0)
        case 3: (sx0, sy0, dx, dy) = (row, height - 1, 0, -1)
        default: (sx0, sy0, dx, dy) = (0, row, 1, 0)
        }
        if let planes, let tables {
            tables.convert(planes, width: width, n: n, from: (sx0, sy0), step: (dx, dy), into: out)
            return
        }
        y.withUnsafeMutableBufferPointer { yv in
            cb.withUnsafeMutableBufferPointer { cbv in
                cr.withUnsafeMutableBufferPointer { crv in
                    if let planes {
                        var sx = sx0
                        var sy = sy0
                        for i in 0..<n {
                            let c = (sy >> 1) * planes.chromaWidth + (sx >> 1)
                            yv[i] = Float(planes.luma[sy * width + sx])
                            cbv[i] = Float(planes.cb[c]) - 128
                            crv[i] = Float(planes.cr[c]) - 128
                            sx += dx
                            sy += dy
                        }
                    } else {
                        reduced.withUnsafeBufferPointer { reduced in
                            var at = 3 * (sy0 * width + sx0)
                            let step = 3 * (dy * width + dx)
                            for i in 0..<n {
                                yv[i] = Float(reduced[at]) * (1 / 64)
                                cbv[i] = Float(reduced[at + 1]) * (1 / 64) - 128
                                crv[i] = Float(reduced[at + 2]) * (1 / 64) - 128
                                at += step
                            }
                        }
                    }
                    Self.convert(yv, cbv, crv, matrix: matrix, into: out)
                }
            }
        }
    }

    /// Y′CbCr (chroma centred on 0) to R′G′B′, as libheif 1.15 converts 8-bit pixels.
    private static func convert(
        _ y: UnsafeMutableBufferPointer<Float>, _ cb: UnsafeMutableBufferPointer<Float>, _ cr: UnsafeMutableBufferPointer<Float>,
        matrix: YCbCrMatrix, into out: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func store(_ v: Float, _ i: Int) { out[i] = UInt8(truncatingIfNeeded: Int32(min(max(v, 0), 255) + 0.5)) }
        switch matrix.kind {
        case .identity:
            for i in 0..<y.count {
                var (r, g, b) = (cr[i] + 128, y[i], cb[i] + 128)
                if !matrix.fullRange { (r, g, b) = (r * 219 / 256 + 16, g * 219 / 256 + 16, b * 219 / 256 + 16) }
                store(r, 3 * i)
                store(g, 3 * i + 1)
                store(b, 3 * i + 2)
            }
        case .yCgCo:
            for i in 0..<y.count {
                store(y[i] - cb[i] + cr[i], 3 * i)
                store(y[i] + cb[i], 3 * i + 1)
                store(y[i] - cb[i] - cr[i], 3 * i + 2)
            }
        case .matrix(let rCr, let gCb, let gCr, let bCb):
            if !matrix.fullRange {
                for i in 0..<y.count {
                    y[i] = (y[i] - 16) * 1.1689
                    cb[i] *= 1.1429
                    cr[i] *= 1.1429
                }
            }
            for i in 0..<y.count {
                store(y[i] + rCr * cr[i], 3 * i)
                store(y[i] + gCb * cb[i] + gCr * cr[i], 3 * i + 1)
                store(y[i] + bCb * cb[i], 3 * i + 2)
            }
        }
    }
}

/// The Y′CbCr to R′G′B′ conversion of a matrix (``YCbCrMatrix/Kind/matrix(rCr:gCb:gCr:bCb:)``) for 8-bit
/// samples, one table per term in 16.16 fixed point: the range expansion and the rounding are folded into the
/// luma table. The result is libheif's floating-point conversion within one level at most (at exact halves).
private struct ConversionTables {
    private var luma = [Int32](repeating: 0, count: 256)
    private var rCr = [Int32](repeating: 0, count: 256)
    private var gCb = [Int32](repeating: 0, count: 256)
    private var gCr = [Int32](repeating: 0, count: 256)
    private var bCb = [Int32](repeating: 0, count: 256)

    init?(_ matrix: YCbCrMatrix) {
        guard case .matrix(let r, let gb, let gr, let b) = matrix.kind else { return nil }
        let one: Float = 65536
        for v in 0..<256 {
            let sample = Float(v)
            let y = matrix.fullRange ? sample : (sample - 16) * 1.1689
            let c = matrix.fullRange ? sample - 128 : (sample - 128) * 1.1429
            luma[v] = Int32((y * one + 32768).rounded(.down))
            rCr[v] = Int32((r * c * one).rounded())
            gCb[v] = Int32((gb * c * one).rounded())
            gCr[v] = Int32((gr * c * one).rounded())
            bCb[v] = Int32((b * c * one).rounded())
        }
    }

    /// Converts `n` pixels of the full-size planes, from `start` on by `step`, into interleaved R′G′B′.
    func convert(
        _ planes: YCbCrPlanes, width: Int, n: Int, from start: (x: Int, y: Int), step: (x: Int, y: Int), into out: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func byte(_ v: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(v >> 16, 0), 255)) }
        luma.withUnsafeBufferPointer { luma in
            rCr.withUnsafeBufferPointer { rCr in
                gCb.withUnsafeBufferPointer { gCb in
                    gCr.withUnsafeBufferPointer { gCr in
                        bCb.withUnsafeBufferPointer { bCb in
                            var sx = start.x
                            var sy = start.y
                            for i in 0..<n {
                                let c = (sy >> 1) * planes.chromaWidth + (sx >> 1)
                                let y = luma[Int(planes.luma[sy * width + sx])]
                                let cb = Int(planes.cb[c])
                                let cr = Int(planes.cr[c])
                                out[3 * i] = byte(y &+ rCr[cr])
                                out[3 * i + 1] = byte(y &+ gCb[cb] &+ gCr[cr])
                                out[3 * i + 2] = byte(y &+ bCb[cb])
                                sx += step.x
                                sy += step.y
                            }
                        }
                    }
                }
            }
        }
    }
}
