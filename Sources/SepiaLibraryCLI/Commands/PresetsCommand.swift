import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaImage
import SepiaLibrary

/// `sepia presets [list|save|show|apply|delete]`.
struct PresetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "Save a photo's look and adjustments as a named preset, and apply it to other photos.",
        discussion: """
            A preset keeps an edit's Adjust sliders and look (with their intensities), not its crop, straighten, \
            rotation or RAW development, which belong to one photo. Applying a preset keeps each photo's own \
            geometry and replaces its adjustments and look, as the web app's Paste Edits and preset strip do. The \
            web app and the API (/api/v1/presets) share the library's presets. `sepia presets show NAME > look.json` \
            writes a preset as a recipe file for `sepia apply --recipe` and `sepia edit --recipe`.
            """,
        subcommands: [List.self, Save.self, Show.self, Apply.self, Delete.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the presets, by name.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json)
                defer { photos.close() }
                let presets = try photos.presets()
                if json {
                    Terminal.print(String(decoding: try PresetJSON.encoder.encode(presets), as: UTF8.self))
                    return
                }
                if presets.isEmpty { Terminal.print("No presets; save one with: sepia presets save NAME --from PHOTO") }
                for preset in presets {
                    let steps = preset.recipe.steps.map(PresetJSON.describe).joined(separator: " → ")
                    Terminal.print("\(preset.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(preset.id.prefix(8))  \(steps)")
                }
            }
        }
    }

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save", abstract: "Save the look and adjustments of a photo's current edit, or of a recipe file, as a preset.")

        @Argument(help: "The preset's name (at most 64 characters).")
        var name: String

        @Option(name: .long, help: "The photo whose current edit to save (identifier or unique prefix).")
        var from: String?

        @Option(name: .long, help: "An edit recipe (JSON) to save instead.", completion: .file())
        var recipe: String?

        @Flag(name: .long, help: "Replace a preset of the same name instead of refusing.")
        var replace = false

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            guard (from == nil) != (recipe == nil) else { throw ValidationError("give --from PHOTO or --recipe FILE (one of them)") }
        }

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let source: EditRecipe
                if let recipe {
                    source = try FilterInvocation.loadRecipe(recipe)
                } else {
                    let asset = try photos.asset(matching: from ?? "")
                    guard let current = try await photos.contentEditingInput(for: asset).currentRecipe else {
                        throw ValidationError("photo \(asset.id.prefix(8)) has no edit to save; edit it first (sepia edit)")
                    }
                    source = current
                }
                let preset: EditPreset
                do throws(LibraryError) {
                    preset = try photos.savePreset(named: name, recipe: source, replacing: replace)
                } catch {
                    if error.code == .duplicate { throw LibraryError(.duplicate, error.reason + " (--replace)", subject: error.subject) }
                    throw error
                }
                let steps = preset.recipe.steps.map(PresetJSON.describe).joined(separator: " → ")
                Terminal.print("saved preset “\(preset.name)” (\(preset.id.prefix(8))): \(steps)")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a preset as a recipe file (for sepia apply --recipe and sepia edit --recipe).")

        @Argument(help: "The preset (name or identifier).")
        var preset: String

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: true)
                defer { photos.close() }
                let found = try photos.preset(matching: preset)
                Terminal.print(String(decoding: try PresetJSON.encoder.encode(found.recipe), as: UTF8.self))
            }
        }
    }

    struct Apply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Apply a preset to photos: each keeps its own crop and rotation, and gets the preset's adjustments and look.")

        @Argument(help: "The preset (name or identifier).")
        var preset: String

        @Argument(help: "Photos (identifiers or unique prefixes).")
        var assets: [String]

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            if assets.isEmpty { throw ValidationError("name at least one photo to apply the preset to") }
        }

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let found = try photos.preset(matching: preset)
                var failures: [String] = []
                for reference in assets {
                    do {
                        let asset = try photos.asset(matching: reference)
                        let current = try await photos.contentEditingInput(for: asset).currentRecipe
                        let edited = try await photos.edit(asset, recipe: found.applied(to: current))
                        Terminal.print("applied “\(found.name)” to \(edited.id.prefix(8))")
                    } catch {
                        failures.append("\(reference): \(error)")
                    }
                }
                if !failures.isEmpty {
                    throw LibraryError(
                        .invalidRequest,
                        "the preset was not applied to \(failures.count) of \(assets.count) photos:\n  " + failures.joined(separator: "\n  "))
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a preset (photos it was applied to keep their edits).")

        @Argument(help: "The preset (name or identifier).")
        var preset: String

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let found = try photos.preset(matching: preset)
                try photos.deletePreset(found.id)
                Terminal.print("deleted preset “\(found.name)”")
            }
        }
    }
}

/// How `sepia presets` prints presets and recipes.
enum PresetJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// `CIPhotoEffectNoir 40 %`, or the filter's name.
    static func describe(_ step: EditRecipe.Step) -> String {
        step.intensity.map { "\(step.filter) \(Int(($0 * 100).rounded())) %" } ?? step.filter
    }
}
