import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import Testing

/// `sepia presets`: save a photo's look and adjustments, list and show them, apply them to several photos (each
/// keeps its own crop), use one as a recipe file with `sepia apply`, delete it.
@Suite struct PresetCommandTests {
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// A PNG whose colours depend on `seed`.
    static func photo(_ seed: Int, in folder: URL) throws -> String {
        var bitmap = Bitmap(width: 96, height: 64, layout: .rgb)
        for i in 0..<bitmap.bytes.count { bitmap.bytes[i] = UInt8((i * (seed + 3) / 7 + seed * 40) % 200 + 20) }
        let path = folder.appendingPathComponent("photo-\(seed).png").path
        try Data(ImageEncoding.encode(bitmap, as: .png, options: EncodeOptions())).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The current recipe of a library photo, from `sepia history --json`.
    static func recipe(_ id: String, library: String) async throws -> EditRecipe {
        let history = try #require(
            try json(try await CommandRunner.run(["history", id, "--library", library, "--json"]).stdout) as? [[String: Any]])
        return try EditRecipe.decode(Data(try #require(history.last?["recipe"] as? String).utf8))
    }

    @Test("save from a photo, list, show as a recipe file, apply to photos keeping their crop, delete")
    func presets() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let library = folder.appendingPathComponent("lib").path
        for seed in 0..<3 { #expect(try await CommandRunner.run(["import", try Self.photo(seed, in: folder), "--library", library]).status == 0) }
        let listed = try #require(try Self.json(try await CommandRunner.run(["list", "--json", "--library", library]).stdout) as? [[String: Any]])
        let ids = listed.compactMap { $0["id"] as? String }
        #expect(ids.count == 3)

        // A look at 40 % after a warmth adjustment, on the first photo; a crop on the second.
        var run = try await CommandRunner.run([
            "edit", ids[0], "CIPhotoEffectNoir", "--intensity", "0.4", "--adjust", "warmth=0.3", "--library", library,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        run = try await CommandRunner.run(["edit", ids[1], "CICrop", "--param", "inputRectangle=0,0,48,32", "--library", library])
        #expect(run.status == 0, "\(run.stderr)")

        run = try await CommandRunner.run(["presets", "save", "Warm Noir", "--from", ids[0], "--library", library])
        #expect(run.status == 0 && run.stdout.contains("CITemperatureAndTint → CIPhotoEffectNoir 40 %"), "\(run.stdout) \(run.stderr)")
        run = try await CommandRunner.run(["presets", "save", "warm noir", "--from", ids[0], "--library", library])
        #expect(run.status != 0 && run.stderr.contains("exists"), "\(run.stderr)")
        run = try await CommandRunner.run(["presets", "save", "Crop", "--from", ids[1], "--library", library])
        #expect(run.status != 0 && run.stderr.contains("needs a look or an adjustment"), "\(run.stderr)")

        let list = try #require(
            try Self.json(try await CommandRunner.run(["presets", "list", "--json", "--library", library]).stdout) as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["Warm Noir"])

        // Applied to the cropped photo and the unedited one: the crop stays first, the look follows.
        run = try await CommandRunner.run(["presets", "apply", "warm noir", ids[1], ids[2], "--library", library])
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try await Self.recipe(ids[0], library: library)
        #expect(
            try await Self.recipe(ids[1], library: library).steps == [
                EditRecipe.Step(filter: "CICrop", parameters: ["inputRectangle": .vector([0, 0, 48, 32])])
            ] + saved.steps)
        #expect(try await Self.recipe(ids[2], library: library).steps == saved.steps)
        run = try await CommandRunner.run(["presets", "apply", "Warm Noir", ids[2], "ffffffff", "--library", library])
        #expect(run.status != 0 && run.stderr.contains("1 of 2"), "\(run.stderr)")

        // As a recipe file for `sepia apply`: the same pixels as the library's edit of an unedited photo.
        let show = try await CommandRunner.run(["presets", "show", "Warm Noir", "--library", library])
        #expect(show.status == 0)
        let recipeFile = folder.appendingPathComponent("warm-noir.json").path
        try Data(show.stdout.utf8).write(to: URL(fileURLWithPath: recipeFile))
        #expect(try EditRecipe.decode(Data(show.stdout.utf8)).steps == saved.steps)
        let output = folder.appendingPathComponent("out.png").path
        run = try await CommandRunner.run(["apply", "--recipe", recipeFile, try Self.photo(2, in: folder), "-o", output])
        #expect(run.status == 0, "\(run.stderr)")

        run = try await CommandRunner.run(["presets", "delete", "Warm Noir", "--library", library])
        #expect(run.status == 0)
        run = try await CommandRunner.run(["presets", "show", "Warm Noir", "--library", library])
        #expect(run.status != 0 && run.stderr.contains("no presets"), "\(run.stderr)")
    }
}
