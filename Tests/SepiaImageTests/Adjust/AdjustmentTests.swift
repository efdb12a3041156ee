import Foundation
import SepiaImage
import Testing

/// The Adjust panel's sliders: the steps they make, read back from recipes, and what they do to a photo.
@Suite struct AdjustmentTests {
    static let positions: [Double] = [-1, -0.37, 0.25, 0.5, 1]

    @Test("the panel has Photos' sliders in Photos' order, in four sections")
    func panel() {
        #expect(
            Adjustment.panel.map(\.name) == [
                "Exposure", "Brilliance", "Highlights", "Shadows", "Brightness", "Contrast", "Black Point", "Saturation", "Vibrance", "Warmth",
                "Tint", "Intensity", "Neutrals", "Tone", "Grain", "Sharpness", "Definition", "Noise Reduction", "Vignette",
            ])
        #expect(Set(Adjustment.panel.map(\.id)).count == Adjustment.panel.count)
        let sections = Adjustment.panel.map(\.section).reduce(into: [Adjustment.Section]()) { if $0.last != $1 { $0.append($1) } }
        #expect(sections == Adjustment.Section.allCases)
    }

    @Test("every position makes a valid step that names its slider and no other, and reads back", arguments: Adjustment.panel)
    func stepsReadBack(slider: Adjustment) throws {
        #expect(slider.step(at: 0) == nil)
        for position in Self.positions where position >= slider.minimum {
            let step = try #require(slider.step(at: position))
            _ = try EditRecipe(steps: [step]).makeFilters()
            let back = try #require(slider.position(of: step), "\(slider.id) at \(position)")
            #expect(abs(back - position) < 1e-9)
            for other in Adjustment.panel where other.id != slider.id {
                #expect(other.position(of: step) == nil, "\(other.id) reads \(slider.id)'s step")
            }
            // Through JSON, as a saved recipe.
            let decoded = try EditRecipe.decode(EditRecipe(steps: [step]).encoded())
            #expect(abs((slider.position(of: decoded.steps[0]) ?? .nan) - position) < 1e-9)
        }
    }

    @Test("positions become steps in the panel's order and are read back from a recipe, up to the first other step")
    func values() throws {
        let values = try AdjustmentValues(["vignette": 0.3, "exposure": -0.4, "warmth": 0.2, "blackAndWhite": 0.8, "shadows": 0.5])
        let steps = values.steps
        #expect(steps.map(\.filter) == ["CIExposureAdjust", "CIHighlightShadowAdjust", "CITemperatureAndTint", "CIColorMonochrome", "CIVignette"])
        let noir = EditRecipe.Step(filter: "CIPhotoEffectNoir", intensity: 0.4)
        let (read, count) = AdjustmentValues.read(steps + [noir])
        #expect(count == 5)
        for (id, position) in values.positions { #expect(abs(read[id] - position) < 1e-9, "\(id)") }
        // Out of the panel's order, the reading stops.
        #expect(AdjustmentValues.read([steps[2], steps[0]]).count == 1)
    }

    @Test("Grain: Sepia's film grain, after Tone and before Sharpness, 0…1 on its amount, read back from a recipe")
    func grain() throws {
        let grain = try #require(Adjustment.named("grain"))
        #expect(grain.name == "Grain" && grain.section == .blackAndWhite && grain.minimum == 0 && grain.negative == nil)
        let step = try #require(grain.step(at: 0.35))
        #expect(step == EditRecipe.Step(filter: "SepiaFilmGrain", parameters: ["inputAmount": .number(0.35)]))
        #expect(grain.position(of: step) == 0.35)
        #expect(grain.step(at: 0) == nil && grain.step(at: -0.5) == nil, "a slider that goes one way, no step at 0")
        let values = try AdjustmentValues(["sharpness": 0.5, "grain": 0.35, "tone": 0.2])
        #expect(values.steps.map(\.filter) == ["CIToneCurve", "SepiaFilmGrain", "CISharpenLuminance"])
        let (read, count) = AdjustmentValues.read(values.steps)
        #expect(count == 3 && abs(read["grain"] - 0.35) < 1e-9 && abs(read["tone"] - 0.2) < 1e-9)
        // A grain step with its size written out (as a scaled recipe has) is not the slider's.
        let sized = EditRecipe.Step(filter: "SepiaFilmGrain", parameters: ["inputAmount": .number(0.35), "inputSize": .number(3)])
        #expect(grain.position(of: sized) == nil)
    }

    @Test("an unknown slider or a position out of range is refused with the range")
    func refused() {
        #expect(throws: AdjustmentValues.InvalidValue.self) { try AdjustmentValues(["exposre": 0.3]) }
        #expect { try AdjustmentValues.parse(["sharpness=-0.5"]) } throws: { "\($0)".contains("from 0 to 1") }
        #expect { try AdjustmentValues.parse(["exposure"]) } throws: { "\($0)".contains("SLIDER=POSITION") }
        #expect((try? AdjustmentValues.parse(["exposure=0.3", "tint = -0.2"]))?.positions == ["exposure": 0.3, "tint": -0.2])
        var values = AdjustmentValues()
        values["exposure"] = 7
        #expect(values["exposure"] == 1, "the subscript clamps")
    }
}

/// What each slider does, measured on a test scene.
@Suite struct AdjustmentEffectTests {
    static let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// Mean sRGB-encoded red, green, blue and luma of `image`, and the mean chroma.
    static func stats(_ image: Image) async throws -> (r: Double, g: Double, b: Double, luma: Double, chroma: Double) {
        let bitmap = try await context.renderBitmap(image, layout: .rgb)
        var r = 0.0, g = 0.0, b = 0.0, chroma = 0.0
        let n = Double(bitmap.width * bitmap.height)
        for i in stride(from: 0, to: bitmap.bytes.count, by: 3) {
            let p = (Double(bitmap.bytes[i]), Double(bitmap.bytes[i + 1]), Double(bitmap.bytes[i + 2]))
            r += p.0
            g += p.1
            b += p.2
            chroma += max(p.0, p.1, p.2) - min(p.0, p.1, p.2)
        }
        return (r / n, g / n, b / n, (0.2126 * r + 0.7152 * g + 0.0722 * b) / n, chroma / n)
    }

    static func adjusted(_ id: String, _ position: Double) throws -> Image {
        var values = AdjustmentValues()
        try values.set(id, to: position)
        return try EditRecipe(steps: values.steps).apply(to: scene)
    }

    static let scene = Image(pixels: TestImages.noise(48, 32, seed: 9))

    @Test("light: exposure, brightness and black point move the tones the way their names say")
    func light() async throws {
        let base = try await Self.stats(Self.scene)
        #expect(try await Self.stats(Self.adjusted("exposure", 0.5)).luma > base.luma + 10)
        #expect(try await Self.stats(Self.adjusted("exposure", -0.5)).luma < base.luma - 10)
        #expect(try await Self.stats(Self.adjusted("brightness", 1)).luma > base.luma + 5)
        #expect(try await Self.stats(Self.adjusted("brightness", -1)).luma < base.luma - 5)
        #expect(try await Self.stats(Self.adjusted("blackPoint", 1)).luma < base.luma)
        #expect(try await Self.stats(Self.adjusted("shadows", 1)).luma > base.luma)
        #expect(try await Self.stats(Self.adjusted("highlights", -1)).luma < base.luma)
    }

    @Test("black & white: grain changes pixels but keeps the mean lightness")
    func grain() async throws {
        let base = try await Self.stats(Self.scene)
        let grainy = try await Self.stats(Self.adjusted("grain", 1))
        #expect(abs(grainy.luma - base.luma) < 1, "\(grainy.luma) vs \(base.luma)")
        let before = try await Self.context.renderBitmap(Self.scene, layout: .rgb)
        let after = try await Self.context.renderBitmap(Self.adjusted("grain", 1), layout: .rgb)
        let changed = zip(before.bytes, after.bytes).filter { abs(Int($0) - Int($1)) > 3 }.count
        #expect(changed > before.bytes.count / 4, "\(changed) of \(before.bytes.count) bytes moved by more than 3")
    }

    @Test("color: saturation, vibrance, warmth and tint move the colours the way their names say")
    func color() async throws {
        let base = try await Self.stats(Self.scene)
        #expect(try await Self.stats(Self.adjusted("saturation", -1)).chroma < 1)
        #expect(try await Self.stats(Self.adjusted("saturation", 0.5)).chroma > base.chroma)
        #expect(try await Self.stats(Self.adjusted("vibrance", 1)).chroma > base.chroma)
        #expect(try await Self.stats(Self.adjusted("blackAndWhite", 1)).chroma < 1)
        let warm = try await Self.stats(Self.adjusted("warmth", 1))
        let cool = try await Self.stats(Self.adjusted("warmth", -1))
        #expect(warm.r - warm.b > base.r - base.b + 5, "warmer is redder")
        #expect(cool.r - cool.b < base.r - base.b - 5, "cooler is bluer")
        let magenta = try await Self.stats(Self.adjusted("tint", 1))
        let green = try await Self.stats(Self.adjusted("tint", -1))
        #expect(magenta.g < base.g - 2 && green.g > base.g + 2, "tint +1 is magenta, −1 green")
    }
}
