import Foundation

/// What a JPEG's marker segments say before the image data: the frame (size, precision, coding process,
/// components) and the metadata segments (EXIF, XMP, ICC, Adobe, IPTC). Read without decoding pixels.
struct JPEGHeader {
    enum Process: String {
        case baseline, extendedSequential, progressive, lossless
        case arithmeticSequential, arithmeticProgressive, arithmeticLossless
        case hierarchical
    }

    var width = 0
    var height = 0
    var precision = 8
    var components = 0
    /// Each component's horizontal and vertical sampling factors, as the frame header declares them.
    var sampling: [(horizontal: Int, vertical: Int)] = []
    var process: Process = .baseline
    var exif: [UInt8]?
    var xmp: [UInt8]?
    var photoshop: [UInt8]?
    var icc: [UInt8]?
    var iccProblem: String?
    var adobeTransform: Int?

    /// Reads marker segments up to the first scan.
    static func parse(_ bytes: EncodedBytes) throws(CodecError) -> JPEGHeader {
        var header = JPEGHeader()
        let data = bytes.buffer
        let n = data.count
        guard n >= 4, data[0] == 0xFF, data[1] == 0xD8 else {
            throw CodecError(.corruptData, format: .jpeg, "the file does not start with a JPEG SOI marker")
        }
        var iccChunks: [Int: [UInt8]] = [:]
        var iccCount = 0
        var sawFrame = false
        var i = 2
        while i < n {
            // Markers may be preceded by any number of 0xFF fill bytes.
            guard data[i] == 0xFF else {
                i += 1
                continue
            }
            while i < n && data[i] == 0xFF { i += 1 }
            guard i < n else { break }
            let marker = data[i]
            i += 1
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xD8 { continue }
            if marker == 0xD9 { break }
            guard i + 2 <= n else {
                throw CodecError(.truncatedData, format: .jpeg, "the file ends inside the header")
            }
            let length = Int(data[i]) << 8 | Int(data[i + 1])
            guard length >= 2 else {
                throw CodecError(.corruptData, format: .jpeg, String(format: "marker 0x%02X has an impossible length (%d)", marker, length))
            }
            guard i + length <= n else {
                throw CodecError(.truncatedData, format: .jpeg, String(format: "the file ends inside marker segment 0x%02X", marker))
            }
            let payload = (i + 2)..<(i + length)
            switch marker {
            case 0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                guard payload.count >= 6 else { throw CodecError(.corruptData, format: .jpeg, "the frame header is too short") }
                if !sawFrame {
                    sawFrame = true
                    header.precision = Int(data[payload.lowerBound])
                    header.height = Int(data[payload.lowerBound + 1]) << 8 | Int(data[payload.lowerBound + 2])
                    header.width = Int(data[payload.lowerBound + 3]) << 8 | Int(data[payload.lowerBound + 4])
                    header.components = Int(data[payload.lowerBound + 5])
                    for c in 0..<header.components where payload.lowerBound + 8 + 3 * c <= payload.upperBound {
                        let factors = Int(data[payload.lowerBound + 7 + 3 * c])
                        header.sampling.append((max(1, factors >> 4), max(1, factors & 15)))
                    }
                    header.process = process(for: marker)
                }
            case 0xF7:
                throw CodecError(.unsupportedFormat, format: .jpeg, "this is a JPEG-LS file, a different codec that Sepia does not decode")
            case 0xE1:
                let segment = bytes[payload]
                if segment.starts(with: Array("Exif\0".utf8)) && header.exif == nil {
                    header.exif = Array(segment.dropFirst(6))
                } else if segment.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) && header.xmp == nil {
                    header.xmp = Array(segment.dropFirst(29))
                }
            case 0xE2:
                let segment = bytes[payload]
                let signature = Array("ICC_PROFILE\0".utf8)
                if segment.count > 14 && segment.starts(with: signature) {
                    let sequence = Int(segment[12])
                    iccCount = max(iccCount, Int(segment[13]))
                    iccChunks[sequence] = Array(segment.dropFirst(14))
                }
            case 0xED:
                if header.photoshop == nil { header.photoshop = bytes[payload] }
            case 0xEE:
                let segment = bytes[payload]
                if segment.count >= 12 && segment.starts(with: Array("Adobe".utf8)) {
                    header.adobeTransform = Int(segment[11])
                }
            case 0xDA:
                i = n  // image data follows; the header is complete
                continue
            default:
                break
            }
            i += length
        }
        guard sawFrame else {
            throw CodecError(.corruptData, format: .jpeg, "no frame header (SOF) before the image data; the file is damaged")
        }
        if iccCount > 0 {
            if (1...iccCount).allSatisfy({ iccChunks[$0] != nil }) {
                header.icc = (1...iccCount).flatMap { iccChunks[$0] ?? [] }
            } else {
                header.iccProblem = "the ICC profile is missing some of its \(iccCount) parts; it is ignored"
            }
        }
        return header
    }

    /// The bytes libjpeg keeps for the whole image's DCT coefficients when it decodes a multi-scan (progressive)
    /// file: 64 two-byte coefficients a block, every component's blocks, padded to whole MCUs.
    var coefficientBytes: UInt64 {
        let maxH = sampling.map(\.horizontal).max() ?? 1
        let maxV = sampling.map(\.vertical).max() ?? 1
        var total: UInt64 = 0
        for (h, v) in sampling {
            let mcusAcross = (UInt64(width) + UInt64(8 * maxH) - 1) / UInt64(8 * maxH)
            let mcusDown = (UInt64(height) + UInt64(8 * maxV) - 1) / UInt64(8 * maxV)
            total += mcusAcross * UInt64(h) * mcusDown * UInt64(v) * 128
        }
        return total
    }

    private static func process(for marker: UInt8) -> Process {
        switch marker {
        case 0xC0: return .baseline
        case 0xC1: return .extendedSequential
        case 0xC2: return .progressive
        case 0xC3: return .lossless
        case 0xC9: return .arithmeticSequential
        case 0xCA: return .arithmeticProgressive
        case 0xCB: return .arithmeticLossless
        default: return .hierarchical
        }
    }
}
