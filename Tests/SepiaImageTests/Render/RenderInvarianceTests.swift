import SepiaImage
import Testing

/// The renderer's promise: the same pixels whatever the tile size and the number of threads.
@Suite struct RenderInvarianceTests {
    static let recipes: [(String, @Sendable () -> Image)] = [
        ("resize down", { Image(pixels: TestImages.noise(97, 61)).resized(to: IntSize(width: 23, height: 17)) }),
        ("resize up", { Image(pixels: TestImages.noise(19, 11)).resized(to: IntSize(width: 53, height: 40)) }),
        ("large reduction with box pre-shrink", { Image(pixels: TestImages.noise(211, 173)).resized(to: IntSize(width: 13, height: 11)) }),
        (
            "orient, resize, crop",
            {
                Image(pixels: TestImages.noise(80, 50)).oriented(.right).resized(to: IntSize(width: 31, height: 47))
                    .cropped(to: IntRect(x: 3, y: 5, width: 20, height: 30))
            }
        ),
        ("translucent sepia", { Image(pixels: TestImages.translucentNoise(64, 45)).applying(SepiaTone(intensity: 0.7)) }),
        ("streamed bitmap source", { Image(bitmap: TestImages.bitmapNoise(120, 77)).resized(to: IntSize(width: 50, height: 33)) }),
        ("streamed source, mirrored", { Image(bitmap: TestImages.bitmapNoise(66, 40)).oriented(.upMirrored).applying(SepiaTone()) }),
        ("streamed source, rotated", { Image(bitmap: TestImages.bitmapNoise(66, 40)).oriented(.leftMirrored) }),
        (
            "clamped and cropped",
            {
                Image(pixels: TestImages.noise(30, 20)).clampedToExtent().cropped(to: IntRect(x: -7, y: -5, width: 45, height: 33))
            }
        ),
        // Wider than a blur chunk (512 columns), so strips roll down several chunks at once.
        ("large Gaussian, streamed source", { Image(bitmap: TestImages.bitmapNoise(1040, 60)).applying(GaussianBlur(radius: 10)) }),
        (
            "box blur, cropped",
            { Image(pixels: TestImages.noise(560, 40)).applying(BoxBlur(radius: 6)).cropped(to: IntRect(x: 5, y: 9, width: 550, height: 25)) }
        ),
        ("Gaussian of a Gaussian", { Image(pixels: TestImages.noise(520, 40)).applying(GaussianBlur(radius: 4)).applying(GaussianBlur(radius: 3)) }),
        // Position-dependent noise, fused after a colour matrix, on pixels left of and above the origin.
        (
            "clamped, cropped, sepia and film grain",
            {
                Image(pixels: TestImages.translucentNoise(70, 45)).clampedToExtent().cropped(to: IntRect(x: -9, y: -4, width: 85, height: 52))
                    .applying(SepiaTone(intensity: 0.5)).applying(FilmGrain(amount: 1, size: 1.3))
            }
        ),
    ]

    static let configurations: [(threads: Int, tileHeight: Int, tileWidth: Int?)] = [
        (2, 1, nil), (3, 7, nil), (2, 16, 13), (1, 3, 5), (4, 1000, nil),
    ]

    @Test("tile size and thread count do not change a single bit", arguments: recipes.indices)
    func invariance(index: Int) async throws {
        // Given a reference render on one thread in one tile
        let (_, make) = Self.recipes[index]
        let image = make()
        let reference = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 100_000)).render(image)
        // When rendering with other tilings and thread counts
        for config in Self.configurations {
            let context = RenderContext(
                options: RenderOptions(threadCount: config.threads, tileHeight: config.tileHeight, tileWidth: config.tileWidth))
            let pixels = try await context.render(image)
            // Then every pixel is identical
            expectPixels(pixels, equal: reference)
        }
    }

    @Test("bitmaps and streamed rows are identical to float renders encoded once")
    func outputsAgree() async throws {
        let image = Image(bitmap: TestImages.bitmapNoise(73, 41)).resized(to: IntSize(width: 40, height: 30))
        let a = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 5)).renderBitmap(image)
        let b = try await RenderContext(options: RenderOptions(threadCount: 3, tileHeight: 64, tileWidth: 7)).renderBitmap(image)
        #expect(a == b)
        final class Collect: RowSink, @unchecked Sendable {
            var bytes: [UInt8] = []
            var rows = 0
            func begin(width: Int, height: Int, layout: Bitmap.Layout) throws {}
            func write(rows: [UInt8], rowCount: Int) throws {
                bytes += rows
                self.rows += rowCount
            }
            func finish() throws {}
        }
        let sink = Collect()
        try await RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 3)).render(image, layout: .rgb, into: sink)
        #expect(sink.rows == 30)
        #expect(sink.bytes == a.bytes)
    }

    @Test("many renders at once on one context")
    func concurrentRenders() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 4))
        let image = Image(bitmap: TestImages.bitmapNoise(90, 60)).resized(to: IntSize(width: 45, height: 30))
        let reference = try await context.renderBitmap(image)
        try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<12 { group.addTask { try await context.renderBitmap(image) } }
            for try await result in group { #expect(result == reference) }
        }
    }

    @Test("blocking renders match async renders")
    func synchronousRender() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let image = Image(pixels: TestImages.noise(40, 30)).resized(to: IntSize(width: 20, height: 10))
        let a = try await context.render(image)
        let b = try await Task.detached { try context.renderSynchronously(image) }.value
        #expect(a == b)
    }
}
