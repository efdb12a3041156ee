import SepiaImage
import Testing

@Suite struct ResampleTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 5))

    @Test("a constant image stays constant at every scale", arguments: [(50, 40, 7, 3), (50, 40, 200, 97), (31, 29, 30, 28), (400, 10, 3, 10)])
    func constant(w: Int, h: Int, ow: Int, oh: Int) async throws {
        let color: SIMD4<Float> = [0.25, 0.5, 0.75, 1]
        let image = Image(pixels: PixelBuffer(size: IntSize(width: w, height: h)) { _, _ in color }).resized(to: IntSize(width: ow, height: oh))
        let out = try await context.render(image)
        #expect(out.extent.size == IntSize(width: ow, height: oh))
        for p in out.pixels { #expect(abs(p[0] - 0.25) < 1e-5 && abs(p[1] - 0.5) < 1e-5 && abs(p[2] - 0.75) < 1e-5 && abs(p[3] - 1) < 1e-5) }
    }

    @Test("Lanczos-3 reproduces a linear ramp away from the edges")
    func ramp() async throws {
        let out = try await context.render(Image(pixels: TestImages.ramp(300, 4)).resized(to: IntSize(width: 100, height: 4)))
        for x in 10..<90 {
            // Output pixel x covers input pixels 3x...3x+2, centred on 3x+1.
            let expected = Float(3 * x + 1) / 299
            #expect(abs(out[x, 1][0] - expected) < 2e-4, "x = \(x)")
        }
    }

    @Test("a fine checkerboard shrinks to its mean: no aliasing")
    func antialiasing() async throws {
        let board = PixelBuffer(size: IntSize(width: 256, height: 256)) { x, y in (x + y) % 2 == 0 ? [1, 1, 1, 1] : [0, 0, 0, 1] }
        for size in [64, 37, 10, 3] {
            let out = try await context.render(Image(pixels: board).resized(to: IntSize(width: size, height: size)))
            for p in out.pixels { #expect(abs(p[0] - 0.5) < 0.02, "size \(size)") }
        }
    }

    @Test("thumbnail sizes follow the content modes and never upscale")
    func thumbnailSizes() {
        let image = Image(pixels: TestImages.noise(400, 300))
        #expect(image.thumbnail(size: IntSize(width: 100, height: 100), mode: .aspectFit).extent == IntRect(x: 0, y: 0, width: 100, height: 75))
        #expect(image.thumbnail(size: IntSize(width: 100, height: 100), mode: .aspectFill).extent == IntRect(x: 0, y: 0, width: 100, height: 100))
        #expect(image.thumbnail(size: IntSize(width: 100, height: 100), mode: .scaleToFill).extent == IntRect(x: 0, y: 0, width: 100, height: 100))
        #expect(image.thumbnail(size: IntSize(width: 1000, height: 1000), mode: .aspectFit).extent.size == IntSize(width: 400, height: 300))
        #expect(image.thumbnail(size: IntSize(width: 1000, height: 500), mode: .aspectFill).extent.size == IntSize(width: 400, height: 200))
        #expect(image.thumbnail(size: IntSize(width: 50, height: 200), mode: .aspectFill).extent.size == IntSize(width: 50, height: 200))
    }

    @Test("fill crops around the centre")
    func fillCentres() async throws {
        let wide = PixelBuffer(size: IntSize(width: 300, height: 100)) { x, _ in x < 100 || x >= 200 ? [0, 0, 0, 1] : [1, 1, 1, 1] }
        let out = try await context.render(Image(pixels: wide).thumbnail(size: IntSize(width: 50, height: 50), mode: .aspectFill))
        #expect(out.extent.size == IntSize(width: 50, height: 50))
        // Only the white middle third survives; the filter's reach blends a little black into the outer columns.
        for y in 0..<50 {
            for x in 4..<46 { #expect(out[x, y][0] > 0.99, "(\(x), \(y))") }
        }
    }

    @Test("a source that can shrink while decoding is asked for the right reduction")
    func shrinkOnLoad() async throws {
        final class Recorder: @unchecked Sendable {
            var scales: [Int] = []
        }
        struct Scalable: ImageSource {
            let recorder: Recorder
            var pixelSize: IntSize { IntSize(width: 1600, height: 1200) }
            var hasAlpha: Bool { false }
            var decodeScales: [Int] { [1, 2, 4, 8] }
            func makeDecoder(scale: Int) throws -> any RowDecoder {
                recorder.scales.append(scale)
                let size = IntSize(width: (1600 + scale - 1) / scale, height: (1200 + scale - 1) / scale)
                return BitmapSource(bitmap: Bitmap(width: size.width, height: size.height, layout: .rgb)).makeDecoderUnchecked()
            }
        }
        for (target, scale) in [(100, 8), (200, 4), (399, 2), (700, 1)] {
            let recorder = Recorder()
            let image = Image(source: Scalable(recorder: recorder)).thumbnail(size: IntSize(width: target, height: target))
            _ = try await context.render(image)
            #expect(recorder.scales == [scale], "target \(target)")
        }
    }
}

extension BitmapSource {
    fileprivate func makeDecoderUnchecked() -> any RowDecoder {
        // BitmapSource's decoder never throws.
        (try? makeDecoder(scale: 1))!
    }
}
