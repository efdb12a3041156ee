import Foundation
import Testing

@testable import SepiaImage

/// Sepia's film grain: the identity, a grain that depends on position only, its place in the tones, and
/// reduced renders that look like the full render reduced.
@Suite struct FilmGrainTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// One colour everywhere, opaque.
    static func flat(_ value: Float, _ width: Int, _ height: Int) -> PixelBuffer {
        PixelBuffer(size: IntSize(width: width, height: height)) { _, _ in SIMD4(value, value, value, 1) }
    }

    /// sRGB-encoded luma of a linear pixel.
    static func encodedLuma(_ p: SIMD4<Float>) -> Double {
        0.2126 * Double(SRGB.fromLinear(p[0])) + 0.7152 * Double(SRGB.fromLinear(p[1])) + 0.0722 * Double(SRGB.fromLinear(p[2]))
    }

    static func meanAndDeviation(_ values: [Double]) -> (mean: Double, deviation: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    /// Mid-grey in linear light (encoded 0.5).
    static let midGrey = SRGB.toLinear(0.5)

    @Test("amount 0 gives the input back, byte for byte")
    func identity() async throws {
        let input = Image(pixels: TestImages.translucentNoise(41, 29))
        let reference = try await context.render(input)
        expectPixels(try await context.render(input.applying(FilmGrain(amount: 0))), equal: reference)
        let fromRecipe = try FilterRegistry.makeFilter(named: "SepiaFilmGrain", parameters: ["inputAmount": .number(0)])
        expectPixels(try await context.render(input.applying(fromRecipe)), equal: reference)
    }

    @Test("the same grain on every render, whatever the tiles and threads")
    func determinism() async throws {
        let image = Image(pixels: TestImages.noise(157, 83)).applying(FilmGrain(amount: 1, size: 1.7, seed: 99))
        let reference = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 100_000)).render(image)
        for (threads, height, width) in [(2, 1, 7), (3, 5, 16), (4, 64, 1), (2, 1000, 3)] as [(Int, Int, Int?)] {
            let options = RenderOptions(threadCount: threads, tileHeight: height, tileWidth: width)
            expectPixels(try await RenderContext(options: options).render(image), equal: reference)
        }
        // Twice on one context, and a region on its own: the grain belongs to the position, not to the render.
        expectPixels(try await context.render(image), equal: reference)
        let region = IntRect(x: 31, y: 17, width: 60, height: 40)
        let part = try await context.render(image, region: region)
        for y in 0..<region.height {
            for x in 0..<region.width {
                #expect(part.pixels[y * region.width + x] == reference.pixels[(y + region.minY) * 157 + x + region.minX])
            }
        }
        // Another seed, another grain.
        let other = try await context.render(Image(pixels: TestImages.noise(157, 83)).applying(FilmGrain(amount: 1, size: 1.7, seed: 100)))
        #expect(maxDifference(other, reference) > 0.01)
    }

    @Test("the kernel, which carries lattice corners along a row, is the noise formula at every pixel, left of 0 too")
    func kernelIsTheFormula() {
        let filter = FilmGrain(amount: 0.9, size: 1.3, seed: 7)
        let noise = GrainNoise(seed: 7)
        let kernel = FilmGrainKernel(noise: noise, inverseSize: 1 / filter.size, strength: filter.strength)
        let curve = TransferCurve.tables
        var random = TestImages.Random(seed: 4)
        for y in [-9, -1, 0, 5, 1234] {
            let x0 = -57, count = 150
            let input = (0..<count).map { _ in SIMD4<Float>(random.unit(), random.unit(), random.unit(), 1) }
            var output = input
            output.withUnsafeMutableBufferPointer { kernel.apply($0.baseAddress!, count: count, x: x0, y: y) }
            for k in 0..<count {
                let p = input[k]
                let e = curve.encode(p)
                let luma = 0.2126 * e[0] + 0.7152 * e[1] + 0.0722 * e[2]
                let n = noise.value(u: (Float(x0 + k) + 0.5) * (1 / filter.size), v: (Float(y) + 0.5) * (1 / filter.size))
                let delta = filter.strength * n * (4 * luma * (1 - luma))
                var expected = p
                if luma > 0 && luma < 1 {
                    for c in 0..<3 { expected[c] = p[c] + (curve.decode(e[c] + delta) - curve.decode(e[c])) }
                }
                #expect(output[k] == expected, "(\(x0 + k), \(y))")
            }
        }
    }

    @Test("the lattice values are uniform in −1…1: mean 0, standard deviation 1/√3; the noise keeps that deviation")
    func noiseStatistics() {
        let noise = GrainNoise(seed: 3)
        var lattice: [Double] = [], field: [Double] = []
        for j in -100..<100 {
            let row = noise.rowHash(j)
            for i in -100..<100 { lattice.append(Double(GrainNoise.value(column: i, rowHash: row))) }
        }
        for y in 0..<300 {
            for x in 0..<300 { field.append(Double(noise.value(u: Float(x) * 0.37 + 0.11, v: Float(y) * 0.41 + 0.05))) }
        }
        let l = Self.meanAndDeviation(lattice), f = Self.meanAndDeviation(field)
        #expect(abs(l.mean) < 0.01 && abs(l.deviation - 1 / 3.0.squareRoot()) < 0.005, "\(l)")
        #expect(abs(f.mean) < 0.02 && abs(f.deviation - 1 / 3.0.squareRoot()) < 0.02, "\(f)")
        #expect(lattice.allSatisfy { $0 > -1 && $0 < 1 })
    }

    @Test("pure black and pure white get no grain; mid-grey gets the most")
    func blackAndWhite() async throws {
        for value: Float in [0, 1] {
            let input = Self.flat(value, 40, 30)
            expectPixels(try await context.render(Image(pixels: input).applying(FilmGrain(amount: 1))), equal: input)
        }
        func deviation(_ encoded: Float) async throws -> Double {
            let out = try await context.render(Image(pixels: Self.flat(SRGB.toLinear(encoded), 96, 96)).applying(FilmGrain(amount: 1)))
            return Self.meanAndDeviation(out.pixels.map(Self.encodedLuma)).deviation
        }
        let grey = try await deviation(0.5), dark = try await deviation(0.1), light = try await deviation(0.9)
        // 0.15 · a(1.5) / √3 at mid-grey; 4 L (1 − L) = 0.36 of it at 0.1 and 0.9.
        let expected = 0.15 * 1.83 / (1 + 1.83 * 1.83).squareRoot() / 3.0.squareRoot()
        #expect(abs(grey / expected - 1) < 0.1, "\(grey) vs \(expected)")
        #expect(abs(dark / grey - 0.36) < 0.05 && abs(light / grey - 0.36) < 0.05, "\(dark), \(light), \(grey)")
    }

    @Test("on a grey ramp the grain keeps the mean encoded luminance and the hue")
    func meanPreserved() async throws {
        let width = 256, height = 128
        let ramp = PixelBuffer(size: IntSize(width: width, height: height)) { x, _ in
            let v = SRGB.toLinear(Float(x) / Float(width - 1))
            return SIMD4(v, v, v, 1)
        }
        let out = try await context.render(Image(pixels: ramp).applying(FilmGrain(amount: 1, size: 2)))
        let before = Self.meanAndDeviation(ramp.pixels.map(Self.encodedLuma)).mean
        let after = Self.meanAndDeviation(out.pixels.map(Self.encodedLuma)).mean
        #expect(abs(after - before) < 0.002, "\(before) → \(after)")
        // Each band of 32 columns keeps its own mean too.
        for band in 0..<(width / 32) {
            var a = 0.0, b = 0.0
            for y in 0..<height {
                for x in (band * 32)..<(band * 32 + 32) {
                    a += Self.encodedLuma(ramp.pixels[y * width + x])
                    b += Self.encodedLuma(out.pixels[y * width + x])
                }
            }
            #expect(abs(a - b) / Double(32 * height) < 0.004, "band \(band)")
        }
        // Luminance noise: a grey stays grey.
        #expect(out.pixels.allSatisfy { abs($0[0] - $0[1]) < 1e-5 && abs($0[1] - $0[2]) < 1e-5 && $0[3] == 1 })
        #expect(maxDifference(out, ramp) > 0.05)
    }

    @Test("a recipe scaled for a preview scales the grain, and the preview's grain is the full render's, reduced")
    func previewMatchesReducedRender() async throws {
        // As the Adjust panel's Grain slider at 1 writes it: the amount only, the size left at its default.
        let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "SepiaFilmGrain", parameters: ["inputAmount": .number(1)])])
        let quarter = try recipe.scaled(by: 0.25)
        #expect(quarter.steps[0].parameters["inputSize"] == .number(0.375))
        #expect(try recipe.scaled(by: 0.001).steps[0].parameters["inputSize"] == .number(0.01), "clamped to the minimum")
        let full = 512
        let fullRender = try await context.render(try recipe.apply(to: Image(pixels: Self.flat(Self.midGrey, full, full))))
        for k in [2, 4, 8] {
            let small = full / k
            // The full render box-reduced by k, in encoded luma.
            var reduced: [Double] = []
            for by in 0..<small {
                for bx in 0..<small {
                    var sum = 0.0
                    for y in (by * k)..<(by * k + k) {
                        for x in (bx * k)..<(bx * k + k) { sum += Self.encodedLuma(fullRender.pixels[y * full + x]) }
                    }
                    reduced.append(sum / Double(k * k))
                }
            }
            let preview = try await context.render(
                try recipe.scaled(by: 1 / Double(k)).apply(to: Image(pixels: Self.flat(Self.midGrey, small, small))))
            let want = Self.meanAndDeviation(reduced).deviation
            let have = Self.meanAndDeviation(preview.pixels.map(Self.encodedLuma)).deviation
            #expect(abs(have / want - 1) < 0.2, "scale 1/\(k): preview \(have), reduced full render \(want)")
        }
    }

    @Test("parameters: clamped by the initialiser, refused out of range from data")
    func parameters() throws {
        #expect(FilmGrain(amount: 3, size: 0, seed: -4) == FilmGrain(amount: 1, size: 0.01, seed: 0))
        #expect(FilmGrain(amount: .nan, size: .infinity).amount == 0)
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "SepiaFilmGrain", parameters: ["inputAmount": .number(1.5)]) }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "SepiaFilmGrain", parameters: ["inputSize": .number(0)]) }
        let made = try FilterRegistry.makeFilter(named: "FilmGrain", parameters: ["amount": .number(0.3), "inputSeed": .number(12)])
        #expect(made as? FilmGrain == FilmGrain(amount: 0.3, seed: 12))
        #expect(!FilmGrain.descriptor.categories.contains(.builtIn))
    }
}
