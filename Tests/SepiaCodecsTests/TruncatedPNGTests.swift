import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// PNG files cut short after their image data: decoded in lenient mode with a warning, as libpng, libvips
/// and browsers do; refused in strict mode (uploads); refused in both when the image data itself is cut.
@Suite("PNG files cut short")
struct TruncatedPNGTests {
    let context = RenderContext(options: RenderOptions(threadCount: 1))

    /// The chunks of a PNG: (type, offset of the chunk, offset after its CRC).
    static func chunks(_ bytes: [UInt8]) -> [(type: String, start: Int, end: Int)] {
        var chunks: [(String, Int, Int)] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, offset, offset + 12 + length))
            offset += 12 + length
        }
        return chunks
    }

    /// A tEXt chunk (its CRC is never reached: the files that carry it are cut inside it).
    static let textChunk: [UInt8] = [0, 0, 0, 40] + Array("tEXt".utf8) + Array("Comment\0".utf8) + Array(repeating: 0x61, count: 32) + [0, 0, 0, 0]

    /// Variants of `name` cut after the image data, and how.
    static func variants(of name: String) throws -> [(String, [UInt8])] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(name))))
        let chunks = Self.chunks(bytes)
        let lastData = try #require(chunks.last { $0.type == "IDAT" })
        let end = try #require(chunks.first { $0.type == "IEND" })
        return [
            ("cut inside IEND", Array(bytes[..<(end.end - 3)])),
            ("cut inside the IEND chunk header", Array(bytes[..<(end.start + 5)])),
            ("cut inside the last IDAT's CRC", Array(bytes[..<(lastData.end - 2)])),
            ("cut inside a tEXt chunk after the image data", Array(bytes[..<lastData.end]) + Array(Self.textChunk.prefix(30))),
        ]
    }

    @Test(
        "lenient mode decodes the complete image and warns; strict mode refuses",
        arguments: ["png-suite/basn3p08.png", "png-suite/basi6a08.png", "png-suite/basn2c16.png"])
    func cutAfterImageData(name: String) async throws {
        let original = try await context.renderBitmap(try ImageDecoding.open(path: Corpus.path(name)).image)
        for (how, bytes) in try Self.variants(of: name) {
            let lenient = try ImageDecoding.open(data: Data(bytes))
            let decoded = try await context.renderBitmap(lenient.image)
            #expect(decoded == original, "\(name): \(how)")
            #expect(!lenient.metadata.warnings.isEmpty, "\(name): \(how)")
            #expect(throws: CodecError.self, "\(name): \(how)") {
                let strict = try ImageDecoding.open(data: Data(bytes), options: DecodeOptions(strict: true))
                _ = try context.renderBitmapSynchronously(strict.image)
            }
        }
    }

    @Test("a file cut inside its image data is refused in either mode")
    func cutInsideImageData() async throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path("png-suite/basn3p08.png"))))
        let data = try #require(Self.chunks(bytes).last { $0.type == "IDAT" })
        let cut = Data(bytes[..<((data.start + data.end) / 2)])
        await #expect(throws: CodecError.self) { try await context.renderBitmap(try ImageDecoding.open(data: cut).image) }
        await #expect(throws: CodecError.self) {
            try await context.renderBitmap(try ImageDecoding.open(path: Corpus.path("malformed/truncated_image.png")).image)
        }
    }

    /// A PNG of noise made by the encoder: several IDAT chunks, the last one ending the zlib stream.
    static func noisePNG() throws -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<(160 * 120 * 3)).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        return try ImageEncoding.encode(Bitmap(width: 160, height: 120, layout: .rgb, bytes: bytes), as: .png, options: EncodeOptions())
    }

    @Test("a complete image followed by the header of a further IDAT cut off after 8 bytes decodes in lenient mode; the count is not negative")
    func completeDataThenACutIDATHeader() async throws {
        let bytes = try Self.noisePNG()
        let chunks = Self.chunks(bytes)
        #expect(chunks.filter { $0.type == "IDAT" }.count >= 2, "the encoder splits the image data")
        let lastData = try #require(chunks.last { $0.type == "IDAT" })
        let original = try await context.renderBitmap(try ImageDecoding.open(data: Data(bytes)).image)
        // 30286 bytes declared, none present: the chunk's length and type, then the end of the file.
        let cut = Array(bytes[..<lastData.end]) + [0, 0, 0x76, 0x4E] + Array("IDAT".utf8)
        let lenient = try ImageDecoding.open(data: Data(cut))
        #expect(try await context.renderBitmap(lenient.image) == original)
        #expect(lenient.metadata.warnings.contains { $0.contains("30286 bytes declared, 0 present") }, "\(lenient.metadata.warnings)")
        do {
            _ = try ImageDecoding.open(data: Data(cut), options: DecodeOptions(strict: true))
            Issue.record("strict mode accepted a file cut inside a chunk")
        } catch {
            #expect(error.description.contains("30286 bytes declared, 0 present"), "\(error)")
        }
        // A few bytes of the further chunk present: still the whole image.
        let partial = cut + [0x78, 0x9C, 0x01]
        #expect(try await context.renderBitmap(try ImageDecoding.open(data: Data(partial)).image) == original)
        // The last chunk of the image data itself cut in half: the data is incomplete, refused in either mode.
        let inside = Array(bytes[..<((lastData.start + lastData.end) / 2)])
        await #expect(throws: CodecError.self) { try await context.renderBitmap(try ImageDecoding.open(data: Data(inside)).image) }
    }

    @Test("a wrong IHDR CRC is refused, as libpng refuses it, even where the row decoder reads the file without libpng")
    func wrongHeaderCRC() throws {
        var bytes = try Self.noisePNG()
        bytes[8 + 8 + 13] ^= 0x01  // the IHDR's CRC
        for strict in [false, true] {
            #expect(throws: CodecError.self) { _ = try ImageDecoding.open(data: Data(bytes), options: DecodeOptions(strict: strict)) }
        }
    }
}
