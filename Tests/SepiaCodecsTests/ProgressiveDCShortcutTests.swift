import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// A progressive JPEG decoded at 1/8 scale skips the AC scans of its full-resolution component (luma) and
/// must come out exactly as the decode of every scan does.
@Suite("Progressive JPEG at 1/8 scale")
struct ProgressiveDCShortcutTests {
    /// A photo from the corpus at about 0.5 MP, encoded progressively with libjpeg's usual scan script.
    static func progressive(_ subsampling: EncodeOptions.ChromaSubsampling) throws -> [UInt8] {
        let file = try ImageDecoding.open(path: Corpus.path("photos/fujifilm-w3.jpg"))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let small = try context.renderBitmapSynchronously(file.image.thumbnail(size: IntSize(width: 900, height: 900)))
        return try ImageEncoding.encode(
            small, as: .jpeg, options: EncodeOptions(quality: 88, chromaSubsampling: subsampling, progressive: true))
    }

    /// Every row of a 1/8-scale decode, and the warnings it reported.
    static func decodeEighth(_ bytes: [UInt8], shortcut: Bool) throws -> (pixels: [UInt8], warnings: [String]) {
        let file = try ImageDecoding.open(data: Data(bytes), options: DecodeOptions(progressiveDCShortcut: shortcut))
        let decoder = try file.makeDecoder(scale: 8)
        let bytesPerRow = decoder.size.width * decoder.format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * decoder.size.height)
        var row = 0
        try pixels.withUnsafeMutableBytes { raw in
            while row < decoder.size.height {
                let rest = UnsafeMutableRawBufferPointer(rebasing: raw[(row * bytesPerRow)...])
                let got = try decoder.readRows(into: rest, bytesPerRow: bytesPerRow)
                if got == 0 { break }
                row += got
            }
        }
        #expect(row == decoder.size.height)
        return (pixels, file.decodeWarnings.all)
    }

    /// The scans of a JPEG: (component ids, spectral start, where the entropy-coded data starts and ends).
    static func scans(_ bytes: [UInt8]) -> [(components: [UInt8], ss: Int, data: Range<Int>)] {
        var result: [([UInt8], Int, Range<Int>)] = []
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xD9 { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard marker == 0xDA else {
                i += 2 + length
                continue
            }
            let count = Int(bytes[i + 4])
            let ids = (0..<count).map { bytes[i + 5 + 2 * $0] }
            let ss = Int(bytes[i + 5 + 2 * count])
            let start = i + 2 + length
            var end = start
            while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
                end += 1
            }
            result.append((ids, ss, start..<end))
            i = end
        }
        return result
    }

    @Test("the 1/8 decode equals the decode of every scan", arguments: [EncodeOptions.ChromaSubsampling.s420, .s422, .s444])
    func exact(subsampling: EncodeOptions.ChromaSubsampling) throws {
        let bytes = try Self.progressive(subsampling)
        #expect(Self.scans(bytes).contains { $0.ss > 0 }, "the file has AC scans")
        let fast = try Self.decodeEighth(bytes, shortcut: true)
        let full = try Self.decodeEighth(bytes, shortcut: false)
        #expect(fast.pixels == full.pixels)
        #expect(fast.warnings.isEmpty && full.warnings.isEmpty)
    }

    @Test("the luma AC scans are not read: damage in them goes unseen at 1/8 scale")
    func lumaACSkipped() throws {
        let clean = try Self.progressive(.s420)
        let lumaAC = Self.scans(clean).filter { $0.components == [1] && $0.ss > 0 }
        #expect(lumaAC.count >= 2)
        var damaged = clean
        for scan in lumaAC {
            for i in stride(from: scan.data.lowerBound + 4, to: scan.data.upperBound - 4, by: 7) where damaged[i] != 0xFF && damaged[i] != 0 {
                damaged[i] = damaged[i] ^ 0x5A == 0xFF ? 0x11 : damaged[i] ^ 0x5A
            }
        }
        let reference = try Self.decodeEighth(clean, shortcut: true)
        let skipped = try Self.decodeEighth(damaged, shortcut: true)
        #expect(skipped.pixels == reference.pixels)
        #expect(skipped.warnings.isEmpty, "\(skipped.warnings)")
        // Without the shortcut the damaged scans are decoded, and libjpeg reports the damage.
        let decoded = try Self.decodeEighth(damaged, shortcut: false)
        #expect(!decoded.warnings.isEmpty)
    }

    @Test("a progressive file cut short is decoded whole, with the same warnings as without the shortcut")
    func truncatedFallsBack() throws {
        let clean = try Self.progressive(.s420)
        let last = try #require(Self.scans(clean).last)
        let cut = Array(clean[..<(last.data.lowerBound + last.data.count / 2)])
        let fast = try Self.decodeEighth(cut, shortcut: true)
        let full = try Self.decodeEighth(cut, shortcut: false)
        #expect(fast.pixels == full.pixels)
        #expect(fast.warnings == full.warnings)
        #expect(!fast.warnings.isEmpty)
    }
}
