internal import CTIFF
import Foundation
import SepiaImage

/// Decodes grey, RGB and CMYK TIFF files of 8 or 16 bits from their samples as stored, a band of rows at a time
/// (libtiff decodes each strip or row of tiles once): 8-bit grey and RGB are handed over as they are, 16-bit ones
/// in 16-bit linear light (their precision kept), CMYK through its ICC profile when it has one.
final class TIFFRowDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat
    let color: SourceColor
    private let source: TIFFSource
    private let handle: TIFFHandle
    private let channels: Int
    private let samples: Int
    private let bytesPerSample: Int
    private var band: [UInt8]
    private var nextRow = 0
    /// The source curve at 16-bit resolution, interpolated from the 8-bit table, per channel.
    private let linear16: [[UInt16]]

    init(source: TIFFSource, channels: Int) throws(CodecError) {
        self.source = source
        self.channels = channels
        size = source.pixelSize
        samples = Int(source.info.samples_per_pixel)
        bytesPerSample = Int(source.info.bits_per_sample) / 8
        handle = try TIFFHandle(bytes: source.bytes, maximumAllocation: source.budget.limit, file: source.file)
        let alpha = source.hasAlpha
        switch (channels, bytesPerSample) {
        case (4, _): format = .rgb8
        case (1, 1): format = alpha ? .grayAlpha8 : .gray8
        case (3, 1): format = alpha ? .rgba8 : .rgb8
        default: format = .rgba16LinearPremultiplied
        }
        color = channels == 4 ? .sRGB : source.sourceColor
        if format == .rgba16LinearPremultiplied {
            linear16 = source.sourceColor.curves.map(Self.expand)
        } else {
            linear16 = []
        }
        band = []
    }

    var decodesIncrementally: Bool { true }

    /// A 256-entry curve (linear light of each 8-bit code) sampled at every 16-bit code, in 16-bit linear light.
    static func expand(_ curve: [Float]) -> [UInt16] {
        (0..<65536).map { code in
            let position = Float(code) * 255 / 65535
            let i = min(254, Int(position))
            let t = position - Float(i)
            let v = curve[i] * (1 - t) + curve[i + 1] * t
            return UInt16(max(0, min(65535, (v * 65535).rounded())))
        }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow, 64)
        guard rows > 0 else { return 0 }
        let stride = size.width * samples * bytesPerSample
        if band.count < rows * stride { band = [UInt8](repeating: 0, count: rows * stride) }
        let ok = band.withUnsafeMutableBufferPointer { sepia_tiff_read_rows(handle.tiff, UInt32(nextRow), UInt32(rows), $0.baseAddress!, stride) }
        let error = String(cString: sepia_tiff_error(handle.tiff)).replacingOccurrences(of: " at scanline 4294967295", with: " in a strip")
        if ok != 1 || !error.isEmpty {
            let message = error.isEmpty ? "the image data cannot be decoded" : error
            if source.options.strict {
                throw CodecError(.damagedData, format: .tiff, "damaged data: \(message) (refused in strict mode)", file: source.file)
            }
            source.decodeWarnings.add("the image data is damaged (\(message)); what could be read is shown")
        }
        band.withUnsafeBytes { raw in
            for r in 0..<rows {
                convert(raw.baseAddress! + r * stride, into: base + r * bytesPerRow)
            }
        }
        nextRow += rows
        return rows
    }

    private func convert(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer) {
        let width = size.width
        let alpha = source.hasAlpha
        let associated = source.info.extra_sample == 1
        switch format {
        case .gray8,
            .rgb8 where channels != 4, .grayAlpha8, .rgba8:
            let s = src.assumingMemoryBound(to: UInt8.self)
            let d = dst.assumingMemoryBound(to: UInt8.self)
            let out = format.bytesPerPixel
            for x in 0..<width {
                for c in 0..<out { d[out * x + c] = s[samples * x + c] }
                if alpha && associated { unpremultiply(d + out * x, colours: out - 1) }
            }
        case .rgb8:
            cmyk(src, into: dst.assumingMemoryBound(to: UInt8.self))
        default:
            let s = src.assumingMemoryBound(to: UInt16.self)
            let d = dst.assumingMemoryBound(to: UInt16.self)
            for x in 0..<width {
                let p = s + samples * x
                let a: UInt32 = alpha ? UInt32(p[channels]) : 65535
                for c in 0..<3 {
                    let code = Int(p[channels == 1 ? 0 : c])
                    var v = UInt32(linear16[c][code])
                    if alpha && associated {
                        // Unassociate in the file's encoding, then linearise and premultiply again.
                        let straight = a == 0 ? 0 : min(65535, UInt32(code) * 65535 / a)
                        v = UInt32(linear16[c][Int(straight)])
                    }
                    d[4 * x + c] = UInt16((v * a + 32767) / 65535)
                }
                d[4 * x + 3] = UInt16(a)
            }
        }
    }

    private func unpremultiply(_ p: UnsafeMutablePointer<UInt8>, colours: Int) {
        let a = Int(p[colours])
        guard a != 255 else { return }
        for c in 0..<colours { p[c] = a == 0 ? 0 : UInt8(min(255, (Int(p[c]) * 255 + a / 2) / a)) }
    }

    /// CMYK (8 or 16 bits, 16 taken to 8) to 8-bit sRGB: through the profile, else the complement formula.
    private func cmyk(_ src: UnsafeRawPointer, into d: UnsafeMutablePointer<UInt8>) {
        let width = size.width
        var inks = [UInt8](repeating: 0, count: 4 * width)
        for x in 0..<width {
            for c in 0..<4 {
                inks[4 * x + c] =
                    bytesPerSample == 1
                    ? src.load(fromByteOffset: samples * x + c, as: UInt8.self)
                    : UInt8(src.load(fromByteOffset: 2 * (samples * x + c), as: UInt16.self) >> 8)
            }
        }
        if let transform = source.cmykTransform {
            inks.withUnsafeBytes { transform.convert($0.baseAddress!, into: d, count: width) }
            return
        }
        for x in 0..<width {
            let k = 255 - Int(inks[4 * x + 3])
            for c in 0..<3 { d[3 * x + c] = UInt8(((255 - Int(inks[4 * x + c])) * k + 127) / 255) }
        }
    }
}
