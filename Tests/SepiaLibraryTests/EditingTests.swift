import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaLibrary

@Suite struct EditingTests {
    @Test("an edit stores its recipe and an upright full-size render; the original is never touched; revert restores it")
    func editAndRevert() async throws {
        let library = try TestLibrary.open()
        // Given a photo stored sideways (EXIF orientation 6)
        let id = try await library.performChanges { $0.createAsset(fromFile: TestLibrary.fixture("exif-orientation/Landscape_6.jpg")) }
            .createdAssetIDs[0]
        let asset = try library.asset(id)
        let originalBytes = try await Data(contentsOf: URL(fileURLWithPath: library.originalPath(of: asset)))

        // When it is edited with a recipe
        let recipe = EditRecipe(filters: [SepiaTone(intensity: 0.9), Vignette(intensity: 1, radius: 1)])
        let edited = try await library.edit(asset, recipe: recipe)

        // Then the asset shows the edit: a new current adjustment and revision, upright size unchanged
        #expect(edited.hasAdjustments)
        #expect(edited.revision > asset.revision)
        #expect(edited.pixelWidth == 1800 && edited.pixelHeight == 1200)
        let adjustment = try #require(try library.currentAdjustment(of: edited))
        #expect(adjustment.data.formatIdentifier == "org.sepia.recipe" && adjustment.data.formatVersion == "1")
        #expect(try adjustment.data.recipe() == recipe)
        // The render is an upright JPEG equal to the recipe applied to the upright original.
        let render = try await ImageDecoding.open(path: try library.currentPath(of: edited))
        #expect(render.format == .jpeg && render.orientation == .up && render.pixelSize == IntSize(width: 1800, height: 1200))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let expected = try await context.renderBitmap(
            try recipe.apply(to: try ImageDecoding.open(path: TestLibrary.fixture("exif-orientation/Landscape_6.jpg")).image), layout: .rgb)
        let actual = try await context.renderBitmap(render.image, layout: .rgb)
        #expect(meanAbsoluteDifference(actual, expected) < 2.5, "only JPEG loss between the render and the recipe")
        #expect(try await Data(contentsOf: URL(fileURLWithPath: library.originalPath(of: edited))) == originalBytes)
        // Renditions of the edited version were made with it.
        #expect(library.imageStore.diskKeys(assetID: id, version: adjustment.id).count == 2)

        // Editing again replaces the look; the history keeps both.
        let second = try await library.edit(edited, recipe: EditRecipe(filters: [PhotoEffectNoir()]))
        #expect(try library.adjustments(of: second).count == 2)
        #expect(
            !FileManager.default.fileExists(atPath: library.folder.render(hash: adjustment.renderedContentHash!)),
            "the superseded render is deleted; its recipe stays in the history")

        // Revert: the original is the current version again, history kept, render gone.
        let renderPath = try await library.currentPath(of: second)
        let reverted = try await library.revert(second)
        #expect(!reverted.hasAdjustments && reverted.pixelWidth == 1800)
        #expect(try await library.currentPath(of: reverted) == library.originalPath(of: reverted))
        #expect(try library.adjustments(of: reverted).count == 2)
        #expect(!FileManager.default.fileExists(atPath: renderPath))
        #expect(try await library.check().isSound)
    }

    @Test("the editing input re-opens the current recipe; an edit in an unknown format is reported and built upon")
    func adjustmentFormats() async throws {
        let library = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        var asset = try await library.edit(try library.asset(id), recipe: EditRecipe(filters: [ExposureAdjust(ev: 1)]))
        let input = try await library.contentEditingInput(for: asset)
        #expect(input.currentRecipe?.steps.map(\.filter) == ["CIExposureAdjust"])
        #expect(input.unhandledAdjustmentData == nil)
        #expect(try await input.fullSizeImagePath == library.originalPath(of: asset))

        // Given an edit saved by another editor in its own format
        var foreign = ContentEditingOutput(contentEditingInput: input)
        foreign.adjustmentData = AdjustmentData(formatIdentifier: "com.example.painter", formatVersion: "3.1", data: Data([1, 2, 3]))
        let bitmap = Bitmap(width: 24, height: 16, layout: .rgb, bytes: [UInt8](repeating: 200, count: 24 * 16 * 3))
        try Data(try ImageEncoding.encode(bitmap, as: .jpeg)).write(to: URL(fileURLWithPath: foreign.renderedContentPath))
        let saved = foreign
        try await library.performChanges { $0.setContentEditingOutput(saved, for: id) }
        asset = try library.asset(id)

        // Then the next input does not guess: it reports the data and starts from that edit's render
        let next = try await library.contentEditingInput(for: asset)
        #expect(next.adjustmentData == nil)
        #expect(next.unhandledAdjustmentData?.formatIdentifier == "com.example.painter")
        #expect(next.fullSizeImagePath == (try await library.currentPath(of: asset)))
        #expect(throws: LibraryError.self) { try next.unhandledAdjustmentData!.recipe() }

        // A Sepia edit on top keeps the foreign render as its base, and reverting removes both renders.
        let layered = try await library.edit(asset, recipe: EditRecipe(filters: [ColorInvert()]))
        let current = try #require(try library.currentAdjustment(of: layered))
        #expect(current.baseAdjustmentID == asset.currentAdjustmentID)
        let layeredRender = try await ImageDecoding.open(path: try library.currentPath(of: layered))
        let pixels = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(layeredRender.image, layout: .rgb)
        #expect(abs(Int(pixels.bytes[0]) - 55) <= 3, "the invert applied to the foreign render (200), not to the original")
        #expect(try await library.check().isSound)
        let reverted = try await library.revert(layered)
        #expect(!reverted.hasAdjustments)
        #expect(TestLibrary.files(under: library.folder.renders).isEmpty)
        #expect(try await library.check().isSound)
    }

    @Test("bad editing outputs are refused: no adjustment data, a missing or non-JPEG render, a rotated render")
    func badOutputs() async throws {
        let library = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        let input = try await library.contentEditingInput(for: try library.asset(id))

        var noData = ContentEditingOutput(contentEditingInput: input)
        try TestLibrary.uniqueJPEG(5).write(to: URL(fileURLWithPath: noData.renderedContentPath))
        noData.adjustmentData = nil
        let a = noData
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.setContentEditingOutput(a, for: id) } }

        var missing = ContentEditingOutput(contentEditingInput: input)
        missing.adjustmentData = AdjustmentData(recipe: EditRecipe(filters: [ColorInvert()]))
        let b = missing
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.setContentEditingOutput(b, for: id) } }

        var png = ContentEditingOutput(contentEditingInput: input)
        png.adjustmentData = AdjustmentData(recipe: EditRecipe(filters: [ColorInvert()]))
        let bitmap = Bitmap(width: 4, height: 4, layout: .rgb, bytes: [UInt8](repeating: 9, count: 48))
        try Data(try ImageEncoding.encode(bitmap, as: .png)).write(to: URL(fileURLWithPath: png.renderedContentPath))
        let c = png
        await #expect(throws: LibraryError.self) { try await library.performChanges { $0.setContentEditingOutput(c, for: id) } }

        var rotated = ContentEditingOutput(contentEditingInput: input)
        rotated.adjustmentData = AdjustmentData(recipe: EditRecipe(filters: [ColorInvert()]))
        try FileManager.default.copyItem(atPath: TestLibrary.fixture("exif-orientation/Landscape_6.jpg"), toPath: rotated.renderedContentPath)
        let d = rotated
        do {
            try await library.performChanges { $0.setContentEditingOutput(d, for: id) }
            Issue.record("a rotated render was accepted")
        } catch {
            #expect(error.code == .invalidEditingOutput)
            #expect(error.description.contains("orientation 6"))
        }
        #expect(try library.asset(id).hasAdjustments == false)
        #expect(TestLibrary.files(under: library.folder.renders).isEmpty)
        #expect(TestLibrary.files(under: library.folder.temporary).isEmpty)
        #expect(try await library.check().isSound)
    }
}

func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
    guard a.bytes.count == b.bytes.count, !a.bytes.isEmpty else { return .infinity }
    var total = 0
    for i in a.bytes.indices { total += abs(Int(a.bytes[i]) - Int(b.bytes[i])) }
    return Double(total) / Double(a.bytes.count)
}
