internal import CZlib
import SepiaImage

/// Streams the rows of a plain PNG — 8-bit grey, grey + alpha, RGB or RGBA, not interlaced, no tRNS, no gamma
/// to correct — straight from the file's IDAT chunks: zlib inflates a row at a time and the row is unfiltered
/// against the one before. Most photos saved as PNG are of this kind, and for them libpng's simplified API
/// (which decodes whole frames) would hold the full image, a 72 MB frame for 24 MP, where this holds two rows.
///
/// It checks what libpng checks: every IDAT chunk's CRC before its data is used, the filter type of every row,
/// the zlib stream's own checksum after the last row, and that the data holds every row.
final class PNGRowDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat
    let color: SourceColor
    var decodesIncrementally: Bool { true }

    private let source: PNGSource
    /// The IDAT chunks: where each one's type starts (its CRC covers type and data), and its data.
    private let chunks: [(typeStart: Int, data: Range<Int>)]
    private let channels: Int
    private var stream = z_stream()
    private var streamReady = false
    private var nextChunk = 0
    private var nextRow = 0
    private var previous: [UInt8]
    private var current: [UInt8]
    private var finished = false

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
    }

    deinit {
        if streamReady { inflateEnd(&stream) }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let base = buffer.baseAddress, nextRow < size.height else { return 0 }
        do {
            if !streamReady {
                guard czlib_inflate_init(&stream) == Z_OK else { throw CodecError(.corruptData, format: .png, "zlib could not start") }
                streamReady = true
            }
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

    /// Inflates the next row (its filter byte, then its bytes) into `current` and unfilters it.
    private func readRow() throws {
        var filter: UInt8 = 0
        try withUnsafeMutableBytes(of: &filter) { try inflate(into: $0) }
        try current.withUnsafeMutableBytes { try inflate(into: $0) }
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

    /// Fills `output` from the zlib stream, feeding it IDAT data (each chunk's CRC checked first).
    private func inflate(into output: UnsafeMutableRawBufferPointer) throws(CodecError) {
        guard let start = output.baseAddress else { return }
        stream.next_out = start.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 { try feed() }
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END && stream.avail_out > 0 {
                throw CodecError(.truncatedData, format: .png, "the image data ends after \(nextRow) of \(size.height) rows")
            }
            if status != Z_OK && status != Z_STREAM_END {
                throw CodecError(.corruptData, format: .png, "corrupt image data at row \(nextRow): \(Self.message(stream, status))")
            }
        }
    }

    /// Gives zlib the next IDAT chunk's data after checking its CRC.
    private func feed() throws(CodecError) {
        while nextChunk < chunks.count {
            let chunk = chunks[nextChunk]
            nextChunk += 1
            let bytes = source.bytes.base.assumingMemoryBound(to: UInt8.self)
            let computed = UInt32(crc32(0, bytes + chunk.typeStart, uInt(chunk.data.upperBound - chunk.typeStart)))
            let c = chunk.data.upperBound
            let stored = UInt32(bytes[c]) << 24 | UInt32(bytes[c + 1]) << 16 | UInt32(bytes[c + 2]) << 8 | UInt32(bytes[c + 3])
            guard computed == stored else { throw CodecError(.corruptData, format: .png, "IDAT: CRC error") }
            if chunk.data.isEmpty { continue }
            stream.next_in = UnsafeMutablePointer(mutating: bytes + chunk.data.lowerBound)
            stream.avail_in = uInt(chunk.data.count)
            return
        }
        throw CodecError(.truncatedData, format: .png, "the image data ends after \(nextRow) of \(size.height) rows")
    }

    /// After the last row: the zlib stream must end cleanly (its Adler-32 checksum is checked there). Data after
    /// its end is ignored, as libpng does.
    private func finish() throws(CodecError) {
        guard !finished else { return }
        finished = true
        var sink = [UInt8](repeating: 0, count: 64)
        while true {
            let status: Int32 = sink.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            if status == Z_STREAM_END { break }
            if status == Z_OK && stream.avail_out == 0 { break }  // more data than rows: ignored
            if status == Z_BUF_ERROR || (status == Z_OK && stream.avail_in == 0) {
                if nextChunk >= chunks.count { break }  // no end marker within the data: the rows are all there
                try feed()
                continue
            }
            if status != Z_OK {
                throw CodecError(.corruptData, format: .png, "corrupt image data after the last row: \(Self.message(stream, status))")
            }
        }
        inflateEnd(&stream)
        streamReady = false
    }

    private static func message(_ stream: z_stream, _ status: Int32) -> String {
        if let msg = stream.msg { return String(cString: msg) }
        return "zlib status \(status)"
    }
}
