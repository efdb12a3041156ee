/// A PNG's chunk structure, read without decompressing the image: IHDR, colour chunks, metadata, and the
/// minimal stream (critical chunks only) that is handed to libpng.
struct PNGHeader {
    var width = 0
    var height = 0
    var bitDepth = 0
    var colorType = 0
    var interlaced = false
    var hasTransparencyChunk = false
    var icc: [UInt8]?
    var iccProblem: String?
    var exif: [UInt8]?
    var xmp: [UInt8]?
    var isAnimated = false
    var frameCount = 1
    var hasGamma = false
    var hasSRGBChunk = false
    var problems: [String] = []

    /// Chunks libpng needs, as (type, range of the whole chunk including length and CRC).
    private(set) var criticalChunks: [(String, Range<Int>)] = []
    /// In lenient mode, the data of the last IDAT chunk when the file ends inside it (its CRC, or its data after
    /// earlier image data): it goes to libpng with its CRC computed again, and the image decodes only if the
    /// image data is complete without what is missing.
    private(set) var partialImageData: Range<Int>?
    private(set) var colorChunks: [(String, Range<Int>)] = []

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The largest ICC profile accepted after decompression.
    static let maximumProfileBytes = 4 << 20

    var hasAlpha: Bool { colorType == 4 || colorType == 6 || hasTransparencyChunk }
    var isColor: Bool { colorType == 2 || colorType == 3 || colorType == 6 }

    /// Reads the chunks. A file that ends inside a chunk is refused, except in lenient mode after image data:
    /// then what is complete is kept, the rest ignored with a warning (libpng, libvips and browsers decode such
    /// files when the image data itself is complete).
    static func parse(_ bytes: EncodedBytes, lenient: Bool = false) throws(CodecError) -> PNGHeader {
        let data = bytes.buffer
        guard data.count >= 8, Array(data.prefix(8)) == signature else {
            throw CodecError(.corruptData, format: .png, "the PNG signature is damaged")
        }
        var header = PNGHeader()
        var offset = 8
        var sawIHDR = false
        var sawIDAT = false
        var sawIEND = false
        func be32(_ i: Int) -> Int { Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3]) }
        while offset < data.count {
            guard offset + 8 <= data.count else {
                if lenient && sawIDAT {
                    header.problems.append("the file ends inside a chunk header after the image data; the rest is ignored")
                    break
                }
                throw CodecError(.truncatedData, format: .png, "the file ends inside a chunk header")
            }
            let length = be32(offset)
            let typeBytes = Array(data[(offset + 4)..<(offset + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length >= 0, length <= 0x7FFF_FFFF, typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                throw CodecError(.corruptData, format: .png, "chunk at byte \(offset) has an invalid type or length")
            }
            let end = offset + 12 + length
            guard end <= data.count else {
                // Lenient mode keeps a file cut after its image data: inside a later chunk, inside the CRC of an
                // IDAT chunk whose data is all there, or inside an IDAT chunk after earlier ones (a file whose
                // image data ended before the cut, as writers that flush a last chunk leave it). Whether the image
                // data is complete is then the decoder's to find: a cut inside it is refused there.
                let present = max(0, data.count - offset - 8)
                if lenient && sawIHDR && (type == "IDAT" ? (present >= length || sawIDAT) : sawIDAT) {
                    if type == "IDAT" {
                        header.partialImageData = (offset + 8)..<(offset + 8 + min(length, present))
                        header.problems.append(
                            present >= length
                                ? "the file ends inside the CRC of the last IDAT chunk; the image data is complete"
                                : "the file ends inside the last IDAT chunk (\(length) bytes declared, \(present) present); "
                                    + "what was there is decoded")
                        sawIDAT = true
                    } else {
                        header.problems.append("the file ends inside the \(type) chunk, after the image data; the chunk is ignored")
                    }
                    break
                }
                throw CodecError(
                    .truncatedData, format: .png, "the file ends inside the \(type) chunk (\(length) bytes declared, \(present) present)")
            }
            let payload = (offset + 8)..<(offset + 8 + length)
            let whole = offset..<end
            if !sawIHDR && type != "IHDR" {
                throw CodecError(.corruptData, format: .png, "the first chunk is \(type), not IHDR")
            }
            switch type {
            case "IHDR":
                guard !sawIHDR, length == 13 else { throw CodecError(.corruptData, format: .png, "invalid IHDR chunk") }
                // The size and format every later check trusts: a wrong CRC is refused, as libpng refuses it.
                let stored = UInt32(truncatingIfNeeded: be32(payload.upperBound))
                guard CRC32.checksum(Array(data[(offset + 4)..<payload.upperBound])) == stored else {
                    throw CodecError(.corruptData, format: .png, "IHDR: CRC error")
                }
                sawIHDR = true
                let p = payload.lowerBound
                header.width = be32(p)
                header.height = be32(p + 4)
                header.bitDepth = Int(data[p + 8])
                header.colorType = Int(data[p + 9])
                let compression = data[p + 10], filter = data[p + 11], interlace = data[p + 12]
                let validDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard let depths = validDepths[header.colorType], depths.contains(header.bitDepth) else {
                    throw CodecError(.corruptData, format: .png, "invalid IHDR: colour type \(header.colorType) with bit depth \(header.bitDepth)")
                }
                guard compression == 0, filter == 0, interlace <= 1 else {
                    throw CodecError(.corruptData, format: .png, "invalid IHDR: unknown compression, filter or interlace method")
                }
                guard header.width > 0, header.height > 0, header.width <= 0x7FFF_FFFF, header.height <= 0x7FFF_FFFF else {
                    throw CodecError(.corruptData, format: .png, "invalid IHDR: size \(header.width)x\(header.height)")
                }
                header.interlaced = interlace == 1
                header.criticalChunks.append((type, whole))
            case "PLTE":
                header.criticalChunks.append((type, whole))
            case "tRNS":
                header.hasTransparencyChunk = true
                header.criticalChunks.append((type, whole))
            case "IDAT":
                if !sawIDAT && header.colorType == 3 && !header.criticalChunks.contains(where: { $0.0 == "PLTE" }) {
                    throw CodecError(.corruptData, format: .png, "a palette image has no PLTE chunk")
                }
                sawIDAT = true
                header.criticalChunks.append((type, whole))
            case "IEND":
                sawIEND = true
                header.criticalChunks.append((type, whole))
            case "gAMA":
                header.hasGamma = true
                header.colorChunks.append((type, whole))
            case "cHRM":
                header.colorChunks.append((type, whole))
            case "sRGB":
                header.hasSRGBChunk = true
                header.colorChunks.append((type, whole))
            case "iCCP" where header.icc == nil && !sawIDAT:
                let raw = bytes[payload]
                if let nul = raw.firstIndex(of: 0), nul + 2 <= raw.count, raw[nul + 1] == 0 {
                    if let profile = Inflate.zlib(Array(raw[(nul + 2)...]), limit: maximumProfileBytes) {
                        header.icc = profile
                    } else {
                        header.iccProblem = "the iCCP profile is corrupt or larger than \(maximumProfileBytes / (1 << 20)) MiB; it is ignored"
                    }
                } else {
                    header.iccProblem = "the iCCP chunk is malformed; it is ignored"
                }
            case "eXIf" where header.exif == nil:
                header.exif = bytes[payload]
            case "iTXt" where header.xmp == nil:
                let raw = bytes[payload]
                let keyword = Array("XML:com.adobe.xmp\0".utf8)
                if raw.starts(with: keyword), raw.count > keyword.count + 2, raw[keyword.count] == 0 {
                    // compression flag 0, method, then language and translated keyword (both NUL-terminated).
                    var p = keyword.count + 2
                    for _ in 0..<2 {
                        while p < raw.count && raw[p] != 0 { p += 1 }
                        p += 1
                    }
                    if p < raw.count { header.xmp = Array(raw[p...]) }
                }
            case "acTL":
                header.isAnimated = true
                if length >= 4 { header.frameCount = be32(payload.lowerBound) }
            default:
                if typeBytes[0] & 0x20 == 0 {
                    throw CodecError(.unsupportedFeature, format: .png, "unknown critical chunk \(type)")
                }
            }
            offset = end
            if sawIEND { break }
        }
        guard sawIHDR else { throw CodecError(.corruptData, format: .png, "no IHDR chunk") }
        guard sawIDAT else { throw CodecError(.corruptData, format: .png, "no image data (IDAT chunk)") }
        if !sawIEND && header.problems.isEmpty { header.problems.append("the file has no IEND chunk") }
        return header
    }

    /// A PNG holding only what the decoder needs: IHDR, PLTE, tRNS, IDAT, IEND, plus gAMA/cHRM/sRGB when no
    /// ICC profile overrides them. Text chunks (decompression bombs) and animation chunks never reach libpng.
    func minimalStream(from bytes: EncodedBytes, keepColorChunks: Bool) -> [UInt8] {
        var out = Self.signature
        let data = bytes.buffer
        var chunks = criticalChunks
        if keepColorChunks {
            // Colour chunks must precede PLTE and IDAT: insert them right after IHDR.
            chunks.insert(contentsOf: colorChunks, at: 1)
        }
        if !chunks.contains(where: { $0.0 == "IEND" }) {
            out.reserveCapacity(chunks.reduce(8) { $0 + $1.1.count } + 12)
        }
        for (_, range) in chunks {
            out.append(contentsOf: data[range])
        }
        if let partial = partialImageData {
            let payload = Array(data[partial])
            let type: [UInt8] = Array("IDAT".utf8)
            for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
            out.append(contentsOf: type)
            out.append(contentsOf: payload)
            let crc = CRC32.checksum(type + payload)
            for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        }
        if !chunks.contains(where: { $0.0 == "IEND" }) {
            out.append(contentsOf: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        }
        return out
    }
}
