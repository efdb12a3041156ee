import Foundation
import SepiaImage
import Testing

/// A filter at an intensity is `input + (filter(input) − input) · t`, computed here from the two renders, for
/// every way the engine builds it: fused point kernels (looks), colour matrices, position-dependent kernels,
/// and filters that read neighbours (a separate mix).
@Suite struct FilterIntensityTests {
    static let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// The mix computed from the unfiltered and fully filtered renders.
    static func mix(_ input: PixelBuffer, _ full: PixelBuffer, _ t: Float) -> PixelBuffer {
        PixelBuffer(extent: input.extent, pixels: zip(input.pixels, full.pixels).map { before, after in before + (after - before) * t })
    }

    static let filters: [(String, any Filter)] = [
        ("Noir (a look's table)", PhotoEffectNoir()),
        ("Mono", PhotoEffectMono()),
        ("Sepia Tone (a colour matrix)", SepiaTone(intensity: 1)),
        ("Exposure", ExposureAdjust(ev: 1.2)),
        ("Vignette (position-dependent)", Vignette(intensity: 1, radius: 1)),
        ("Gaussian Blur (neighbours)", GaussianBlur(radius: 3)),
        ("Highlights and Shadows (local)", HighlightShadowAdjust(shadowAmount: 0.8, highlightAmount: 0.4)),
        ("Unsharp Mask", UnsharpMask(radius: 2, intensity: 1)),
    ]

    @Test("a filter at 40 % is its result mixed with its input, after other kernels it fuses with", arguments: 0..<filters.count)
    func mixes(index: Int) async throws {
        let (name, filter) = Self.filters[index]
        // Exposure first: the filter's kernels follow another kernel in the same chain.
        let input = Image(pixels: TestImages.noise(37, 23)).applying(ExposureAdjust(ev: -0.3))
        let before = try await Self.context.render(input)
        let full = try await Self.context.render(input.applying(filter))
        let partial = try await Self.context.render(Self.applying(filter, to: input, intensity: 0.4))
        expectPixels(partial, equal: Self.mix(before, full, 0.4), tolerance: 2e-6)
        #expect(partial.pixels != full.pixels, "\(name) at 40 % differs from the whole filter")
    }

    @Test("translucent pixels are mixed as premultiplied colours")
    func translucent() async throws {
        let input = Image(pixels: TestImages.translucentNoise(19, 11))
        for filter in [PhotoEffectNoir() as any Filter, GaussianBlur(radius: 2)] {
            let before = try await Self.context.render(input)
            let full = try await Self.context.render(input.applying(filter))
            let partial = try await Self.context.render(Self.applying(filter, to: input, intensity: 0.25))
            expectPixels(partial, equal: Self.mix(before, full, 0.25), tolerance: 2e-6)
        }
    }

    @Test("at 1 a filter is itself, bit for bit; at 0 the image is unchanged")
    func ends() async throws {
        let input = Image(pixels: TestImages.noise(16, 9))
        let noir = try await Self.context.render(input.applying(PhotoEffectNoir()))
        #expect(try await Self.context.render(input.applying(PhotoEffectNoir(), intensity: 1)).pixels == noir.pixels)
        #expect(try await Self.context.render(input.applying(PhotoEffectNoir(), intensity: 0)).pixels == Self.context.render(input).pixels)
        #expect(PhotoEffectNoir().atIntensity(7).intensity == 1)
        #expect(PhotoEffectNoir().atIntensity(-1).intensity == 0)
        #expect(PhotoEffectNoir().atIntensity(.nan).intensity == 1)
    }

    private static func applying(_ filter: some Filter, to image: Image, intensity: Float) -> Image {
        image.applying(filter, intensity: intensity)
    }
}

/// Recipe versions: intensity is version 2, and version-1 recipes stay as they were.
@Suite struct RecipeIntensityTests {
    @Test("a version-1 recipe reads and writes back byte for byte, and renders as its filters do")
    func versionOneUnchanged() async throws {
        let json =
            #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CIPhotoEffectNoir","parameters":{}},"#
            + #"{"filter":"CIVignette","parameters":{"inputIntensity":0.5,"inputRadius":1.2}}]}"#
        let recipe = try EditRecipe.decode(Data(json.utf8))
        #expect(String(decoding: recipe.encoded(), as: UTF8.self) == json)
        #expect(String(decoding: EditRecipe(steps: recipe.steps).encoded(), as: UTF8.self) == json, "a new recipe needing nothing new is version 1")
        let input = Image(pixels: TestImages.noise(21, 13))
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let direct = try await context.render(input.applying(PhotoEffectNoir()).applying(Vignette(intensity: 0.5, radius: 1.2)))
        #expect(try await context.render(recipe.apply(to: input)).pixels == direct.pixels)
    }

    @Test("a step with an intensity makes a version-2 recipe that round-trips and renders the mix")
    func versionTwo() async throws {
        let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "CIPhotoEffectNoir", intensity: 0.4)])
        #expect(recipe.formatVersion == "2")
        let text = String(decoding: recipe.encoded(), as: UTF8.self)
        let expected =
            #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"2","steps":[{"filter":"CIPhotoEffectNoir","intensity":0.4,"parameters":{}}]}"#
        #expect(text == expected)
        let decoded = try EditRecipe.decode(recipe.encoded())
        #expect(decoded == recipe)
        let filters = try decoded.makeFilters()
        #expect((filters[0] as? FilterAtIntensity<PhotoEffectNoir>)?.intensity == 0.4)
        let rebuilt = EditRecipe(steps: [EditRecipe.Step(filter: "CIPhotoEffectNoir", parameters: [:], intensity: Double(Float(0.4)))])
        #expect(EditRecipe(filters: filters) == rebuilt)

        // A version-1 recipe given an intensity is written as version 2.
        let sepia = #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CISepiaTone"}]}"#
        var raised = try EditRecipe.decode(Data(sepia.utf8))
        raised.steps[0].intensity = 0.5
        #expect(try EditRecipe.decode(raised.encoded()).formatVersion == "2")
    }

    @Test("scaling a recipe for a preview keeps each step's intensity")
    func scaling() throws {
        let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(8)], intensity: 0.3)])
        let scaled = try recipe.scaled(by: 0.25)
        #expect(scaled.steps[0].intensity == 0.3)
        #expect(scaled.steps[0].parameters["inputRadius"] == .number(2))
    }

    @Test(
        "an intensity is refused in a version-1 recipe, outside 0…1, on geometry and on a RAW development",
        arguments: [
            (#"{"formatVersion":"1","steps":[{"filter":"CIPhotoEffectNoir","intensity":0.4}]}"#, "version-1"),
            (#"{"formatVersion":"2","steps":[{"filter":"CIPhotoEffectNoir","intensity":1.5}]}"#, "between 0 and 1"),
            (#"{"formatVersion":"2","steps":[{"filter":"CIPhotoEffectNoir","intensity":-0.1}]}"#, "between 0 and 1"),
            (#"{"formatVersion":"2","steps":[{"filter":"CIPhotoEffectNoir","intensity":"half"}]}"#, "wrong type"),
            (#"{"formatVersion":"2","steps":[{"filter":"CICrop","parameters":{"inputRectangle":[0,0,4,4]},"intensity":0.5}]}"#, "geometry"),
            (#"{"formatVersion":"2","steps":[{"filter":"CIRAWFilter","intensity":0.5}]}"#, "no intensity"),
        ])
    func refused(body: String, message: String) {
        let json = body.replacingOccurrences(of: "{\"formatVersion\"", with: "{\"formatIdentifier\":\"org.sepia.recipe\",\"formatVersion\"")
        #expect {
            try EditRecipe.decode(Data(json.utf8))
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
