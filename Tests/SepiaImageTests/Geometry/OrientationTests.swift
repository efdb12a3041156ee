import SepiaImage
import Testing

@Suite struct OrientationTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 2))

    /// The stored 3×2 image  a b c / d e f  as each EXIF orientation displays it.
    static let expected: [Orientation: [[String]]] = [
        .up: [["a", "b", "c"], ["d", "e", "f"]],
        .upMirrored: [["c", "b", "a"], ["f", "e", "d"]],
        .down: [["f", "e", "d"], ["c", "b", "a"]],
        .downMirrored: [["d", "e", "f"], ["a", "b", "c"]],
        .leftMirrored: [["a", "d"], ["b", "e"], ["c", "f"]],
        .right: [["d", "a"], ["e", "b"], ["f", "c"]],
        .rightMirrored: [["f", "c"], ["e", "b"], ["d", "a"]],
        .left: [["c", "f"], ["b", "e"], ["a", "d"]],
    ]

    @Test("each EXIF orientation turns the stored pixels as the EXIF specification says", arguments: Orientation.allCases)
    func mapping(orientation: Orientation) async throws {
        let letters = ["a", "b", "c", "d", "e", "f"]
        let stored = PixelBuffer(size: IntSize(width: 3, height: 2)) { x, y in SIMD4(Float(y * 3 + x), 0, 0, 1) }
        let out = try await context.render(Image(pixels: stored).oriented(orientation))
        let rows = Self.expected[orientation]!
        #expect(out.extent.size == IntSize(width: rows[0].count, height: rows.count))
        for (y, row) in rows.enumerated() {
            for (x, letter) in row.enumerated() {
                #expect(letters[Int(out[x, y][0])] == letter, "\(orientation) at (\(x), \(y))")
            }
        }
    }

    @Test("an orientation followed by its inverse is the identity", arguments: Orientation.allCases)
    func inverse(orientation: Orientation) async throws {
        let stored = TestImages.coordinates(7, 4)
        let out = try await context.render(Image(pixels: stored).oriented(orientation).oriented(orientation.inverse))
        expectPixels(out, equal: stored)
    }

    @Test("EXIF values outside 1...8 mean upright")
    func invalidValues() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: 6) == .right)
    }

    @Test("resizing an oriented image equals orienting the resized image", arguments: [Orientation.right, .downMirrored, .leftMirrored])
    func resizeCommutes(orientation: Orientation) async throws {
        let source = TestImages.noise(40, 24)
        let a = try await context.render(Image(pixels: source).oriented(orientation).resized(to: IntSize(width: 9, height: 15)))
        let transposed = orientation.transformsSize
        let b = try await context.render(
            Image(pixels: source).resized(to: transposed ? IntSize(width: 15, height: 9) : IntSize(width: 9, height: 15)).oriented(orientation))
        #expect(maxDifference(a, b) < 1e-5)
    }
}

@Suite struct GeometryTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 3))

    @Test("crop keeps the extent's intersection")
    func crop() async throws {
        let source = TestImages.coordinates(10, 8)
        let image = Image(pixels: source).cropped(to: IntRect(x: 2, y: 3, width: 20, height: 2))
        #expect(image.extent == IntRect(x: 2, y: 3, width: 8, height: 2))
        let out = try await context.render(image)
        #expect(out[2, 3] == source[2, 3])
        #expect(out[9, 4] == source[9, 4])
    }

    @Test("clamping repeats edge pixels in every direction")
    func clamp() async throws {
        let source = TestImages.coordinates(4, 3)
        let out = try await context.render(Image(pixels: source).clampedToExtent(), region: IntRect(x: -3, y: -2, width: 10, height: 7))
        #expect(out[-3, -2] == source[0, 0])
        #expect(out[6, 4] == source[3, 2])
        #expect(out[2, -1] == source[2, 0])
        #expect(out[-1, 1] == source[0, 1])
        #expect(out[5, 1] == source[3, 1])
        #expect(out[1, 1] == source[1, 1])
    }

    @Test("translation moves the extent and the pixels")
    func translate() async throws {
        let source = TestImages.coordinates(3, 3)
        let image = Image(pixels: source).translatedBy(dx: 5, dy: -2)
        #expect(image.extent == IntRect(x: 5, y: -2, width: 3, height: 3))
        let out = try await context.render(image)
        #expect(out[6, -1] == source[1, 1])
        #expect(try await context.render(image.movedToOrigin()) == source)
    }
}
