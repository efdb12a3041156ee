import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaImage
import SepiaLibrary

/// `sepia edit ASSET FILTER [--intensity T] [--param K=V]… | --recipe FILE [--append]`.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a photo non-destructively with a filter or a recipe.",
        discussion: """
            The edit is saved as the photo's current version: its recipe and a full-size rendered JPEG. The \
            original is never changed; `sepia revert` brings it back and the history of edits is kept. The new \
            filter or recipe replaces the current edit (it applies to the original); with --append it is added \
            after the current edit's steps.
            """)

    @Argument(help: "The photo (identifier or unique prefix).")
    var asset: String

    @Argument(help: "The filter (Core Image or Sepia name); omit with --recipe.")
    var filter: String?

    @Option(name: .long, help: "An edit recipe (JSON) instead of one filter.", completion: .file())
    var recipe: String?

    @Option(name: .long, help: "One 0-1 value mapped onto the filter (Instafilter's slider).")
    var intensity: Double?

    @Option(name: .long, help: "KEY=VALUE; repeat for several parameters.")
    var param: [String] = []

    @Flag(name: .long, help: "Add to the current edit instead of replacing it.")
    var append = false

    @Flag(name: .long, help: "Print the edited photo as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        switch (filter, recipe) {
        case (nil, nil): throw ValidationError("give a filter name or --recipe FILE")
        case (.some, .some): throw ValidationError("give a filter name or --recipe FILE, not both")
        default: break
        }
        if recipe != nil && (intensity != nil || !param.isEmpty) {
            throw ValidationError("--intensity and --param set one filter; a recipe carries its own parameters")
        }
        _ = try newRecipe()
    }

    func newRecipe() throws -> EditRecipe {
        if let recipe { return try FilterInvocation.loadRecipe(recipe) }
        return EditRecipe(filters: [try FilterInvocation.makeFilter(named: filter ?? "", intensity: intensity, parameters: param)])
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open(quiet: json)
            defer { photos.close() }
            let target = try photos.asset(matching: asset)
            var recipe = try newRecipe()
            if append, let current = try await photos.contentEditingInput(for: target).currentRecipe {
                recipe = EditRecipe(steps: current.steps + recipe.steps)
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
