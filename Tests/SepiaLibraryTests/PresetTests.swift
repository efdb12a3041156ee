import Foundation
import SepiaImage
import Testing

@testable import SepiaLibrary

/// Edit presets: saved with their portable steps, named uniquely whatever the case, replaced, applied after a
/// photo's own geometry, found by name or identifier, deleted, bounded; on SQLite, and on PostgreSQL when the
/// suites run there.
@Suite struct PresetTests {
    static let crop = EditRecipe.Step(filter: "CICrop", parameters: ["inputRectangle": .vector([0, 0, 10, 8])])
    static let raw = EditRecipe.Step(filter: "CIRAWFilter", parameters: ["inputEV": .number(0.5)])
    static let exposure = EditRecipe.Step(filter: "CIExposureAdjust", parameters: ["inputEV": .number(0.4)])
    static let noir = EditRecipe.Step(filter: "CIPhotoEffectNoir", intensity: 0.4)

    @Test("a preset keeps the look and adjustments, not the crop or the RAW development, and survives reopening")
    func saveAndList() throws {
        let path = TestLibrary.temporaryFolder()
        var library = try TestLibrary.open(at: path)
        let saved = try library.savePreset(named: "  Warm Noir ", recipe: EditRecipe(steps: [Self.raw, Self.crop, Self.exposure, Self.noir]))
        #expect(saved.name == "Warm Noir")
        #expect(saved.recipe.steps == [Self.exposure, Self.noir])
        #expect(saved.recipe.formatVersion == "2")
        try library.savePreset(named: "bright", recipe: EditRecipe(steps: [Self.exposure]))
        try library.savePreset(named: "Amber", recipe: EditRecipe(steps: [Self.noir]))
        library.close()

        library = try TestLibrary.open(at: path)
        defer { library.close() }
        let presets = try library.presets()
        #expect(presets.map(\.name) == ["Amber", "bright", "Warm Noir"])
        #expect(presets.last == saved)
        #expect(try library.preset(matching: "warm noir").id == saved.id)
        #expect(try library.preset(matching: String(saved.id.prefix(8))).id == saved.id)
        #expect(throws: LibraryError.self) { try library.preset(matching: "Cool") }
    }

    @Test("a taken name is refused whatever its case, unless the preset is replaced, which keeps its identifier")
    func duplicateAndReplace() throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let first = try library.savePreset(named: "Film", recipe: EditRecipe(steps: [Self.noir]))
        do {
            try library.savePreset(named: "FILM", recipe: EditRecipe(steps: [Self.exposure]))
            Issue.record("a second preset called FILM was saved")
        } catch {
            #expect(error.code == .duplicate)
            #expect(error.relatedID == first.id)
            #expect(error.description.contains("“Film” exists"))
        }
        let replaced = try library.savePreset(named: "FILM", recipe: EditRecipe(steps: [Self.exposure]), replacing: true)
        #expect(replaced.id == first.id && replaced.creationDate == first.creationDate)
        let presets = try library.presets()
        #expect(presets.count == 1)
        #expect(presets[0].name == "FILM" && presets[0].recipe.steps == [Self.exposure])
    }

    @Test("bad names, recipes with nothing portable and invalid recipes are refused with a reason")
    func refusals() throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let cases: [(String, EditRecipe, String)] = [
            ("   ", EditRecipe(steps: [Self.noir]), "needs a name"),
            (String(repeating: "x", count: 65), EditRecipe(steps: [Self.noir]), "at most 64 characters"),
            ("Two\nlines", EditRecipe(steps: [Self.noir]), "one line"),
            ("Crop only", EditRecipe(steps: [Self.raw, Self.crop]), "needs a look or an adjustment"),
            ("Bogus", EditRecipe(steps: [EditRecipe.Step(filter: "CIBogus")]), "invalid"),
        ]
        for (name, recipe, reason) in cases {
            do {
                try library.savePreset(named: name, recipe: recipe)
                Issue.record("\(name.debugDescription) was saved")
            } catch {
                #expect(error.code == .invalidRequest)
                #expect(error.description.contains(reason), "\(error)")
            }
        }
        #expect(try library.presets().isEmpty)
    }

    @Test("applied to a photo, a preset keeps its RAW development and crop first and replaces its look and adjustments")
    func applied() throws {
        let preset = try EditPreset(name: "Noir", recipe: EditRecipe(steps: [Self.noir]))
        let current = EditRecipe(steps: [Self.raw, Self.crop, Self.exposure])
        #expect(preset.applied(to: current).steps == [Self.raw, Self.crop, Self.noir])
        #expect(preset.applied(to: nil).steps == [Self.noir])
        _ = try preset.applied(to: current).makeFilters()
    }

    @Test("a library keeps at most 200 presets; deleting one makes room, and an unknown one is not found")
    func limitAndDelete() throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        for index in 0..<EditPreset.maximumCount {
            try library.savePreset(named: "Preset \(index)", recipe: EditRecipe(steps: [Self.exposure]))
        }
        do {
            try library.savePreset(named: "One more", recipe: EditRecipe(steps: [Self.exposure]))
            Issue.record("preset \(EditPreset.maximumCount + 1) was saved")
        } catch {
            #expect(error.code == .invalidRequest && error.description.contains("the most it keeps"))
        }
        let victim = try library.preset(matching: "Preset 7")
        try library.deletePreset(victim.id)
        try library.savePreset(named: "One more", recipe: EditRecipe(steps: [Self.exposure]))
        #expect(try library.presets().count == EditPreset.maximumCount)
        #expect(throws: LibraryError.self) { try library.deletePreset(victim.id) }
    }
}
