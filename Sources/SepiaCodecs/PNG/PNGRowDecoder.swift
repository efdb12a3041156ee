internal import CIsal
import SepiaImage

/// Streams the rows of a plain PNG — 8-bit grey, grey + alpha, RGB or RGBA, not interlaced, no tRNS, no gamma
/// to correct — straight from the file's IDAT chunks: the data is inflated a window of rows ahead and each row
/// is unfiltered against the one before. Most photos saved as PNG are of this kind, and for them libpng's
/// simplified API (which decodes whole frames) would hold the full image, a 72 MB frame for 24 MP, where this
/// holds about 256 kB.
///
/// The inflate is ISA-L's (`isal_inflate`, streaming, zlib wrapper): on photos it takes 0.6× the time of
/// zlib's, whose inflate was a third of the CPU of a batch of PNG thumbnails.
///
/// It checks what libpng checks: every IDAT chunk's CRC before its data is used, the filter type of every row,
/// the zlib stream's own checksum (Adler-32) when the stream ends, and that the data holds every row. An error
/// in the data is reported at the row it damages: the rows before it are delivered first.
final class PNGRowDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat
    let color: SourceColor
    var decodesIncrementally: Bool { true }

    private let source: PNGSource
    /// The IDAT chunks: where each one's type starts (its CRC covers type and data), and its data.
    private let chunks: [(typeStart: Int, data: Range<Int>)]
    private let channels: Int
    private let stream: UnsafeMutablePointer<inflate_state>
    private var nextChunk = 0
    private var nextRow = 0
    private var previous: [UInt8]
    private var current: [UInt8]
    /// Inflated data not yet made into rows: `window[windowStart..<windowEnd]`, each row its filter byte then
    /// its bytes.
    private var window: [UInt8]
    private var windowStart = 0
    private var windowEnd = 0
    /// Set once the zlib stream has ended (its checksum verified) or its data ran out.
    private var streamEnded = false
    /// What stopped the inflate, reported when a row needs data beyond it.
    private var failure: CodecError?

    /// Whether `header` describes a PNG this decoder reads exactly as libpng's simplified API would.
    static func handles(_ header: PNGHeader) -> Bool {
        header.bitDepth == 8 && [0, 2, 4, 6].contains(header.colorType) && !header.interlaced && !header.hasTransparencyChunk
            && header.partialImageData == nil && (header.icc != nil || !header.hasGamma)
            && header.criticalChunks.contains { $0.0 == "IEND" }
    }

    init(source: PNGSource) {
        self.source = source
        let header = source.header
        channels = [0: 1, 2: 3, 4: 2, 6: 4][header.colorType] ?? 3
        format = [1: .gray8, 2: .grayAlpha8, 3: .rgb8, 4: .rgba8][channels] ?? .rgb8
        size = source.pixelSize
        color = source.sourceColor
        chunks = header.criticalChunks.filter { $0.0 == "IDAT" }.map {
            (typeStart: $0.1.lowerBound + 4, data: ($0.1.lowerBound + 8)..<($0.1.upperBound - 4))
        }
        previous = [UInt8](repeating: 0, count: size.width * channels)
        current = previous
        let rowStride = 1 + size.width * channels
        window = [UInt8](repeating: 0, count: rowStride * max(2, (256 << 10) / rowStride))
        stream = .allocate(capacity: 1)
        isal_inflate_init(stream)
        stream.pointee.crc_flag = UInt32(ISAL_ZLIB)
    }

    deinit {
        stream.deallocate()
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let base = buffer.baseAddress, nextRow < size.height else { return 0 }
        do {
            let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
            for r in 0..<rows {
                try readRow()
                let out = base + r * bytesPerRow
                current.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: current.count) }
                if let transform = source.rowTransform {
                    transform.convert(UnsafeRawPointer(out), into: out, count: size.width)
                }
                swap(&previous, &current)
                nextRow += 1
            }
            if nextRow == size.height { try finish() }
            return rows
        } catch let error as CodecError {
            throw error.naming(source.file)
        }
    }

    /// Takes the next row (its filter byte, then its bytes) from the window into `current` and unfilters it.
    private func readRow() throws {
        let stride = 1 + current.count
        if windowEnd - windowStart < stride { try refill(needing: stride) }
        let filter = window[windowStart]
        window.withUnsafeBytes { w in
            current.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: w[(windowStart + 1)..<(windowStart + stride)])) }
        }
        windowStart += stride
        let bpp = channels
        let count = current.count
        try current.withUnsafeMutableBufferPointer { row in
            try previous.withUnsafeBufferPointer { up in
                switch filter {
                case 0: break
                case 1:
                    for i in bpp..<count { row[i] &+= row[i - bpp] }
                case 2:
                    for i in 0..<count { row[i] &+= up[i] }
                case 3:
                    for i in 0..<min(bpp, count) { row[i] &+= up[i] >> 1 }
                    for i in bpp..<count { row[i] &+= UInt8((Int(row[i - bpp]) + Int(up[i])) >> 1) }
                case 4:
                    for i in 0..<min(bpp, count) { row[i] &+= up[i] }
                    for i in bpp..<count {
                        let a = Int(row[i - bpp]), b = Int(up[i]), c = Int(up[i - bpp])
                        let p = a + b - c
                        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        row[i] &+= UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
                    }
                default:
                    throw CodecError(.corruptData, format: .png, "row \(nextRow) has an unknown filter type (\(filter))")
                }
            }
        }
    }

    /// Moves what is left of the window to its start and inflates until it is full or the stream stops; throws
    /// if the next row (`stride` bytes) is still not all there.
    private func refill(needing stride: Int) throws(CodecError) {
        let left = windowEnd - windowStart
        if left > 0 && windowStart > 0 {
            window.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + windowStart, byteCount: left) }
        }
        windowStart = 0
        windowEnd = left
        inflate()
        if windowEnd >= stride { return }
        throw failure ?? CodecError(.truncatedData, format: .png, "the image data ends after \(nextRow) of \(size.height) rows")
    }

    /// Inflates into the free part of the window, feeding the stream IDAT data (each chunk's CRC checked first),
    /// until the window is full, the stream ends, or an error stops it (kept in `failure`).
    private func inflate() {
        guard !streamEnded, failure == nil else { return }
        let rowStride = 1 + current.count
        window.withUnsafeMutableBytes { w in
            stream.pointee.next_out = w.baseAddress!.assumingMemoryBound(to: UInt8.self) + windowEnd
            stream.pointee.avail_out = UInt32(w.count - windowEnd)
            while stream.pointee.avail_out > 0 {
                if stream.pointee.avail_in == 0 {
                    do throws(CodecError) {
                        guard try feed() else {
                            // No end marker within the data: what was inflated is all there is.
                            streamEnded = true
                            break
                        }
                    } catch {
                        failure = error
                        break
                    }
                }
                let status = isal_inflate(stream)
                if status != ISAL_DECOMP_OK {
                    let row = Int(stream.pointee.total_out) / rowStride
                    let place = row < size.height ? "at row \(row)" : "after the last row"
                    failure = CodecError(.corruptData, format: .png, "corrupt image data \(place): \(Self.message(status))")
                    break
                }
                if stream.pointee.block_state == ISAL_BLOCK_FINISH {
                    streamEnded = true
                    break
                }
            }
            windowEnd = w.count - Int(stream.pointee.avail_out)
        }
    }

    /// Gives the stream the next IDAT chunk's data after checking its CRC; false when there is none left.
    private func feed() throws(CodecError) -> Bool {
        while nextChunk < chunks.count {
            let chunk = chunks[nextChunk]
            nextChunk += 1
            let bytes = source.bytes.base.assumingMemoryBound(to: UInt8.self)
            let computed = crc32_gzip_refl(0, bytes + chunk.typeStart, UInt64(chunk.data.upperBound - chunk.typeStart))
            let c = chunk.data.upperBound
            let stored = UInt32(bytes[c]) << 24 | UInt32(bytes[c + 1]) << 16 | UInt32(bytes[c + 2]) << 8 | UInt32(bytes[c + 3])
            guard computed == stored else { throw CodecError(.corruptData, format: .png, "IDAT: CRC error") }
            if chunk.data.isEmpty { continue }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes + chunk.data.lowerBound)
            stream.pointee.avail_in = UInt32(chunk.data.count)
            return true
        }
        return false
    }

    /// After the last row: the zlib stream must end cleanly, its Adler-32 checksum checked there. Data after
    /// the rows is ignored, as libpng ignores it; so is a stream whose data stops after the last row.
    private func finish() throws(CodecError) {
        // Inflate on (into the window, whose rows are all used) until the stream ends, errs or runs out.
        var rounds = 0
        while !streamEnded && failure == nil && rounds < 2 {
            windowStart = 0
            windowEnd = 0
            inflate()
            rounds += 1  // a window past the last row is more data than rows: ignored
        }
        if let failure { throw failure }
    }

    private static func message(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: return "invalid block"
        case ISAL_INVALID_SYMBOL: return "invalid code"
        case ISAL_INVALID_LOOKBACK: return "invalid distance too far back"
        case ISAL_INVALID_WRAPPER: return "incorrect header check"
        case ISAL_UNSUPPORTED_METHOD: return "unknown compression method"
        case ISAL_INCORRECT_CHECKSUM: return "incorrect data check"
        case ISAL_NEED_DICT: return "need dictionary"
        default: return "inflate status \(status)"
        }
    }
}
