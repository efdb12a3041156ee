import Foundation
import SepiaImage
import Testing

/// Auto: under- and over-exposed photos move toward the middle; a well-exposed one is left nearly alone.
@Suite struct AutoAdjustmentTests {
    static let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// A well-exposed scene: encoded tones spread from 0.03 to 0.91 in smooth bands (median near 0.47), coloured
    /// at the same luminance, in linear light, times `gain` (clipped at white), as a camera exposing
    /// `log2(gain)` stops more would make it.
    static func scene(gain: Float) -> Image {
        var random = TestImages.Random(seed: 5)
        let pixels = PixelBuffer(size: IntSize(width: 320, height: 240)) { x, y in
            let tone = 0.03 + 0.88 * (Float(x) / 319 * 0.7 + Float(y) / 239 * 0.3) + (random.unit() - 0.5) * 0.02
            let base = SRGB.toLinear(min(max(tone, 0), 1))
            let hue = Float(y % 80) / 80
            let tint = SIMD3<Float>(1 + 0.8 * hue, 1, 1.8 - 1.2 * hue)
            let colour = tint / (0.2126 * tint.x + 0.7152 * tint.y + 0.0722 * tint.z) * base
            let exposed = pointwiseMin(colour * gain, SIMD3(repeating: 1))
            return SIMD4(exposed, 1)
        }
        return Image(pixels: pixels)
    }

    static func median(_ image: Image) async throws -> Double {
        let bitmap = try await context.renderBitmap(image.thumbnail(size: IntSize(width: 256, height: 256)), layout: .rgb)
        var lumas: [Double] = []
        for i in stride(from: 0, to: bitmap.bytes.count, by: 3) {
            lumas.append((0.2126 * Double(bitmap.bytes[i]) + 0.7152 * Double(bitmap.bytes[i + 1]) + 0.0722 * Double(bitmap.bytes[i + 2])) / 255)
        }
        return lumas.sorted()[lumas.count / 2]
    }

    @Test("an under-exposed photo is brightened and an over-exposed one darkened: the median moves toward the middle")
    func exposures() async throws {
        for (gain, name) in [(Float(0.15), "2.7 stops under"), (0.3, "1.7 stops under"), (3, "1.6 stops over")] {
            let photo = Self.scene(gain: gain)
            let values = try await AutoAdjustment.values(for: photo, context: Self.context)
            let before = try await Self.median(photo)
            let after = try await Self.median(try EditRecipe(steps: values.steps).apply(to: photo))
            #expect(abs(after - 0.45) < abs(before - 0.45) * 0.6, "\(name): median \(before) → \(after) with \(values.positions)")
            #expect(gain < 1 ? values["exposure"] > 0.2 : values["exposure"] < -0.2, "\(name): \(values.positions)")
        }
    }

    @Test("a well-exposed photo is left nearly alone")
    func wellExposed() async throws {
        let values = try await AutoAdjustment.values(for: Self.scene(gain: 1), context: Self.context)
        for (id, position) in values.positions { #expect(abs(position) <= 0.1, "\(id) = \(position)") }
    }

    @Test("a washed-out, grey photo gets its black point and some vibrance; clipped highlights come down")
    func washedOut() async throws {
        let grey = Image(pixels: TestImages.noise(64, 48)).applying(ColorControls(saturation: 0.2, brightness: 0, contrast: 0.5))
        let values = try await AutoAdjustment.values(for: grey, context: Self.context)
        #expect(values["blackPoint"] > 0.2, "\(values.positions)")
        #expect(values["vibrance"] > 0.1, "\(values.positions)")
        let clipped = try await AutoAdjustment.values(for: Self.scene(gain: 3), context: Self.context)
        #expect(clipped["highlights"] < -0.1, "\(clipped.positions)")
    }

    @Test("a blank or black bitmap gives sensible values, never NaN")
    func degenerate() {
        let black = Bitmap(width: 8, height: 8, layout: .rgb)
        let values = AutoAdjustment.analyze(black)
        #expect(values.positions.values.allSatisfy { $0.isFinite })
        #expect(values["exposure"] > 0)
        #expect(AutoAdjustment.analyze(Bitmap(width: 0, height: 0, layout: .rgb)).isEmpty)
    }
}
