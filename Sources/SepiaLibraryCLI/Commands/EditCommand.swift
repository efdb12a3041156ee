import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaImage
import SepiaLibrary

/// `sepia edit ASSET [FILTER [--intensity T] [--param K=V]… | --recipe FILE] [--adjust SLIDER=P]… [--auto] [--append]`.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a photo non-destructively with a filter or a recipe.",
        discussion: """
            The edit is saved as the photo's current version: its recipe and a full-size rendered JPEG. The \
            original is never changed; `sepia revert` brings it back and the history of edits is kept. The new \
            filter or recipe replaces the current edit (it applies to the original); with --append it is added \
            after the current edit's steps.

            --adjust moves a slider of the editor's Adjust panel (exposure, brilliance, highlights, shadows, \
            brightness, contrast, blackPoint, saturation, vibrance, warmth, tint, blackAndWhite, neutrals, tone, grain, \
            sharpness, definition, noiseReduction, vignette; -1 to 1, or 0 to 1): `--adjust exposure=0.3 \
            --adjust warmth=0.2`. --auto sets them as the editor's Auto does, from the photo's histogram; \
            --adjust then overrides single sliders. The adjustments come before the filter, as in the editor.
            """)

    @Argument(help: "The photo (identifier or unique prefix).")
    var asset: String

    @Argument(help: "The filter (Core Image or Sepia name); omit with --recipe or for adjustments alone.")
    var filter: String?

    @Option(name: .long, help: "An edit recipe (JSON) instead of one filter.", completion: .file())
    var recipe: String?

    @Option(name: .long, help: "One 0-1 value mapped onto the filter (Instafilter's slider).")
    var intensity: Double?

    @Option(name: .long, help: "KEY=VALUE; repeat for several parameters.")
    var param: [String] = []

    @Option(name: .long, help: "SLIDER=POSITION: an Adjust slider (exposure=0.3); repeat for several.")
    var adjust: [String] = []

    @Flag(name: .long, help: "Set the Adjust sliders as Auto does, from the photo's histogram.")
    var auto = false

    @Flag(name: .long, help: "Add to the current edit instead of replacing it.")
    var append = false

    @Flag(name: .long, help: "Print the edited photo as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        switch (filter, recipe) {
        case (nil, nil) where adjust.isEmpty && !auto: throw ValidationError("give a filter name, --recipe FILE, --adjust or --auto")
        case (.some, .some): throw ValidationError("give a filter name or --recipe FILE, not both")
        default: break
        }
        do {
            _ = try AdjustmentValues.parse(adjust)
        } catch {
            throw ValidationError(error.description)
        }
        if recipe != nil && (intensity != nil || !param.isEmpty) {
            throw ValidationError("--intensity and --param set one filter; a recipe carries its own parameters")
        }
        _ = try newRecipe()
    }

    func newRecipe() throws -> EditRecipe {
        if let recipe { return try FilterInvocation.loadRecipe(recipe) }
        guard let filter else { return EditRecipe(steps: []) }
        return EditRecipe(filters: [try FilterInvocation.makeFilter(named: filter, intensity: intensity, parameters: param)])
    }

    /// The Adjust steps: Auto's for `image` when asked, with the --adjust positions over them.
    func adjustmentSteps(for image: @autoclosure () throws -> Image, context: RenderContext) async throws -> [EditRecipe.Step] {
        var values = auto ? try await AutoAdjustment.values(for: try image(), context: context) : AdjustmentValues()
        for (id, position) in try AdjustmentValues.parse(adjust).positions { values[id] = position }
        return values.steps
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open(quiet: json)
            defer { photos.close() }
            let target = try photos.asset(matching: asset)
            let input = try await photos.contentEditingInput(for: target)
            let current = append ? input.currentRecipe : nil
            let adjustments = try await adjustmentSteps(
                for: try (current?.withoutRAWDevelopment.apply(to: input.baseImage) ?? input.baseImage), context: photos.renderContext)
            let recipe = EditRecipe(steps: (current?.steps ?? []) + adjustments + (try newRecipe().steps))
            guard !recipe.steps.isEmpty else {
                throw ValidationError("nothing to change: Auto leaves this photo as it is and no other edit was given")
            }
            let edited = try await photos.edit(target, recipe: recipe)
            if json {
                Terminal.print(JSONLine.encode(AssetJSON(edited)))
            } else {
                Terminal.print("edited \(edited.id.prefix(8)): \(recipe.steps.map(\.filter).joined(separator: " → "))")
            }
        }
    }
}
