import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

/// Files whose headers declare buffers far larger than their images (a 64×64 TIFF in 65536×65536 tiles, of
/// 216 bytes, once made the decoder set aside 13 GB): each is refused when it is opened, by the decode memory
/// budget, with an error that names what the file declares, the budget and how to raise it; honest files whose
/// buffers are somewhat larger than their images still decode.
@Suite("Decode memory budget")
struct DecodeBudgetTests {
    let context = RenderContext(options: RenderOptions(threadCount: 1))

    /// Hostile shapes: what each declares, and words the refusal must contain.
    static let hostileTIFFs: [(String, HostileTIFF.Shape, String)] = [
        ("65536x65536 tiles", HostileTIFF.Shape(tile: (65536, 65536)), "tiles of 65536x65536 pixels for a 64x64 image"),
        ("16384x16384 tiles", HostileTIFF.Shape(tile: (16384, 16384)), "tiles of 16384x16384 pixels"),
        ("16-bit 8192x8192 tiles", HostileTIFF.Shape(bitsPerSample: 16, tile: (8192, 8192)), "16-bit, 3 samples a pixel"),
        ("32-bit 4096x4096 tiles", HostileTIFF.Shape(bitsPerSample: 32, tile: (4096, 4096)), "32-bit"),
        ("planar 8192x8192 tiles", HostileTIFF.Shape(planar: 2, tile: (8192, 8192)), "one plane each"),
        (
            "YCbCr 4:2:0 in 8192x8192 tiles", HostileTIFF.Shape(photometric: 6, tile: (8192, 8192), subsampling: (2, 2)),
            "tiles of 8192x8192 pixels"
        ),
        ("20000 samples a pixel", HostileTIFF.Shape(samplesPerPixel: 20000, photometric: 1), "20000 samples a pixel"),
        (
            "planar, 3000 samples a pixel, 4096 rows a strip", HostileTIFF.Shape(height: 4096, samplesPerPixel: 3000, photometric: 1, planar: 2),
            "strips of 4096 rows of 64 pixels (8-bit, 3000 samples a pixel, one plane each)"
        ),
    ]

    @Test("a TIFF whose header declares huge tiles or strips is refused when it is opened", arguments: 0..<hostileTIFFs.count)
    func hostileTIFFIsRefused(_ index: Int) throws {
        let (label, shape, declared) = Self.hostileTIFFs[index]
        let bytes = HostileTIFF.make(shape)
        #expect(bytes.count < 100 * 1024, "\(label): the file itself is small")
        let error = #expect(throws: CodecError.self, "\(label)") { _ = try ImageDecoding.open(EncodedBytes(bytes)) }
        #expect(error?.code == .limitExceeded, "\(label): \(String(describing: error))")
        let reason = error?.reason ?? ""
        #expect(reason.contains(declared), "\(label): \(reason)")
        #expect(reason.contains("64 MiB"), "\(label): the budget is named: \(reason)")
        #expect(reason.contains("maximumDecodeBytes") && reason.contains("--max-decode-bytes"), "\(label): how to raise it: \(reason)")
    }

    @Test("the 216-byte file of the review: 64x64 RGB in 65536x65536 tiles")
    func theReviewedFile() throws {
        let bytes = HostileTIFF.tiles(65536)
        #expect(bytes.count == 216)
        let error = #expect(throws: CodecError.self) { _ = try ImageDecoding.open(EncodedBytes(bytes), options: DecodeOptions(strict: true)) }
        #expect(error?.reason.contains("12.9 GB") == true, "the declared size is named: \(String(describing: error))")
    }

    @Test("a small image in tiles larger than itself, within the budget, decodes")
    func honestLargeTilesDecode() async throws {
        for side: UInt32 in [256, 2048] {
            var shape = HostileTIFF.Shape(tile: (side, side))
            shape.data = [UInt8](repeating: 0, count: Int(side) * Int(side) * 3)
            for y in 0..<64 { for x in 0..<64 { shape.data[(y * Int(side) + x) * 3] = 200 } }
            let file = try ImageDecoding.open(EncodedBytes(HostileTIFF.make(shape)), options: DecodeOptions(strict: true))
            let bitmap = try await context.renderBitmap(Image(source: file), layout: .rgb)
            #expect(bitmap.width == 64 && bitmap.height == 64)
            #expect(bitmap.bytes[0] == 200 && bitmap.bytes[1] == 0, "tiles of \(side): the pixels are the file's")
        }
    }

    @Test("setting maximumDecodeBytes accepts a file the default budget refuses")
    func raisedBudgetAccepts() throws {
        let bytes = EncodedBytes(HostileTIFF.tiles(16384))
        #expect(throws: CodecError.self) { _ = try ImageDecoding.open(bytes) }
        let file = try ImageDecoding.open(bytes, options: DecodeOptions(maximumDecodeBytes: 1 << 30))
        #expect(file.pixelSize == IntSize(width: 64, height: 64))
    }

    @Test("the budget's ceiling follows the pixel limit")
    func ceilingFollowsPixelLimit() throws {
        var options = DecodeOptions()
        #expect(options.maximumDecodeBytes == 800_000_000)
        options.maximumPixels = 100_000
        #expect(options.maximumDecodeBytes == 800_000)
        // 1024x1024 RGB tiles (3 MiB) over a 64x64 image: within 64 MiB, over the ceiling of a 100 000-pixel limit.
        let bytes = EncodedBytes(HostileTIFF.make(HostileTIFF.Shape(tile: (1024, 1024))))
        _ = try ImageDecoding.open(bytes)
        let error = #expect(throws: CodecError.self) { _ = try ImageDecoding.open(bytes, options: options) }
        #expect(error?.code == .limitExceeded && error?.reason.contains("800 kB") == true, "\(String(describing: error))")
    }

    @Test("a progressive JPEG reserves its whole-image coefficients; over the budget it is refused when opened")
    func progressiveJPEGCoefficients() async throws {
        let pattern = (0..<(640 * 480 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 1920) }
        let baseline = try ImageEncoding.encode(
            Bitmap(width: 640, height: 480, layout: .rgb, bytes: pattern), as: .jpeg, options: EncodeOptions(quality: 90, chromaSubsampling: .s444))
        let progressive = try ProgressiveScanLanesTests.jpegtran(baseline, ["-progressive"])
        let file = try ImageDecoding.open(EncodedBytes(progressive))
        let size = file.pixelSize
        // 4:4:4: three components of 2 bytes a pixel, padded to 8x8 blocks.
        let coefficients = 3 * 128 * ((size.width + 7) / 8) * ((size.height + 7) / 8)
        let tight = DecodeOptions(maximumDecodeBytes: coefficients - 1)
        let error = #expect(throws: CodecError.self) { _ = try ImageDecoding.open(EncodedBytes(progressive), options: tight) }
        #expect(error?.code == .limitExceeded, "\(String(describing: error))")
        #expect(error?.reason.contains("a progressive \(size.width)x\(size.height) image of 3 components (sampled 1x1, 1x1, 1x1)") == true)
        // The baseline file keeps no whole-image buffer: it decodes within the same budget.
        let sequential = try ImageDecoding.open(EncodedBytes(baseline), options: tight)
        _ = try await context.renderBitmap(Image(source: sequential), layout: .rgb)
        // Within the budget, libjpeg's memory manager (held to the budget) decodes the progressive file.
        let enough = try ImageDecoding.open(EncodedBytes(progressive), options: DecodeOptions(maximumDecodeBytes: coefficients + (1 << 20)))
        _ = try await context.renderBitmap(Image(source: enough), layout: .rgb)
    }

    @Test("a HEIC grid whose tiles declare 16384x16384 pixels is refused when opened")
    func heifGridTiles() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: HEVCDirectDecodeTests.grid)))
        _ = try ImageDecoding.open(EncodedBytes(bytes))
        // The tiles' shared `ispe` property: 64x64, made 16384x16384 (the grid's own stays 181x121).
        let ispe = Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 64]
        let at = try #require((0...(bytes.count - ispe.count)).first { Array(bytes[$0..<($0 + ispe.count)]) == ispe })
        bytes.replaceSubrange((at + 8)..<(at + 16), with: [0, 0, 0x40, 0, 0, 0, 0x40, 0])
        let error = #expect(throws: CodecError.self) { _ = try ImageDecoding.open(EncodedBytes(bytes)) }
        #expect(error?.code == .limitExceeded, "\(String(describing: error))")
        #expect(error?.reason.contains("grid tiles of 16384x16384 pixels") == true, "\(String(describing: error))")
    }
}
