import Foundation
import Testing

@testable import SepiaImage

/// The estimated cost of a render (``RenderCost``) and the limit recipes are held to: every edit the web app can
/// make passes on a 100-megapixel photo, the attacks of a hostile recipe do not, and the refusal names the step
/// and the value that passes.
@Suite struct RenderCostTests {
    /// A 100-megapixel photo (4:3) as the renderer sees it: the estimate looks at extents, not pixels.
    static func photo(width: Int = 11_547, height: Int = 8_660) -> Image {
        Image(color: [0.4, 0.5, 0.6, 1]).cropped(to: IntRect(x: 0, y: 0, width: width, height: height))
    }

    /// The geometry the editor can give a photo at its extremes: a quarter turn, the largest straightening, a crop.
    static func geometry(width: Int, height: Int) -> [EditRecipe.Step] {
        [
            EditRecipe.Step(filter: "CIAffineTransform", parameters: ["inputTransform": .vector([0, 1, -1, 0, Double(height), 0])]),
            EditRecipe.Step(filter: "CIStraightenFilter", parameters: ["inputAngle": .number(Double.pi / 4)]),
            EditRecipe.Step(
                filter: "CICrop",
                parameters: ["inputRectangle": .vector([100, 100, Double(height) * 0.6, Double(width) * 0.6])]),
        ]
    }

    /// Every Adjust slider at one end (`+1` or `−1`).
    static func adjustSteps(at position: Double) -> [EditRecipe.Step] {
        Adjustment.panel.compactMap { slider in
            slider.step(at: position < 0 && slider.negative == nil ? 1 : position)
        }
    }

    /// Every entry of the filter menu with its slider at the end: the catalog's looks and Instafilter's filters.
    static func looks() throws -> [EditRecipe.Step] {
        try (FilterCatalog.bundled() + FilterCatalog.instafilter).compactMap { item -> EditRecipe.Step? in
            guard !item.isNone, let descriptor = FilterRegistry.type(named: item.filter)?.descriptor else { return nil }
            var parameters = item.parameters
            for (key, value) in FilterRegistry.sliderParameters(for: descriptor, intensity: 1) {
                guard let parameter = descriptor.parameter(forKey: key) else { continue }
                parameters[parameter.key] = nil
                parameters[parameter.coreImageKey] = value
            }
            return EditRecipe.Step(filter: item.filter, parameters: parameters)
        }
    }

    @Test(
        "the web app's edits pass on a 100-megapixel photo: every slider at either end with a straightening and a crop; each look and filter at its end with all the geometry"
    )
    func legitimateEditsPass() throws {
        let photo = Self.photo()
        let limit = RenderCostLimit.default
        let geometry = Self.geometry(width: photo.extent.width, height: photo.extent.height)
        for position in [1.0, -1.0] {
            let photoEffects = try Self.looks().filter { $0.filter.hasPrefix("CIPhotoEffect") }.map { [$0] }
            for looks in [[]] + photoEffects {
                let recipe = EditRecipe(steps: Array(geometry.dropFirst()) + Self.adjustSteps(at: position) + looks)
                try recipe.checkCost(limit: limit) { try $0.apply(to: photo) }
            }
        }
        for look in try Self.looks() {
            try EditRecipe(steps: geometry + [look]).checkCost(limit: limit) { try $0.apply(to: photo) }
        }
    }

    @Test(
        "the chains that repeated work pass on a 100-megapixel photo: every slider at either end then Crystallize or Pixellate at its end; every slider after a quarter turn and a straightening"
    )
    func chainsThatRepeatedWorkPass() throws {
        let photo = Self.photo()
        let limit = RenderCostLimit.default
        let geometry = Self.geometry(width: photo.extent.width, height: photo.extent.height)
        let cells = try Self.looks().filter { ["CICrystallize", "CIPixellate"].contains($0.filter) }
        #expect(cells.count == 2)
        for position in [1.0, -1.0] {
            let sliders = Self.adjustSteps(at: position)
            for look in cells {
                try EditRecipe(steps: Array(geometry.dropFirst()) + sliders + [look]).checkCost(limit: limit) { try $0.apply(to: photo) }
                try EditRecipe(steps: sliders + [look]).checkCost(limit: limit) { try $0.apply(to: photo) }
            }
            try EditRecipe(steps: geometry + sliders).checkCost(limit: limit) { try $0.apply(to: photo) }
        }
    }

    @Test(
        "those chains on a 100-megapixel photo are still refused with a blur twice the photo's width, or 64 blurs of radius 1200, after them, naming a blur"
    )
    func chainsWithHostileBlursRefused() throws {
        let photo = Self.photo()
        let geometry = Self.geometry(width: photo.extent.width, height: photo.extent.height)
        let sliders = Self.adjustSteps(at: 1)
        let looks = try Self.looks()
        let blur = { (radius: Double) in EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(radius)]) }
        let crystallize = try #require(looks.first { $0.filter == "CICrystallize" })
        let pixellate = try #require(looks.first { $0.filter == "CIPixellate" })
        let chains = [geometry + sliders, sliders + [crystallize], Array(geometry.dropFirst()) + sliders + [pixellate]]
        for chain in chains {
            for hostile in [[blur(2 * Double(photo.extent.width))], Array(repeating: blur(1200), count: 64)] {
                let recipe = EditRecipe(steps: chain + hostile)
                let error = try #require(throws: RecipeCostError.self, "\(chain.map(\.filter)) + \(hostile.count) blurs") {
                    try recipe.checkCost(limit: .default) { try $0.apply(to: photo) }
                }
                #expect(error.filter == "CIGaussianBlur", "\(error)")
                #expect(error.stepIndex >= chain.count, "\(error)")
            }
        }
    }

    @Test(
        "a rotation served from blocks counts each block once while they fit in its budget, and as often as asked when rows asked again and again do not"
    )
    func rotationBlocksCountedAsKept() throws {
        // The rotation of a photo of `width` × `height` (blurred, so that nothing folds the rotation into its
        // colour), and what a blur of a blur after it asks: bands of 4 rows, the photo's rectangle four times over.
        func asked(width: Int, height: Int) throws -> (AffineRenderNode, CostDemand, once: Double) {
            let photo = Self.photo(width: width, height: height).applying(GaussianBlur(radius: 2))
            let graph = RenderGraph(image: photo.applying(StraightenFilter(angle: 0.6)))
            let node = try #require(graph.nodes.compactMap { $0 as? AffineRenderNode }.first)
            let region = photo.extent.intersection(node.extent)
            let demand = CostDemand(region: region, pixels: 4 * CostDemand.area(region), piece: IntSize(width: 512, height: 4))
            return (node, demand, CostDemand.area(region) * node.operationsPerPixel)
        }
        // 100 megapixels: some 12 800 blocks, far more than the budget holds.
        let (large, largeDemand, largeOnce) = try asked(width: 11_547, height: 8_660)
        #expect(large.estimatedOperations(for: largeDemand) >= 4 * largeOnce)
        #expect(large.inputDemands(for: largeDemand)[0].pixels >= 4 * CostDemand.area(largeDemand.region))
        // A preview: every block fits, so each is rendered once however often its rows are asked for.
        let (small, smallDemand, smallOnce) = try asked(width: 1024, height: 768)
        let operations = small.estimatedOperations(for: smallDemand)
        #expect(operations >= smallOnce && operations < 2 * smallOnce)
    }

    @Test("the cost grows with a blur's radius, through its reach and its work per pixel")
    func costGrowsWithRadius() throws {
        let photo = Self.photo(width: 1024, height: 768)
        var previous = 0.0
        for radius in [3.0, 8, 16, 64, 256, 1024, 4096] {
            let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(radius)])])
            let operations = try recipe.apply(to: photo).estimatedCost().operations
            #expect(operations > previous, "radius \(radius): \(operations) after \(previous)")
            previous = operations
        }
    }

    @Test("a preview of the largest blur the API allows on a 2272×1704 photo is refused, naming the step, and the radius it suggests passes")
    func largestBlurPreviewRefused() throws {
        // As the server previews it: the recipe scaled to the 1024-pixel copy of the photo, fitted in 1024 × 1024.
        let copy = Self.photo(width: 1024, height: 768)
        let scale = 1024.0 / 2272
        let render: (EditRecipe) throws -> Image = {
            try $0.scaled(by: scale).apply(to: copy).thumbnail(size: IntSize(width: 1024, height: 1024), mode: .aspectFit)
        }
        let recipe = EditRecipe(steps: [
            EditRecipe.Step(filter: "CIExposureAdjust", parameters: ["inputEV": .number(0.5)]),
            EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(4544)]),
        ])
        let error = try #require(throws: RecipeCostError.self) { try recipe.checkCost(limit: .default, rendering: render) }
        #expect(error.stepIndex == 1)
        #expect(error.filter == "CIGaussianBlur")
        #expect(error.parameter == "inputRadius")
        #expect(error.value == 4544)
        let allowed = try #require(error.largestAllowed)
        #expect(allowed > 10 && allowed < 4544, "\(allowed)")
        #expect(error.description.contains("step 2 (CIGaussianBlur)") && error.description.contains("inputRadius"), "\(error)")
        var lowered = recipe
        lowered.steps[1].parameters["inputRadius"] = .number(allowed)
        try lowered.checkCost(limit: .default, rendering: render)
    }

    @Test("64 blurs of radius 1200 one after the other are refused; so are 64 steps of radius 1 000 000 as a preset on a 100-megapixel photo")
    func stackedBlursRefused() throws {
        let blur = { (radius: Double) in EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(radius)]) }
        let copy = Self.photo(width: 1024, height: 768)
        let preview = EditRecipe(steps: Array(repeating: blur(1200), count: 64))
        #expect(throws: RecipeCostError.self) {
            try preview.checkCost(limit: .default) { try $0.scaled(by: 1024.0 / 2272).apply(to: copy) }
        }
        let preset = EditRecipe(steps: Array(repeating: blur(1_000_000), count: 64))
        let photo = Self.photo()
        let error = try #require(throws: RecipeCostError.self) { try preset.checkCost(limit: .default) { try $0.apply(to: photo) } }
        #expect(error.filter == "CIGaussianBlur")
    }

    @Test("the limit is a budget per output pixel with a floor")
    func limitShape() {
        let limit = RenderCostLimit(operationsPerOutputPixel: 100, minimumOperations: 1e6)
        #expect(limit.budget(forOutputPixels: 10) == 1e6)
        #expect(limit.budget(forOutputPixels: 1e6) == 1e8)
        #expect(limit.allows(RenderCost(operations: 1e8, outputPixels: 1e6)))
        #expect(!limit.allows(RenderCost(operations: 1e8 + 1, outputPixels: 1e6)))
        #expect(RenderCostLimit.unlimited.allows(RenderCost(operations: 1e30, outputPixels: 1)))
    }
}
