import Foundation
import SepiaCodecs
import SepiaImage
import SepiaRAW
import Testing

/// TIFF files through libtiff, against references decoded by ImageMagick/libtiff and numpy.
@Suite struct TIFFDecodeTests {
    let context = RenderContext()

    @Test(arguments: RAWTIFFFixtures.entries(kind: "tiff"))
    func decodesLikeItsReference(_ entry: RAWTIFFFixtures.Entry) async throws {
        let file = try PhotoDecoding.open(path: entry.path)
        #expect(file.format == .tiff)
        #expect(file.displaySize == entry.displaySize)
        let referencePath = try #require(entry.referencePath)
        let layout: Bitmap.Layout = file.hasAlpha ? .rgba : .rgb
        let decoded = try await context.renderBitmap(file.image, layout: layout)
        let expected = try await RAWTIFFFixtures.referenceBitmap(referencePath, layout: layout, context: context)
        // Fully transparent pixels have no colour once premultiplied: compare where the reference is mostly opaque.
        let difference = PixelDifference(decoded, expected, minimumAlpha: file.hasAlpha ? (entry.tolerance?.where_alpha_at_least ?? 1) : 0)
        let allowed = max(entry.tolerance?.max_abs ?? 0, entry.bits == 16 ? 1 : 0)
        if let psnr = entry.tolerance?.psnr_min {
            #expect(difference.psnr >= psnr, "\(entry.file): \(difference.psnr) dB")
        } else {
            #expect(difference.maximum <= allowed, "\(entry.file): differs by up to \(difference.maximum)")
        }
        #expect(file.decodeWarnings.all.isEmpty, "\(file.decodeWarnings.all)")
    }

    /// 16-bit files reach the engine in 16 bits: the rows match the reference's samples turned to linear light
    /// by the sRGB curve, to within the interpolation of the curve between its 8-bit knots.
    @Test(arguments: ["tiff/rgb16_none.tif", "tiff/rgb16_lzw_pred2.tif", "tiff/grey16.tif", "tiff/rgb16_bigendian.tif"])
    func sixteenBitsKeepTheirPrecision(_ name: String) throws {
        let entry = RAWTIFFFixtures.entry(name)
        let file = try PhotoDecoding.open(path: entry.path)
        let reference = try PortablePixmap(path: try #require(entry.referencePath).replacingOccurrences(of: ".png", with: ".ppm"))
        let rows = try file.makeDecoder(scale: 1)
        #expect(rows.format == .rgba16LinearPremultiplied)
        let width = file.pixelSize.width
        var a = [UInt16](repeating: 0, count: width * 4)
        var worst = 0.0
        var distinct = Set<UInt16>()
        for y in 0..<file.pixelSize.height {
            let got = try a.withUnsafeMutableBytes { try rows.readRows(into: $0, bytesPerRow: width * 8) }
            #expect(got == 1)
            for x in 0..<width {
                for c in 0..<3 {
                    let code = Double(reference.samples[(y * width + x) * reference.channels + (reference.channels == 1 ? 0 : c)]) / 65535
                    let linear = code <= 0.04045 ? code / 12.92 : pow((code + 0.055) / 1.055, 2.4)
                    worst = max(worst, abs(Double(a[4 * x + c]) / 65535 - linear))
                }
                distinct.insert(a[4 * x])
            }
        }
        // The curve is interpolated between its 256 knots: well under one 8-bit step of linear light anywhere.
        #expect(worst <= 0.0005, "\(name): \(worst)")
        #expect(distinct.count > 256, "\(name): only \(distinct.count) levels reached the engine")
    }

    @Test func firstPageOfManyAndDetails() throws {
        let file = try PhotoDecoding.open(path: RAWTIFFFixtures.entry("tiff/multipage3.tif").path)
        #expect(file.pixelSize == IntSize(width: 640, height: 427))
        #expect(file.details.contains("3 pages: first"))
    }

    @Test(arguments: ["hostile/pixel_bomb.tif", "hostile/ifd_loop.tif"])
    func refusedBeforeDecoding(_ name: String) throws {
        #expect(throws: CodecError.self) { _ = try PhotoDecoding.open(path: RAWTIFFFixtures.entry(name).path) }
    }

    /// Strips cut short or outside the file: refused in strict mode (uploads), shown with a warning otherwise.
    @Test(arguments: ["hostile/strip_offsets_beyond_eof.tif", "hostile/truncated_strips.tif"])
    func damagedStrips(_ name: String) async throws {
        let path = RAWTIFFFixtures.entry(name).path
        let strict = try PhotoDecoding.open(path: path, options: DecodeOptions(strict: true))
        await #expect(throws: CodecError.self) { _ = try await context.renderBitmap(strict.image) }
        let lenient = try PhotoDecoding.open(path: path)
        _ = try await context.renderBitmap(lenient.image)
        #expect(lenient.decodeWarnings.all.contains { $0.contains("damaged") })
    }
}
