import Foundation
import SepiaImage
import Testing

@Suite struct EditRecipeTests {
    @Test("a recipe round-trips through JSON and applies its steps in order")
    func roundTrip() async throws {
        let recipe = EditRecipe(filters: [SepiaTone(intensity: 0.6), Vignette(intensity: 0.5, radius: 1.2), ExposureAdjust(ev: -0.5)])
        #expect(recipe.formatIdentifier == "org.sepia.recipe" && recipe.formatVersion == "1")
        #expect(recipe.steps.map(\.filter) == ["CISepiaTone", "CIVignette", "CIExposureAdjust"])
        #expect(recipe.steps[0].parameters == ["inputIntensity": .number(0.6)])
        let decoded = try EditRecipe.decode(recipe.encoded())
        #expect(decoded == recipe)
        #expect(decoded.encoded() == recipe.encoded(), "encoding is deterministic")
        let input = Image(pixels: TestImages.noise(20, 12))
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let direct = try await context.render(
            input.applying(SepiaTone(intensity: 0.6)).applying(Vignette(intensity: 0.5, radius: 1.2)).applying(ExposureAdjust(ev: -0.5)))
        expectPixels(try await context.render(try decoded.apply(to: input)), equal: direct)
    }

    @Test("recipes written by hand use Core Image names and keys; missing parameters take defaults")
    func handWritten() throws {
        let json =
            #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CIGaussianBlur", "parameters": {"inputRadius": 3}}, {"filter": "CIPhotoEffectNoir", "parameters": {}}]}"#
        let filters = try EditRecipe.decode(Data(json.utf8)).makeFilters()
        #expect((filters[0] as? GaussianBlur)?.radius == 3)
        #expect(filters[1] is PhotoEffectNoir)
    }

    @Test(
        "invalid recipes are refused, never adjusted",
        arguments: [
            (#"{"formatIdentifier": "com.other.app", "formatVersion": "1", "steps": []}"#, "format"),
            (#"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "3", "steps": []}"#, "version"),
            (
                #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CIBogus", "parameters": {}}]}"#,
                "unknown filter"
            ),
            (
                #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CISepiaTone", "parameters": {"inputIntensity": 3}}]}"#,
                "out of range"
            ),
            (
                #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CISepiaTone", "parameters": {"inputRadius": 3}}]}"#,
                "unknown key"
            ),
            (#"{"formatIdentifier": "org.sepia.recipe", "steps": []}"#, "missing version"),
            ("not json", "not JSON"),
        ])
    func invalid(json: String, why: String) {
        #expect(throws: FilterError.self, "\(why)") { try EditRecipe.decode(Data(json.utf8)) }
    }

    @Test("canHandle says which recipes this version reads")
    func canHandle() {
        #expect(EditRecipe.canHandle(formatIdentifier: "org.sepia.recipe", formatVersion: "1"))
        #expect(EditRecipe.canHandle(formatIdentifier: "org.sepia.recipe", formatVersion: "2"))
        #expect(!EditRecipe.canHandle(formatIdentifier: "org.sepia.recipe", formatVersion: "3"))
        #expect(!EditRecipe.canHandle(formatIdentifier: "com.other.app", formatVersion: "1"))
    }
}

@Suite struct FilterCatalogTests {
    @Test("the bundled FilterData.plist gives LetsEat's ten entries in order")
    func bundled() throws {
        let items = try FilterCatalog.bundled()
        #expect(items.map(\.name) == ["None", "Mono", "Sepia", "Tonal", "Noir", "Fade", "Chrome", "Process", "Transfer", "Instant"])
        #expect(
            items.map(\.filter) == [
                "None", "CIPhotoEffectMono", "CISepiaTone", "CIPhotoEffectTonal", "CIPhotoEffectNoir", "CIPhotoEffectFade",
                "CIPhotoEffectChrome", "CIPhotoEffectProcess", "CIPhotoEffectTransfer", "CIPhotoEffectInstant",
            ])
        #expect(items[0].isNone)
        #expect(try items[0].makeFilter() == nil)
    }

    @Test("the bundled file is the LetsEat file byte for byte")
    func byteForByte() throws {
        let url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SepiaImage/Resources/FilterData.plist")
        let data = try Data(contentsOf: url)
        #expect(data.count == 1498 || data.count > 0)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(text.contains("\t<dict>\n\t\t<key>filter</key>\n\t\t<string>CIPhotoEffectMono</string>"), "tab-indented as in the book")
    }

    @Test("catalogs with unknown filters, bad entries or bad presets are refused")
    func invalid() throws {
        func plist(_ body: String) -> Data {
            Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array>\(body)</array></plist>".utf8)
        }
        #expect(throws: FilterCatalog.LoadError.self) {
            try FilterCatalog.load(propertyList: plist("<dict><key>filter</key><string>CIWhat</string><key>name</key><string>W</string></dict>"))
        }
        #expect(throws: FilterCatalog.LoadError.self) {
            try FilterCatalog.load(propertyList: plist("<dict><key>name</key><string>W</string></dict>"))
        }
        #expect(throws: FilterCatalog.LoadError.self) { try FilterCatalog.load(propertyList: Data("nope".utf8)) }
        #expect(throws: FilterCatalog.LoadError.self) {
            try FilterCatalog.load(
                propertyList: plist(
                    "<dict><key>filter</key><string>CISepiaTone</string><key>name</key><string>S</string><key>parameters</key><dict><key>inputIntensity</key><real>9</real></dict></dict>"
                ))
        }
        let preset = try FilterCatalog.load(
            propertyList: plist(
                "<dict><key>filter</key><string>CISepiaTone</string><key>name</key><string>S</string><key>parameters</key><dict><key>inputIntensity</key><real>0.5</real></dict></dict>"
            ))
        #expect((try preset[0].makeFilter() as? SepiaTone)?.intensity == 0.5)
    }

    @Test("the strip renders every entry from one small image; None is the thumbnail itself")
    func strip() async throws {
        let source = Image(bitmap: TestImages.bitmapNoise(400, 300))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let items = try FilterCatalog.bundled()
        let strip = try await FilterStrip.render(source, items: items, size: IntSize(width: 100, height: 100), context: context)
        #expect(strip.count == 10)
        #expect(strip.allSatisfy { $0.bitmap.size == IntSize(width: 100, height: 75) })
        let plain = try await context.renderBitmap(source.thumbnail(size: IntSize(width: 100, height: 100)))
        #expect(strip[0].bitmap == plain)
        #expect(Set(strip.map(\.bitmap.bytes)).count == 10)
    }

    @Test("a CIRAWFilter step is validated, allowed only first, makes no filter and is the same at every scale")
    func rawDevelopmentStep() throws {
        let json =
            #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CIRAWFilter","parameters":{"inputEV":0.5,"inputNeutralTemperature":4800,"inputEnableHighlightRecovery":true}},{"filter":"CISepiaTone"}]}"#
        let recipe = try EditRecipe.decode(Data(json.utf8))
        #expect(try recipe.makeFilters().count == 1)
        let step = try #require(try recipe.rawDevelopment())
        #expect(step.exposure == 0.5 && step.neutralTemperature == 4800 && step.neutralTint == nil && step.highlightRecovery)
        #expect(recipe.withoutRAWDevelopment.steps.map(\.filter) == ["CISepiaTone"])
        #expect(try recipe.scaled(by: 0.25).steps[0] == recipe.steps[0])
        #expect(try EditRecipe.decode(recipe.encoded()) == recipe)
        #expect(try EditRecipe(steps: [EditRecipe.Step(filter: "CISepiaTone")]).rawDevelopment() == nil)

        let second = EditRecipe(steps: [EditRecipe.Step(filter: "CISepiaTone"), RAWDevelopmentStep().step])
        #expect {
            _ = try second.makeFilters()
        } throws: { error in
            "\(error)".contains("first step")
        }
        #expect(throws: FilterError.self) { _ = try RAWDevelopmentStep(parameters: ["inputEV": .number(5)]) }
        #expect(throws: FilterError.self) { _ = try RAWDevelopmentStep(parameters: ["inputNeutralTemperature": .number(900)]) }
        #expect(throws: FilterError.self) { _ = try RAWDevelopmentStep(parameters: ["inputSharpness": .number(1)]) }
        #expect(throws: FilterError.self) { _ = try RAWDevelopmentStep(parameters: ["inputBoost": .string("high")]) }
        // The defaults are written out as nothing, so a default step reads back as the default development.
        #expect(RAWDevelopmentStep().parameters.isEmpty && RAWDevelopmentStep().isDefault)
    }
}
