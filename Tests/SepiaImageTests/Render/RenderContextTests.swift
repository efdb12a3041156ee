import Foundation
import SepiaImage
import Testing

@Suite struct RenderContextTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 8))

    @Test("an infinite image needs a region")
    func infiniteExtent() async {
        await #expect(throws: RenderError.infiniteExtent) {
            try await context.render(Image(color: [1, 0, 0, 1]))
        }
    }

    @Test("an empty region is an error")
    func emptyRegion() async {
        await #expect(throws: RenderError.self) {
            try await context.render(Image(pixels: TestImages.noise(4, 4)), region: IntRect(x: 0, y: 0, width: 0, height: 3))
        }
    }

    @Test("outputs above the pixel limit are refused before rendering")
    func outputLimit() async {
        let small = RenderContext(options: RenderOptions(threadCount: 1, maximumOutputPixels: 100))
        await #expect(throws: RenderError.tooManyPixels(width: 11, height: 10, limit: 100)) {
            try await small.render(Image(color: [0, 0, 0, 1]), region: IntRect(x: 0, y: 0, width: 11, height: 10))
        }
    }

    @Test("outside its extent an image is transparent")
    func outsideExtent() async throws {
        let image = Image(pixels: PixelBuffer(size: IntSize(width: 2, height: 2)) { _, _ in [0.5, 0.5, 0.5, 1] })
        let pixels = try await context.render(image, region: IntRect(x: -1, y: -1, width: 4, height: 4))
        #expect(pixels[-1, -1] == .zero)
        #expect(pixels[0, 0] == [0.5, 0.5, 0.5, 1])
        #expect(pixels[2, 1] == .zero)
    }

    @Test("a decoder error reaches the caller and the context keeps working")
    func decoderFailure() async throws {
        struct Broken: ImageSource {
            var pixelSize: IntSize { IntSize(width: 10, height: 40) }
            var hasAlpha: Bool { false }
            var decodeScales: [Int] { [1] }
            struct Failure: Error {}
            func makeDecoder(scale: Int) throws -> any RowDecoder { throw Failure() }
        }
        await #expect(throws: Broken.Failure.self) {
            try await context.render(Image(source: Broken()))
        }
        let ok = try await context.render(Image(pixels: TestImages.noise(3, 3)))
        #expect(ok.pixels.count == 9)
    }

    @Test(
        "a decoder that fails part-way is reported as itself by every worker, streamed or whole-frame, blurred or not",
        arguments: [true, false])
    func decoderFailsPartWay(incremental: Bool) async throws {
        // The first worker's decode fails slowly, so the second is waiting for the decoder when it does.
        final class Failing: RowDecoder {
            let size = IntSize(width: 8, height: 64)
            let format = SourcePixelFormat.rgb8
            let color = SourceColor.sRGB
            let decodesIncrementally: Bool
            var rows = 0
            init(incremental: Bool) { decodesIncrementally = incremental }
            func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
                if rows >= 20 {
                    usleep(2000)
                    throw Truncated()
                }
                let count = min(buffer.count / bytesPerRow, 20 - rows)
                buffer.initializeMemory(as: UInt8.self, repeating: 128)
                rows += count
                return count
            }
        }
        struct Truncated: Error {}
        struct Source: ImageSource {
            var incremental: Bool
            var pixelSize: IntSize { IntSize(width: 8, height: 64) }
            var hasAlpha: Bool { false }
            var decodeScales: [Int] { [1] }
            func makeDecoder(scale: Int) throws -> any RowDecoder { Failing(incremental: incremental) }
        }
        let small = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 4))
        let plain = Image(source: Source(incremental: incremental))
        // Under a blur, the second worker may also be waiting for the first's blur stream when the decode fails.
        for image in [plain, plain.applying(GaussianBlur(radius: 5))] {
            for _ in 0..<100 {
                await #expect(throws: Truncated.self) {
                    try await small.render(image)
                }
            }
        }
    }

    @Test("transparent pixels are composited over the background for RGB output")
    func flattening() async throws {
        let clear = Image(pixels: PixelBuffer(size: IntSize(width: 1, height: 1)) { _, _ in .zero })
        let white = try await context.renderBitmap(clear, layout: .rgb)
        #expect(white.bytes == [255, 255, 255])
        let black = try await RenderContext(options: RenderOptions(threadCount: 1, background: [0, 0, 0])).renderBitmap(clear, layout: .rgb)
        #expect(black.bytes == [0, 0, 0])
        let rgba = try await context.renderBitmap(clear)
        #expect(rgba.layout == .rgba && rgba.bytes == [0, 0, 0, 0])
    }

    @Test("a render asked for by a task that is already cancelled ends with cancelled, and the context renders on")
    func renderInCancelledTask() async throws {
        let image = Image(pixels: TestImages.noise(64, 64))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await context.renderBitmap(image, layout: .rgb)
        }
        let error = await #expect(throws: RenderError.self) { try await task.value }
        if case .cancelled = error {} else { Issue.record("expected cancelled, got \(String(describing: error))") }
        #expect(try await context.renderBitmap(image, layout: .rgb).size == IntSize(width: 64, height: 64))
    }
}
