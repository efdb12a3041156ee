import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// libjpeg's large objects (the coefficient buffers of progressive files) are faulted in by a helper thread
/// while the decoder runs; the pixels must not notice.
@Suite("JPEG large objects")
struct JPEGLargeObjectTests {
    /// Every row of a full-size decode.
    static func decode(_ bytes: [UInt8]) throws -> [UInt8] {
        let file = try ImageDecoding.open(data: Data(bytes))
        let decoder = try file.makeDecoder(scale: 1)
        let bytesPerRow = decoder.size.width * decoder.format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * decoder.size.height)
        var row = 0
        try pixels.withUnsafeMutableBytes { raw in
            while row < decoder.size.height {
                let got = try decoder.readRows(into: UnsafeMutableRawBufferPointer(rebasing: raw[(row * bytesPerRow)...]), bytesPerRow: bytesPerRow)
                if got == 0 { break }
                row += got
            }
        }
        #expect(row == decoder.size.height)
        #expect(file.decodeWarnings.all.isEmpty)
        return pixels
    }

    @Test("a progressive file with coefficient buffers of several megabytes decodes as its baseline twin")
    func progressiveEqualsBaseline() throws {
        let file = try ImageDecoding.open(path: Corpus.path("photos/fujifilm-w3.jpg"))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let image = try context.renderBitmapSynchronously(file.image.thumbnail(size: IntSize(width: 2000, height: 2000)))
        // 4:4:4, so each component's buffer holds two bytes a pixel: 6 MB and more at this size.
        #expect(image.size.width * image.size.height * 2 >= 4 << 20)
        var decoded: [[UInt8]] = []
        for progressive in [false, true] {
            let bytes = try ImageEncoding.encode(
                image, as: .jpeg, options: EncodeOptions(quality: 88, chromaSubsampling: .s444, progressive: progressive))
            decoded.append(try Self.decode(bytes))
        }
        #expect(decoded[0] == decoded[1])
    }
}
