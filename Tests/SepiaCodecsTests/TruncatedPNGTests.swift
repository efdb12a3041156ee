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
}
