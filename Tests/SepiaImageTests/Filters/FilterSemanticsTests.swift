import Foundation
import SepiaImage
import Testing

/// What each filter is for, checked as properties on a real photo crop (the reference input).
@Suite struct FilterSemanticsTests {
    static let photo: PixelBuffer = {
        let index = FilterReferenceTests.index!
        return try! FilterReferenceTests.load(index.input.file, extent: IntRect(x: 0, y: 0, width: index.input.width, height: index.input.height))
    }()

    let context = RenderContext(options: RenderOptions(threadCount: 2))

    func render(_ filter: some Filter, on pixels: PixelBuffer = photo) async throws -> PixelBuffer {
        try await context.render(Image(pixels: pixels).applying(filter))
    }

    /// sRGB-encoded colour of a pixel.
    static func encoded(_ p: SIMD4<Float>) -> SIMD3<Float> {
        SIMD3(SRGB.fromLinear(max(0, p[0])), SRGB.fromLinear(max(0, p[1])), SRGB.fromLinear(max(0, p[2])))
    }

    struct Stats {
        var contrast: Float  // standard deviation of encoded luma
        var saturation: Float  // mean of max − min of encoded channels
        var warmth: Float  // mean encoded red − blue
        var brightness: Float  // mean encoded luma
    }

    static func stats(_ b: PixelBuffer) -> Stats {
        var lumas: [Float] = [], sat: Float = 0, warm: Float = 0
        for p in b.pixels {
            let e = encoded(p)
            lumas.append(0.2126 * e.x + 0.7152 * e.y + 0.0722 * e.z)
            sat += max(e.x, max(e.y, e.z)) - min(e.x, min(e.y, e.z))
            warm += e.x - e.z
        }
        let n = Float(lumas.count)
        let mean = lumas.reduce(0, +) / n
        let variance = lumas.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        return Stats(contrast: variance.squareRoot(), saturation: sat / n, warmth: warm / n, brightness: mean)
    }

    // MARK: - Photo effects

    @Test("Mono, Noir and Tonal are black and white")
    func blackAndWhite() async throws {
        for filter in [PhotoEffectMono() as any Filter, PhotoEffectNoir(), PhotoEffectTonal()] {
            let out = try await context.render(Image(pixels: Self.photo).applying(filter))
            #expect(out.pixels.allSatisfy { $0[0] == $0[1] && $0[1] == $0[2] }, "\(type(of: filter))")
        }
    }

    @Test("Noir has more contrast than Mono and Tonal; Mono has less than Tonal")
    func contrasts() async throws {
        let mono = Self.stats(try await render(PhotoEffectMono()))
        let noir = Self.stats(try await render(PhotoEffectNoir()))
        let tonal = Self.stats(try await render(PhotoEffectTonal()))
        #expect(noir.contrast > mono.contrast * 1.1)
        #expect(noir.contrast > tonal.contrast * 1.05)
        #expect(mono.contrast < tonal.contrast)
    }

    @Test("Fade lowers saturation and contrast; Chrome raises saturation; Instant desaturates")
    func colourfulness() async throws {
        let original = Self.stats(Self.photo)
        let fade = Self.stats(try await render(PhotoEffectFade()))
        let chrome = Self.stats(try await render(PhotoEffectChrome()))
        let instant = Self.stats(try await render(PhotoEffectInstant()))
        #expect(fade.saturation < original.saturation * 0.8)
        #expect(fade.contrast < original.contrast * 0.9)
        #expect(chrome.saturation > original.saturation * 1.15)
        #expect(instant.saturation < original.saturation)
    }

    @Test("Transfer is warmer and Process cooler than the input")
    func temperature() async throws {
        let original = Self.stats(Self.photo)
        #expect(Self.stats(try await render(PhotoEffectTransfer())).warmth > original.warmth + 0.03)
        #expect(Self.stats(try await render(PhotoEffectProcess())).warmth < original.warmth - 0.03)
        #expect(Self.stats(try await render(SepiaTone())).warmth > original.warmth + 0.05)
    }

    // MARK: - Spatial and geometric filters

    @Test("blurs keep the extent and do not darken the border")
    func blurEdges() async throws {
        let grey = PixelBuffer(size: IntSize(width: 40, height: 30)) { _, _ in [0.3, 0.3, 0.3, 1] }
        for filter in [GaussianBlur(radius: 1.2) as any Filter, GaussianBlur(radius: 8), BoxBlur(radius: 5), UnsharpMask(), SharpenLuminance()] {
            let out = try await context.render(Image(pixels: grey).applying(filter))
            #expect(out.extent == grey.extent)
            for p in out.pixels { #expect(abs(p[0] - 0.3) < 1e-5 && abs(p[3] - 1) < 1e-6, "\(type(of: filter))") }
        }
    }

    @Test("sharpening adds local contrast; blurring removes it")
    func detail() async throws {
        let original = Self.stats(Self.photo).contrast
        #expect(Self.stats(try await render(UnsharpMask(radius: 2.5, intensity: 1))).contrast > original)
        #expect(Self.stats(try await render(GaussianBlur(radius: 4))).contrast < original)
    }

    @Test("a vignette darkens the corners, not the centre; negative intensity lightens")
    func vignette() async throws {
        let grey = PixelBuffer(size: IntSize(width: 60, height: 40)) { _, _ in [0.5, 0.5, 0.5, 1] }
        let dark = try await render(Vignette(intensity: 1, radius: 1), on: grey)
        #expect(dark[0, 0][0] < 0.1)
        #expect(abs(dark[30, 20][0] - 0.5) < 0.01)
        let light = try await render(Vignette(intensity: -1, radius: 1), on: grey)
        #expect(light[59, 39][0] > 0.9)
        let spot = try await render(VignetteEffect(center: [30, 20], radius: 10, intensity: 1, falloff: 0), on: grey)
        #expect(spot[30, 20][0] == 0.5 && spot[0, 0][0] == 0)
    }

    @Test("straighten rotates and fills the frame: same extent, no transparent corners")
    func straighten() async throws {
        let out = try await render(StraightenFilter(angle: 0.25))
        #expect(out.extent == Self.photo.extent)
        #expect(out.pixels.allSatisfy { $0[3] > 0.999 })
    }

    @Test("geometry filters set the extent")
    func extents() {
        let image = Image(pixels: Self.photo)
        #expect(image.applying(Crop(rect: IntRect(x: 10, y: 5, width: 20, height: 100))).extent == IntRect(x: 10, y: 5, width: 20, height: 43))
        #expect(image.applying(LanczosScaleTransform(scale: 0.5, aspectRatio: 2)).extent.size == IntSize(width: 64, height: 24))
        let rotated = image.applying(AffineTransform(transform: AffineMatrix(rotationAngle: .pi / 2)))
        #expect(rotated.extent == IntRect(x: -48, y: 0, width: 48, height: 64))
        #expect(image.applying(Crop()).extent == image.extent)
    }

    @Test("pixellate fills each cell with one colour; crystallize with few")
    func cells() async throws {
        let pixellated = try await render(Pixellate(center: [0, 0], scale: 8))
        for y in stride(from: 0, to: 48, by: 8) {
            for x in stride(from: 0, to: 64, by: 8) {
                let c = pixellated[x, y]
                #expect(pixellated[x + 7, y + 7] == c)
            }
        }
        let crystals = try await render(Crystallize(radius: 12))
        let distinct = Set(crystals.pixels.map { SIMD4<Int32>(Int32($0[0] * 1e6), Int32($0[1] * 1e6), Int32($0[2] * 1e6), 0) })
        #expect(distinct.count < 60 && distinct.count > 5)
    }

    @Test("edges: a flat image has none")
    func edges() async throws {
        let flat = PixelBuffer(size: IntSize(width: 20, height: 20)) { _, _ in [0.2, 0.6, 0.4, 1] }
        let out = try await render(Edges(intensity: 5), on: flat)
        #expect(out.pixels.allSatisfy { $0[0] == 0 && $0[1] == 0 && $0[2] == 0 && $0[3] == 1 })
    }

    @Test("highlight/shadow lifts shadows and lowers highlights, globally and locally")
    func highlightShadow() async throws {
        // A dark half with texture and a bright half.
        let halves = PixelBuffer(size: IntSize(width: 40, height: 20)) { x, y in
            let v: Float = x < 20 ? 0.01 + 0.01 * Float((x + y) % 3) : 0.7 + 0.05 * Float((x + y) % 3)
            return SIMD4(v, v, v, 1)
        }
        for radius: Float in [0, 3] {
            let lifted = try await render(HighlightShadowAdjust(radius: radius, shadowAmount: 1), on: halves)
            #expect(lifted[5, 10][0] > halves[5, 10][0] * 1.5, "radius \(radius)")
            #expect(abs(lifted[35, 10][0] - halves[35, 10][0]) < 0.02)
            let tamed = try await render(HighlightShadowAdjust(radius: radius, highlightAmount: 0.2), on: halves)
            #expect(tamed[35, 10][0] < halves[35, 10][0] - 0.05, "radius \(radius)")
            #expect(abs(tamed[5, 10][0] - halves[5, 10][0]) < 0.01)
        }
    }

    @Test("colour controls: saturation 0 is grey; a grey card stays grey under contrast")
    func colorControls() async throws {
        let grey = try await render(ColorControls(saturation: 0))
        #expect(grey.pixels.allSatisfy { abs($0[0] - $0[1]) < 1e-6 && abs($0[1] - $0[2]) < 1e-6 })
        let card = PixelBuffer(size: IntSize(width: 2, height: 2)) { _, _ in
            SIMD4(repeating: ColorControls.pivot).replacing(with: 1, where: [false, false, false, true])
        }
        let contrasted = try await render(ColorControls(contrast: 3), on: card)
        #expect(abs(contrasted[0, 0][0] - ColorControls.pivot) < 1e-6)
    }

    @Test("inverting twice gives the image back; posterize leaves few levels")
    func invertPosterize() async throws {
        let twice = try await context.render(Image(pixels: Self.photo).applying(ColorInvert()).applying(ColorInvert()))
        expectPixels(twice, equal: Self.photo, tolerance: 1e-4)
        let posterized = try await render(ColorPosterize(levels: 3))
        let levels = Set(posterized.pixels.map { Int((Self.encoded($0).x * 1000).rounded()) })
        #expect(levels.count <= 4)
    }
}
