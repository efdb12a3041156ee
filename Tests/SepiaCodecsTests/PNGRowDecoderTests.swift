import Foundation
import SepiaImage
import Testing

@testable import SepiaCodecs

/// Plain 8-bit PNGs are streamed row by row by Sepia's own reader; it must give exactly libpng's pixels and
/// refuse what libpng refuses.
@Suite("PNG rows")
struct PNGRowDecoderTests {
    /// Every PNG of the corpus.
    static let files: [String] = ["png-suite", "malformed", "photos"].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: Corpus.path(folder))) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Every row a decoder delivers, or the error it threw.
    static func decode(_ decoder: any RowDecoder) -> Result<[UInt8], CodecError> {
        let bytesPerRow = decoder.size.width * decoder.format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * decoder.size.height)
        do {
            var row = 0
            try pixels.withUnsafeMutableBytes { raw in
                while row < decoder.size.height {
                    // A few rows at a time, as the engine asks for them.
                    let end = min(row + 7, decoder.size.height)
                    let got = try decoder.readRows(
                        into: UnsafeMutableRawBufferPointer(rebasing: raw[(row * bytesPerRow)..<(end * bytesPerRow)]), bytesPerRow: bytesPerRow)
                    if got == 0 { break }
                    row += got
                }
            }
            return .success(pixels)
        } catch let error as CodecError {
            return .failure(error)
        } catch {
            return .failure(CodecError(.corruptData, "\(error)"))
        }
    }

    /// A corpus photo made small and written as PNG by libpng (adaptive filters, several IDAT chunks), as RGB
    /// and as RGBA.
    static func encodedPhotos() throws -> [(String, Data)] {
        let photo = try ImageDecoding.open(path: Corpus.path("photos/fujifilm-w3.jpg"))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let rgb = try context.renderBitmapSynchronously(photo.image.thumbnail(size: IntSize(width: 700, height: 700)))
        let rgba = try context.renderBitmapSynchronously(photo.image.thumbnail(size: IntSize(width: 333, height: 333)), layout: .rgba)
        return [
            ("encoded RGB", Data(try ImageEncoding.encode(rgb, as: .png))),
            ("encoded RGBA", Data(try ImageEncoding.encode(rgba, as: .png))),
        ]
    }

    @Test("the streamed rows equal libpng's for every plain PNG of the corpus")
    func sameAsLibpng() throws {
        var streamed = 0
        let inputs = try Self.files.map { ($0, try Data(contentsOf: URL(fileURLWithPath: Corpus.path($0)))) } + Self.encodedPhotos()
        for (name, data) in inputs {
            guard let file = try? ImageDecoding.open(data: data) as? PNGSource, PNGRowDecoder.handles(file.header) else { continue }
            streamed += 1
            let ours = Self.decode(PNGRowDecoder(source: file))
            let libpng = Self.decode(PNGFrameDecoder(source: file))
            switch (ours, libpng) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(name)")
            case (.failure, .failure): break
            default: Issue.record("\(name): ours \(ours), libpng \(libpng)")
            }
        }
        #expect(streamed >= 10, "\(streamed) files streamed")
    }

    @Test("damaged image data is refused, as libpng refuses it")
    func damaged() throws {
        let name = try #require(Self.files.first { $0.hasPrefix("png-suite/z09n2c08") })
        let clean = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(name))))
        let chunks = TruncatedPNGTests.chunks(clean)
        let idat = try #require(chunks.first { $0.type == "IDAT" })
        // A byte of the compressed data changed, its CRC left as it was: a CRC error.
        var badCRC = clean
        badCRC[idat.start + 20] ^= 0x55
        // The same change with the CRC made right: zlib finds the damage, or the checksum does.
        var badData = badCRC
        let crc = CRC32.checksum(Array(badData[(idat.start + 4)..<(idat.end - 4)]))
        for (i, shift) in [24, 16, 8, 0].enumerated() { badData[idat.end - 4 + i] = UInt8(truncatingIfNeeded: crc >> UInt32(shift)) }
        for (how, bytes) in [("bad CRC", badCRC), ("bad data", badData)] {
            let file = try #require(try ImageDecoding.open(data: Data(bytes)) as? PNGSource)
            #expect(PNGRowDecoder.handles(file.header))
            guard case .failure = Self.decode(PNGRowDecoder(source: file)) else {
                Issue.record("\(how): decoded")
                continue
            }
            guard case .failure = Self.decode(PNGFrameDecoder(source: file)) else {
                Issue.record("\(how): libpng decoded it")
                continue
            }
        }
    }

    @Test("a wrong Adler-32 checksum at the end of the data is refused after the rows")
    func checksum() throws {
        let name = try #require(Self.files.first { $0.hasPrefix("png-suite/z09n2c08") })
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(name))))
        let idat = try #require(TruncatedPNGTests.chunks(bytes).last { $0.type == "IDAT" })
        // The last four bytes of the zlib stream (just before the chunk's CRC) are its Adler-32.
        bytes[idat.end - 5] ^= 0x01
        let crc = CRC32.checksum(Array(bytes[(idat.start + 4)..<(idat.end - 4)]))
        for (i, shift) in [24, 16, 8, 0].enumerated() { bytes[idat.end - 4 + i] = UInt8(truncatingIfNeeded: crc >> UInt32(shift)) }
        let file = try #require(try ImageDecoding.open(data: Data(bytes)) as? PNGSource)
        guard case .failure(let error) = Self.decode(PNGRowDecoder(source: file)) else {
            Issue.record("decoded despite the wrong checksum")
            return
        }
        #expect("\(error)".contains("after the last row: incorrect data check"), "\(error)")
        guard case .failure = Self.decode(PNGFrameDecoder(source: file)) else {
            Issue.record("libpng decoded it")
            return
        }
    }
}
