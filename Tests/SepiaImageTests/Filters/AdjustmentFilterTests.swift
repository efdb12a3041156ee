import Foundation
import Testing

@testable import SepiaImage

/// Vibrance, temperature and tint, the tone curve and noise reduction: identities, the direction of each
/// effect, validation, and recipes scaled to a preview.
@Suite struct AdjustmentFilterTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// A flat patch of `value` with uniform noise of ±`amplitude` on every channel (linear light, opaque).
    static func noisyPatch(_ width: Int, _ height: Int, value: Float, amplitude: Float, seed: UInt64 = 5) -> PixelBuffer {
        var random = TestImages.Random(seed: seed)
        return PixelBuffer(size: IntSize(width: width, height: height)) { _, _ in
            let n = (random.unit() * 2 - 1) * amplitude
            return SIMD4(value + n, value + n, value + n, 1)
        }
    }

    /// One colour everywhere.
    static func flat(_ colour: SIMD4<Float>, _ width: Int = 8, _ height: Int = 8) -> PixelBuffer {
        PixelBuffer(size: IntSize(width: width, height: height)) { _, _ in colour }
    }

    static func luma(_ p: SIMD4<Float>) -> Float { 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] }

    static func standardDeviation(_ values: [Float]) -> Float {
        let mean = values.reduce(0, +) / Float(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(values.count)).squareRoot()
    }

    /// HSV saturation.
    static func saturation(_ p: SIMD4<Float>) -> Float {
        let hi = max(p[0], max(p[1], p[2])), lo = min(p[0], min(p[1], p[2]))
        return (hi - lo) / hi
    }

    func render(_ filter: some Filter, on pixels: PixelBuffer) async throws -> PixelBuffer {
        try await context.render(Image(pixels: pixels).applying(filter))
    }

    @Test("the defaults (and noise reduction's identity values) give the input back")
    func identities() async throws {
        let input = TestImages.noise(37, 23)
        let filters: [any Filter] = [Vibrance(), TemperatureAndTint(), ToneCurve(), NoiseReduction(noiseLevel: 0, sharpness: 0)]
        for filter in filters {
            let out = try await context.render(Image(pixels: input).applying(filter))
            expectPixels(out, equal: input, tolerance: 1e-6)
        }
        #expect(TemperatureAndTint().colorMatrix == .identity)
        // The same light written twice is the identity too, whatever it is.
        #expect(TemperatureAndTint(neutral: [3000, 40], targetNeutral: [3000, 40]).colorMatrix == .identity)
    }

    @Test("vibrance raises a muted colour's saturation more than a vivid one's; negative amounts lower it")
    func vibrance() async throws {
        let muted = SIMD4<Float>(0.30, 0.25, 0.22, 1), vivid = SIMD4<Float>(0.80, 0.05, 0.02, 1)
        for amount: Float in [0.5, 1] {
            let m = try await render(Vibrance(amount: amount), on: Self.flat(muted)).pixels[0]
            let v = try await render(Vibrance(amount: amount), on: Self.flat(vivid)).pixels[0]
            let mutedGain = Self.saturation(m) / Self.saturation(muted)
            let vividGain = Self.saturation(v) / Self.saturation(vivid)
            #expect(mutedGain > 1 && vividGain >= 1)
            #expect(mutedGain > vividGain + 0.1, "muted ×\(mutedGain), vivid ×\(vividGain)")
            // Luminance is kept.
            #expect(abs(Self.luma(m) - Self.luma(muted)) < 1e-6)
        }
        let less = try await render(Vibrance(amount: -1), on: Self.flat(muted)).pixels[0]
        #expect(Self.saturation(less) < Self.saturation(muted) * 0.4)
        // A grey stays grey.
        let grey = try await render(Vibrance(amount: 1), on: Self.flat([0.4, 0.4, 0.4, 1])).pixels[0]
        #expect(abs(grey[0] - 0.4) < 1e-6 && abs(grey[2] - 0.4) < 1e-6)
    }

    @Test("a warmer (lower) target raises red over blue; a positive tint on the target greens it; whites stay white")
    func temperature() async throws {
        let grey = Self.flat([0.5, 0.5, 0.5, 1])
        let warm = try await render(TemperatureAndTint(targetNeutral: [4000, 0]), on: grey).pixels[0]
        let cool = try await render(TemperatureAndTint(targetNeutral: [9000, 0]), on: grey).pixels[0]
        #expect(warm[0] / warm[2] > 1.2, "\(warm)")
        #expect(cool[0] / cool[2] < 0.9, "\(cool)")
        // The warmer the target, the higher the ratio.
        let warmer = try await render(TemperatureAndTint(targetNeutral: [3000, 0]), on: grey).pixels[0]
        #expect(warmer[0] / warmer[2] > warm[0] / warm[2])
        // A neutral bluer than the target warms as well (the picture's light is taken as bluish and corrected).
        let corrected = try await render(TemperatureAndTint(neutral: [9000, 0]), on: grey).pixels[0]
        #expect(corrected[0] / corrected[2] > 1.1)
        // Tint: a greener target light makes the picture greener, a greener neutral makes it more magenta.
        let green = try await render(TemperatureAndTint(targetNeutral: [6500, 60]), on: grey).pixels[0]
        let magenta = try await render(TemperatureAndTint(neutral: [6500, 60]), on: grey).pixels[0]
        #expect(green[1] > green[0] && green[1] > green[2])
        #expect(magenta[1] < magenta[0] && magenta[1] < magenta[2])
        // Alpha is kept and the filter is one colour matrix.
        #expect(warm[3] == 1)
        #expect(TemperatureAndTint(targetNeutral: [4000, 0]).colorMatrix != nil)
        // The white point of 6500 K on the locus is near D65's (Kim et al.'s approximation).
        let (xy, _) = TemperatureAndTint.planckian(6500)
        #expect(abs(xy.x - 0.3135) < 5e-4 && abs(xy.y - 0.3237) < 5e-4, "\(xy)")
    }

    @Test("temperature and tint outside their ranges are refused; the initialiser clamps")
    func temperatureValidation() throws {
        #expect(throws: FilterError.self) {
            try FilterRegistry.makeFilter(named: "CITemperatureAndTint", parameters: ["inputNeutral": .vector([1000, 0])])
        }
        #expect(throws: FilterError.self) {
            try FilterRegistry.makeFilter(named: "CITemperatureAndTint", parameters: ["inputTargetNeutral": .vector([6500, 200])])
        }
        #expect(throws: FilterError.self) {
            try FilterRegistry.makeFilter(named: "CITemperatureAndTint", parameters: ["inputNeutral": .vector([6500])])
        }
        do {
            _ = try FilterRegistry.makeFilter(named: "CITemperatureAndTint", parameters: ["inputNeutral": .vector([60000, 0])])
            Issue.record("60 000 K was accepted")
        } catch {
            #expect(String(describing: error) == "CITemperatureAndTint.inputNeutral is 60000 but must be between 2000 and 50000")
        }
        let made = try FilterRegistry.makeFilter(named: "CITemperatureAndTint", parameters: ["inputNeutral": .vector([5000, -20])])
        #expect((made as? TemperatureAndTint)?.neutral == [5000, -20])
        #expect(TemperatureAndTint(neutral: [100, 900]).neutral == [2000, 150])
    }

    @Test("the tone curve passes through its points, is monotone, and an S curve adds contrast")
    func toneCurve() async throws {
        let curve = ToneCurve(point0: [0, 0], point1: [0.25, 0.15], point2: [0.5, 0.5], point3: [0.75, 0.85], point4: [1, 1])
        let spline = ToneCurve.Spline(points: curve.points)
        for p in curve.points { #expect(abs(spline(p.x) - p.y) < 1e-12) }
        var previous = -Double.infinity
        for i in 0...1000 {
            let v = spline(Double(i) / 1000)
            #expect(v >= previous)
            previous = v
        }
        // Pixels whose encoded value is one of the points' x come out at its y.
        let ramp = PixelBuffer(size: IntSize(width: 5, height: 1)) { x, _ in
            let v = SRGB.toLinear(Float(x) / 4)
            return SIMD4(v, v, v, 1)
        }
        let out = try await render(curve, on: ramp)
        for (i, p) in curve.points.enumerated() {
            #expect(abs(SRGB.fromLinear(max(0, out.pixels[i][0])) - Float(p.y)) < 1e-4, "point \(i): \(out.pixels[i])")
        }
        // An S curve spreads the tones of the photo.
        let input = TestImages.noise(40, 30)
        let s = try await render(curve, on: input)
        let before = Self.standardDeviation(input.pixels.map { SRGB.fromLinear($0[0]) })
        let after = Self.standardDeviation(s.pixels.map { SRGB.fromLinear(min(1, max(0, $0[0]))) })
        #expect(after > before * 1.1)
        // Outside the points the curve continues with its end slopes.
        let short = ToneCurve.Spline(points: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8], [0.9, 1]])
        #expect(abs(short(0) - 0.1) < 1e-12 && abs(short(1.2) - 1.3) < 1e-12)
    }

    @Test("tone curve points must have increasing x, with a clear error")
    func toneCurveValidation() throws {
        do {
            _ = try FilterRegistry.makeFilter(named: "CIToneCurve", parameters: ["inputPoint2": .vector([0.2, 0.5])])
            Issue.record("a point left of its predecessor was accepted")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("inputPoint2"), "\(message)")
            #expect(message.contains("greater than inputPoint1"), "\(message)")
        }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "CIToneCurve", parameters: ["inputPoint4": .vector([0.75, 1])]) }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "CIToneCurve", parameters: ["inputPoint1": .vector([0.25, .nan])]) }
        #expect(throws: FilterError.self) {
            try FilterRegistry.makeFilter(named: "CIToneCurve", parameters: ["inputPoint1": .vector([0.25, 0.2, 0])])
        }
        _ = try FilterRegistry.makeFilter(named: "CIToneCurve", parameters: ["inputPoint0": .vector([-0.5, 0]), "inputPoint4": .vector([1.5, 1])])
    }

    @Test("noise reduction lowers the noise of a flat patch and keeps an edge's contrast")
    func noiseReduction() async throws {
        let patch = Self.noisyPatch(48, 40, value: 0.3, amplitude: 0.008)
        let out = try await render(NoiseReduction(), on: patch)
        // The middle, away from the clamped edges.
        func middle(_ b: PixelBuffer) -> [Float] {
            (8..<32).flatMap { y in (8..<40).map { x in b.pixels[y * 48 + x][1] } }
        }
        let before = Self.standardDeviation(middle(patch)), after = Self.standardDeviation(middle(out))
        #expect(after < before * 0.5, "σ \(before) → \(after)")
        // A step from 0.1 to 0.6 keeps (and sharpening slightly raises) its contrast.
        let step = PixelBuffer(size: IntSize(width: 32, height: 8)) { x, _ in x < 16 ? SIMD4(0.1, 0.1, 0.1, 1) : SIMD4(0.6, 0.6, 0.6, 1) }
        let edged = try await render(NoiseReduction(), on: step)
        let row = 4 * 32
        #expect(edged.pixels[row + 16][0] - edged.pixels[row + 15][0] >= 0.5 - 1e-6)
        #expect(edged.pixels[row + 15][0] <= 0.1 && edged.pixels[row + 16][0] >= 0.6)
        // Far from the edge nothing changes.
        #expect(abs(edged.pixels[row + 2][0] - 0.1) < 1e-6 && abs(edged.pixels[row + 29][0] - 0.6) < 1e-6)
    }

    @Test("scaling a recipe leaves tone curve points and white points alone")
    func scalingLeavesOffsets() throws {
        let points: [String: FilterValue] = [
            "inputPoint0": .vector([0, 0.05]), "inputPoint1": .vector([0.3, 0.2]), "inputPoint2": .vector([0.5, 0.55]),
            "inputPoint3": .vector([0.8, 0.85]), "inputPoint4": .vector([1, 0.95]),
        ]
        let white: [String: FilterValue] = ["inputNeutral": .vector([5000, 10]), "inputTargetNeutral": .vector([6500, -5])]
        let recipe = EditRecipe(steps: [
            .init(filter: "CIToneCurve", parameters: points), .init(filter: "CITemperatureAndTint", parameters: white),
            .init(filter: "CIToneCurve"), .init(filter: "CIVibrance", parameters: ["inputAmount": .number(0.5)]),
            .init(filter: "CINoiseReduction", parameters: ["inputNoiseLevel": .number(0.05)]),
        ])
        for factor in [0.25, 3.0] {
            let scaled = try recipe.scaled(by: factor)
            #expect(scaled.steps[0].parameters == points)
            #expect(scaled.steps[1].parameters == white)
            // Defaults that are not pixels are not written out.
            #expect(scaled.steps[2].parameters.isEmpty)
            #expect(scaled.steps[3].parameters == ["inputAmount": .number(0.5)])
            #expect(scaled.steps[4].parameters == ["inputNoiseLevel": .number(0.05)])
            _ = try scaled.makeFilters()
        }
    }
}
