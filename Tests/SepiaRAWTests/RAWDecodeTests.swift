import Foundation
import SepiaCodecs
import SepiaImage
import SepiaRAW
import Testing

/// Camera RAW files through LibRaw, against `dcraw_emu`'s developments of the same files (camera white balance,
/// AHD, highlights clipped, sRGB primaries and curve; scripts/testdata-raw gives the flags).
@Suite struct RAWDecodeTests {
    let context = RenderContext()

    @Test(arguments: RAWTIFFFixtures.entries.filter { $0.expected == "DECODE" && $0.file.lowercased().hasSuffix(".dng") })
    func developsLikeDcrawEmu(_ entry: RAWTIFFFixtures.Entry) async throws {
        let file = try PhotoDecoding.open(path: entry.path)
        let raw = try #require(file as? RAWSource)
        #expect(raw.format == .cameraRAW)
        #expect(raw.displaySize == entry.displaySize)
        #expect(raw.orientation == Orientation(exifValue: entry.orientation ?? 1))
        // At full size the sensor data is developed, never the preview.
        let developed = try await context.renderBitmap(raw.image, layout: .rgb)
        let reference = try await RAWTIFFFixtures.referenceBitmap(try #require(entry.referencePath), layout: .rgb, context: context)
        let difference = PixelDifference(developed, reference)
        #expect(difference.psnr >= entry.tolerance?.psnr_min ?? 40, "\(entry.file): \(difference.psnr) dB")
        #expect(raw.decodeWarnings.all.isEmpty, "\(raw.decodeWarnings.all)")
    }

    @Test func metadataFromTheFile() throws {
        let entry = RAWTIFFFixtures.entry("raw/rggb_12bit.dng")
        let raw = try #require(try PhotoDecoding.open(path: entry.path) as? RAWSource)
        let date = try #require(raw.metadata.captureDate)
        #expect(
            String(format: "%04d-%02d-%02dT%02d:%02d:%02d", date.year, date.month, date.day, date.hour, date.minute, date.second)
                == entry.capture_date)
        #expect(raw.metadata.cameraMake == entry.make)
        #expect(raw.metadata.cameraModel == entry.model)
        #expect(raw.kind == "Adobe DNG")
    }

    /// A thumbnail is the camera's embedded preview, decoded as the JPEG it is (pixel for pixel the preview's own
    /// thumbnail), when the preview is at least the size asked; larger sizes develop the sensor data.
    @Test func thumbnailsComeFromTheEmbeddedPreview() async throws {
        let entry = RAWTIFFFixtures.entry("raw/rggb_preview.dng")
        let raw = try #require(try PhotoDecoding.open(path: entry.path) as? RAWSource)
        let preview = try #require(raw.preview)
        #expect([preview.pixelSize.width, preview.pixelSize.height] == entry.preview_size)
        let size = IntSize(width: 256, height: 256)
        let fromRAW = try await context.renderBitmap(raw.image.thumbnail(size: size), layout: .rgb)
        let fromPreview = try await context.renderBitmap(Image(source: preview).oriented(raw.orientation).thumbnail(size: size), layout: .rgb)
        let same = fromRAW.width == fromPreview.width && fromRAW.height == fromPreview.height && fromRAW.bytes == fromPreview.bytes
        #expect(
            same, "\(fromRAW.width)x\(fromRAW.height) vs \(fromPreview.width)x\(fromPreview.height), \(PixelDifference(fromRAW, fromPreview).maximum)"
        )
        // Larger than the preview: the development, which matches dcraw_emu's, not the preview.
        let big = IntSize(width: 1100, height: 1100)
        let developed = try await context.renderBitmap(raw.image.thumbnail(size: big), layout: .rgb)
        let full = try await RAWTIFFFixtures.referenceBitmap(try #require(entry.referencePath), layout: .rgb, context: context)
        let reference = try await context.renderBitmap(Image(bitmap: full).thumbnail(size: big), layout: .rgb)
        #expect(PixelDifference(developed, reference).psnr >= 38)
    }

    /// Without a preview, a thumbnail half the sensor's size or less comes from LibRaw's half-size development
    /// (no demosaicing), which matches dcraw_emu's `-h`.
    @Test func halfSizeDevelopmentForSmallerRenders() async throws {
        let entry = RAWTIFFFixtures.entry("raw/rggb_12bit.dng")
        let raw = try #require(try PhotoDecoding.open(path: entry.path) as? RAWSource)
        #expect(raw.preview == nil)
        #expect(raw.decodeScales.contains(2))
        #expect(raw.reduction(scale: 2).size == IntSize(width: 600, height: 400))
        let half = try raw.makeDecoder(scale: 2)
        #expect(half.size == IntSize(width: 600, height: 400))
        let size = IntSize(width: 300, height: 300)
        let thumbnail = try await context.renderBitmap(raw.image.thumbnail(size: size), layout: .rgb)
        let halfReference = RAWTIFFFixtures.root.appendingPathComponent(try #require(entry.reference_half)).path
        let halfBitmap = try await RAWTIFFFixtures.referenceBitmap(halfReference, layout: .rgb, context: context)
        let reference = try await context.renderBitmap(Image(bitmap: halfBitmap).thumbnail(size: size), layout: .rgb)
        #expect(PixelDifference(thumbnail, reference).psnr >= 38)
    }

    /// CIRAWFilter's exposure: +1 EV doubles the linear light of the development.
    @Test func exposureScalesLinearLight() async throws {
        let entry = RAWTIFFFixtures.entry("raw/rggb_12bit.dng")
        let plain = try RAWSource(path: entry.path)
        let brighter = try RAWSource(path: entry.path, development: RAWDevelopment(exposure: 1))
        #expect(brighter.preview == nil)
        let a = try plain.makeDecoder(scale: 2)
        let b = try brighter.makeDecoder(scale: 2)
        // The gain is the colour matrix's diagonal (none at all when it is 1).
        let gainA = a.color.matrix?.rows.0.x ?? 1
        let gainB = b.color.matrix?.rows.0.x ?? 1
        #expect(Swift.abs(gainB / gainA - 2) < 1e-4)
        #expect(throws: CodecError.self) { _ = try RAWSource(path: entry.path, development: RAWDevelopment(exposure: 9)) }
    }

    /// A RAW file is recognised by its structure, not its name; only a file with no signature is taken as RAW
    /// for its extension, and a JPEG named `.nef` is a JPEG.
    @Test func recognisedByContent() throws {
        let jpeg = try PhotoDecoding.open(path: RAWTIFFFixtures.entry("hostile/jpeg_named.nef").path)
        #expect(jpeg.format == .jpeg)
        for name in ["raw/rggb_12bit.dng", "raw/rggb_preview.dng"] {
            let bytes = try EncodedBytes.read(contentsOf: RAWTIFFFixtures.entry(name).path, maximumBytes: 1 << 30)
            #expect(ImageFormat.identify(bytes) == .cameraRAW)
            // Without the RAW decoder, the still-image decoders refuse it rather than show its first IFD.
            #expect(throws: CodecError.self) { _ = try ImageDecoding.open(bytes) }
        }
        let tiff = try EncodedBytes.read(contentsOf: RAWTIFFFixtures.entry("tiff/rgb8_none.tif").path, maximumBytes: 1 << 30)
        #expect(ImageFormat.identify(tiff, fileName: "scan.tif") == .tiff)
        let random = try EncodedBytes.read(contentsOf: RAWTIFFFixtures.entry("hostile/random.cr2").path, maximumBytes: 1 << 30)
        #expect(ImageFormat.identify(random) == nil)
        #expect(ImageFormat.identify(random, fileName: "random.cr2") == .cameraRAW)
    }

    /// Hostile RAW files get a clear refusal, never a crash: a header with no image data, a cut file, random
    /// bytes named `.cr2`.
    @Test(arguments: RAWTIFFFixtures.entries(kind: "hostile", expected: "REFUSE").filter { !$0.file.hasSuffix(".tif") })
    func hostileFilesAreRefused(_ entry: RAWTIFFFixtures.Entry) async throws {
        do {
            let file = try PhotoDecoding.open(path: entry.path, options: DecodeOptions(strict: true))
            _ = try await context.renderBitmap(file.image, layout: .rgb)
            Issue.record("\(entry.file) was decoded")
        } catch let error as CodecError {
            #expect(error.file == entry.path)
            #expect(!error.reason.isEmpty)
        }
    }
}
