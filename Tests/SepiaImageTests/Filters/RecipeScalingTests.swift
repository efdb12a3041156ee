import Testing

@testable import SepiaImage

@Suite("Recipes scaled to a preview's size")
struct RecipeScalingTests {
    @Test("distances, positions, rectangles and translations scale; intensities and angles do not; defaults are written out")
    func scaling() throws {
        let recipe = EditRecipe(steps: [
            .init(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(20)]),
            .init(filter: "CICrop", parameters: ["inputRectangle": .vector([100, 40, 800, 600])]),
            .init(filter: "CIAffineTransform", parameters: ["inputTransform": .vector([0, 1, -1, 0, 600, 0])]),
            .init(filter: "CIStraightenFilter", parameters: ["inputAngle": .number(0.1)]),
            .init(filter: "CISepiaTone", parameters: ["inputIntensity": .number(0.7)]),
            .init(filter: "CIPixellate", parameters: ["inputScale": .number(1.5)]),
            .init(filter: "CIUnsharpMask"),
        ])
        let scaled = try recipe.scaled(by: 0.25)
        #expect(scaled.steps[0].parameters["inputRadius"] == .number(5))
        #expect(scaled.steps[1].parameters["inputRectangle"] == .vector([25, 10, 200, 150]))
        #expect(scaled.steps[2].parameters["inputTransform"] == .vector([0, 1, -1, 0, 150, 0]))
        #expect(scaled.steps[3].parameters["inputAngle"] == .number(0.1))
        #expect(scaled.steps[4].parameters["inputIntensity"] == .number(0.7))
        // A pixellation cell cannot be smaller than its minimum of one pixel.
        #expect(scaled.steps[5].parameters["inputScale"] == .number(1))
        // The default radius (2.5 px) is written out scaled; the intensity keeps its default (left out).
        #expect(scaled.steps[6].parameters["inputRadius"] == .number(0.625))
        #expect(scaled.steps[6].parameters["inputIntensity"] == nil)
        // The scaled recipe is valid, and a crop's "infinite" default stays infinite.
        _ = try scaled.makeFilters()
        let crop = try EditRecipe(steps: [.init(filter: "CICrop")]).scaled(by: 0.5)
        #expect(crop.steps[0].parameters["inputRectangle"] == .vector(Crop.infiniteRectangle.indices.map { Crop.infiniteRectangle[$0] }))
        #expect(throws: FilterError.self) { try recipe.scaled(by: 0) }
    }

    @Test("a scaled recipe on a scaled image matches the full-size result scaled")
    func previewMatchesFullSize() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let source = Image(pixels: TestImages.ramp(96, 64))
        let recipe = EditRecipe(steps: [
            .init(filter: "CICrop", parameters: ["inputRectangle": .vector([16, 8, 64, 48])]),
            .init(filter: "CIBoxBlur", parameters: ["inputRadius": .number(4)]),
        ])
        let full = try await context.renderBitmap(try recipe.apply(to: source).thumbnail(size: IntSize(width: 32, height: 32)), layout: .rgb)
        let half = try await context.render(source.thumbnail(size: IntSize(width: 48, height: 48)))
        let preview = try await context.renderBitmap(
            try recipe.scaled(by: 0.5).apply(to: Image(pixels: half)).thumbnail(size: IntSize(width: 32, height: 32)), layout: .rgb)
        #expect(full.size == preview.size)
        let difference = zip(full.bytes, preview.bytes).map { abs(Int($0) - Int($1)) }.reduce(0, +) / max(1, full.bytes.count)
        #expect(difference <= 6, "mean absolute difference \(difference)/255")
    }
}
