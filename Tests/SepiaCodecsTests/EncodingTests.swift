import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@Suite struct EncodingTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2))

    @Test("PNG round-trips exactly, with and without alpha")
    func pngRoundTrip() throws {
        var bytes = [UInt8]()
        for i in 0..<(37 * 23 * 4) { bytes.append(UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7)) }
        for layout in [Bitmap.Layout.rgba, .rgb, .gray, .grayAlpha] {
            let count = 37 * 23 * layout.channels
            let bitmap = Bitmap(width: 37, height: 23, layout: layout, bytes: Array(bytes.prefix(count)))
            let encoded = try ImageEncoding.encode(bitmap, as: .png)
            let decoded = try ImageDecoding.open(EncodedBytes(encoded))
            #expect(decoded.format == .png && decoded.pixelSize == bitmap.size)
        }
    }

    @Test("decoded 8-bit PNG pixels survive a render exactly")
    func pngPixelsExact() async throws {
        let bitmap = Bitmap(width: 3, height: 1, layout: .rgba, bytes: [255, 0, 0, 255, 0, 128, 0, 128, 10, 20, 30, 255])
        let decoded = try ImageDecoding.open(EncodedBytes(try ImageEncoding.encode(bitmap, as: .png)))
        let rendered = try await context.renderBitmap(decoded.image, layout: .rgba)
        #expect(rendered == bitmap)
    }

    @Test("JPEG and WebP outputs decode to the same size", arguments: [ImageFormat.jpeg, .webp])
    func lossy(format: ImageFormat) async throws {
        let file = try ImageDecoding.open(path: Corpus.path("jpeg-conformance/flower-progressive.jpg"))
        let bytes = try await ImageEncoding.encode(file.image, as: format, options: EncodeOptions(quality: 90), context: context)
        let back = try ImageDecoding.open(EncodedBytes(bytes))
        #expect(back.format == format && back.pixelSize == IntSize(width: 480, height: 360))
        let original = try await context.renderBitmap(file.image, layout: .rgb)
        let again = try await context.renderBitmap(back.image, layout: .rgb)
        #expect(Corpus.meanDifference(original, again) < 3)
    }

    @Test("outputs carry no metadata: a payload hidden in EXIF/comments never reaches them", arguments: [ImageFormat.jpeg, .png, .webp])
    func stripped(format: ImageFormat) async throws {
        let path = Corpus.path("malformed/php-in-metadata.jpg")
        let source = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(source.range(of: Data("<?php".utf8)) != nil, "the fixture carries its payload")
        let file = try ImageDecoding.open(path: path)
        for image in [file.image, file.image.thumbnail(size: IntSize(width: 128, height: 128))] {
            let bytes = Data(try await ImageEncoding.encode(image, as: format, context: context))
            #expect(bytes.range(of: Data("<?php".utf8)) == nil)
            #expect(bytes.range(of: Data("Exif".utf8)) == nil)
            #expect(bytes.range(of: Data("http://ns.adobe.com/xap".utf8)) == nil)
        }
    }

    @Test("orientation is baked into the pixels of outputs")
    func orientationBaked() async throws {
        let file = try ImageDecoding.open(path: Corpus.path("exif-orientation/Landscape_6.jpg"))
        let bytes = try await ImageEncoding.encode(file.image, as: .jpeg, context: context)
        let back = try ImageDecoding.open(EncodedBytes(bytes))
        #expect(back.orientation == .up)
        #expect(back.pixelSize == IntSize(width: 1800, height: 1200))
    }

    @Test("transparent images keep alpha in PNG and WebP and are flattened in JPEG")
    func alpha() async throws {
        let file = try ImageDecoding.open(path: Corpus.path("webp/transparent.webp"))
        #expect(file.hasAlpha)
        let png = try ImageDecoding.open(EncodedBytes(try await ImageEncoding.encode(file.image, as: .png, context: context)))
        #expect(png.hasAlpha)
        let jpeg = try ImageDecoding.open(EncodedBytes(try await ImageEncoding.encode(file.image, as: .jpeg, context: context)))
        #expect(!jpeg.hasAlpha)
    }
}

@Suite struct StrictModeTests {
    let context = RenderContext(options: RenderOptions(threadCount: 1))

    @Test("a truncated JPEG is refused in strict mode and decoded with a warning otherwise")
    func truncated() async throws {
        let path = Corpus.path("malformed/truncated_jpeg.jpg")
        let strict = try ImageDecoding.open(path: path, options: DecodeOptions(strict: true))
        await #expect(throws: CodecError.self) { try await context.renderBitmap(strict.image) }
        let lenient = try ImageDecoding.open(path: path)
        _ = try await context.renderBitmap(lenient.image)
        #expect(!lenient.decodeWarnings.all.isEmpty)
    }

    @Test("harmless libjpeg warnings are accepted even in strict mode")
    func harmless() async throws {
        let file = try ImageDecoding.open(path: Corpus.path("jpeg-conformance/mjpeg.jpg"), options: DecodeOptions(strict: true))
        _ = try await context.renderBitmap(file.image)
        #expect(!file.decodeWarnings.all.isEmpty, "the extraneous bytes are reported")
    }

    @Test("shrink-on-load decodes a JPEG at 1/8 scale")
    func scaledDecode() throws {
        let file = try ImageDecoding.open(path: Corpus.path("photos/flower.jpg"))
        #expect(file.decodeScales == [1, 2, 4, 8])
        let decoder = try file.makeDecoder(scale: 8)
        #expect(decoder.size == IntSize(width: 60, height: 45))
    }
}
