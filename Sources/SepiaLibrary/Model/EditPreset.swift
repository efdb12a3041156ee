public import Foundation
public import SepiaImage

/// A named look and set of adjustments the user saved to apply to other photos (Lightroom's and Photos'
/// presets): an edit recipe without the steps that belong to one photo.
///
/// A preset keeps only the *portable* steps of the recipe it was made from: its Adjust sliders, its look and
/// their intensities. A crop, a straighten or a turn (geometry, which depends on one photo's framing) and a
/// RAW development (which depends on one camera file) are left out, and applying a preset keeps the target's
/// own (``applied(to:)``). It encodes as `{"id", "name", "recipe", "creationDate", "modificationDate"}`, as the API
/// and `sepia presets list --json` show it.
public struct EditPreset: Sendable, Hashable, Identifiable, Encodable {
    /// The stable identifier, a UUID string.
    public var id: String
    /// The name the user gave it, unique in the library whatever its case.
    public var name: String
    /// The portable steps, as a recipe.
    public var recipe: EditRecipe
    /// When it was first saved.
    public var creationDate: Date
    /// When it was last saved (replaced).
    public var modificationDate: Date

    /// The longest name a preset can have, in characters.
    public static let maximumNameLength = 64
    /// The most presets one library keeps.
    public static let maximumCount = 200
    /// The most steps a preset's recipe can have (the Adjust panel's sliders and a look fit many times over).
    public static let maximumStepCount = 64

    /// Creates a preset with the portable steps of `recipe`.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/invalidRequest``) when the name is empty, too long or
    ///   has control characters, when the recipe is invalid, or when no portable step is left.
    /// - Parameter id: The identifier; a new one when nil.
    public init(id: String? = nil, name: String, recipe: EditRecipe, date: Date = Date()) throws(LibraryError) {
        self.id = id ?? ChangeRequests.newIdentifier()
        self.name = try Self.validName(name)
        self.recipe = try Self.portable(recipe)
        creationDate = date
        modificationDate = date
    }

    init(id: String, name: String, portableRecipe: EditRecipe, creationDate: Date, modificationDate: Date) {
        self.id = id
        self.name = name
        recipe = portableRecipe
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }

    /// The name trimmed of surrounding white space.
    /// - Throws: ``LibraryError`` when it is empty, longer than ``maximumNameLength`` or has a control character.
    public static func validName(_ name: String) throws(LibraryError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LibraryError(.invalidRequest, "a preset needs a name") }
        guard trimmed.count <= maximumNameLength else {
            throw LibraryError(
                .invalidRequest, "a preset's name can have at most \(maximumNameLength) characters; this one has \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw LibraryError(.invalidRequest, "a preset's name must be one line without control characters")
        }
        return trimmed
    }

    /// The key names are unique by: case and width folded, so "Warm" and "WARM" are one preset.
    static func nameKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// The portable steps of `recipe`, validated, as a recipe of the oldest version that holds them.
    /// - Throws: ``LibraryError`` when the recipe is invalid or nothing portable is left.
    public static func portable(_ recipe: EditRecipe) throws(LibraryError) -> EditRecipe {
        do throws(FilterError) {
            _ = try recipe.makeFilters()
        } catch {
            throw LibraryError(.invalidRequest, "the preset's recipe is invalid: \(error.description)")
        }
        let steps = recipe.steps.filter(isPortable)
        guard !steps.isEmpty else {
            throw LibraryError(
                .invalidRequest,
                "a preset needs a look or an adjustment; crop, straighten, rotation and RAW development belong to one photo and are not kept")
        }
        guard steps.count <= maximumStepCount else {
            throw LibraryError(.invalidRequest, "a preset can have at most \(maximumStepCount) steps; this one has \(steps.count)")
        }
        return EditRecipe(steps: steps)
    }

    /// Whether a step can go from one photo to another: anything but geometry and RAW development.
    public static func isPortable(_ step: EditRecipe.Step) -> Bool {
        if EditRecipe(steps: [step]).withoutRAWDevelopment.steps.isEmpty { return false }
        guard let type = FilterRegistry.type(named: step.filter) else { return true }
        return !type.descriptor.categories.contains(.geometryAdjustment)
    }

    /// The recipe a photo whose current recipe is `current` gets from the preset: the photo's own RAW
    /// development and geometry (and, in their order, any step before its first portable one), then the
    /// preset's steps, replacing the photo's adjustments and look, as Paste Edits does.
    public func applied(to current: EditRecipe?) -> EditRecipe {
        let kept = (current?.steps ?? []).filter { !Self.isPortable($0) }
        return EditRecipe(steps: kept + recipe.steps)
    }
}
