import Foundation
import SepiaCodecs
public import SepiaImage

extension PhotoLibrary {
    /// The library's edit presets, by name (case folded).
    /// - Throws: ``LibraryError`` when the database cannot be read.
    public func presets() throws(LibraryError) -> [EditPreset] {
        try store.presets()
    }

    /// The preset whose identifier, identifier prefix (at least 4 characters) or name (case folded) is
    /// `idOrName`.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/notFound``) when none is, or when a prefix is ambiguous.
    public func preset(matching idOrName: String) throws(LibraryError) -> EditPreset {
        let all = try presets()
        let key = EditPreset.nameKey(idOrName.trimmingCharacters(in: .whitespacesAndNewlines))
        if let preset = all.first(where: { $0.id == idOrName || EditPreset.nameKey($0.name) == key }) { return preset }
        let prefixed = idOrName.count >= 4 ? all.filter { $0.id.lowercased().hasPrefix(idOrName.lowercased()) } : []
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            throw LibraryError(.notFound, "\(prefixed.count) presets start with “\(idOrName)”; give more of the identifier or the name")
        }
        let names = all.prefix(10).map { "“\($0.name)”" }.joined(separator: ", ")
        throw LibraryError(
            .notFound, all.isEmpty ? "the library has no presets; save one first" : "no preset is called “\(idOrName)” (there are \(names))",
            subject: idOrName)
    }

    /// Saves the portable steps of `recipe` (its look and adjustments) as a preset called `name`.
    /// - Parameter replacing: When a preset of that name (case folded) exists: give it the new recipe (true), or
    ///   refuse (false).
    /// - Returns: The preset as stored (a replaced one keeps its identifier and creation date).
    /// - Throws: ``LibraryError``: ``LibraryError/Code/invalidRequest`` for a bad name, an invalid recipe, a
    ///   recipe with nothing portable, a recipe that would cost more to render on the largest photo the library
    ///   takes than ``LibraryConfiguration/renderCostLimit`` allows, or a library with ``EditPreset/maximumCount``
    ///   presets; ``LibraryError/Code/duplicate`` when the name is taken and `replacing` is false.
    @discardableResult
    public func savePreset(named name: String, recipe: EditRecipe, replacing: Bool = false) throws(LibraryError) -> EditPreset {
        let preset = try EditPreset(name: name, recipe: recipe, date: configuration.clock())
        try checkCost(ofPreset: preset.recipe)
        return try store.savePreset(preset, replacing: replacing)
    }

    /// Refuses a preset whose steps would cost more than the limit on a photo of the most pixels the library
    /// takes (4:3): a preset is applied to photos not seen yet, the largest of which cost the most.
    private func checkCost(ofPreset recipe: EditRecipe) throws(LibraryError) {
        let pixels = max(1, configuration.decodeOptions.maximumPixels)
        let width = max(1, Int((Double(pixels) * 4 / 3).squareRoot()))
        let reference = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: IntRect(x: 0, y: 0, width: width, height: max(1, pixels / width)))
        do {
            try recipe.checkCost(limit: configuration.renderCostLimit) { try $0.apply(to: reference) }
        } catch {
            throw LibraryError(.invalidRequest, "on a \(width)×\(max(1, pixels / width)) photo, \(error)")
        }
    }

    /// Deletes the preset `id`.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/notFound``) when there is no such preset.
    public func deletePreset(_ id: String) throws(LibraryError) {
        guard try store.deletePreset(id: id) else {
            throw LibraryError(.notFound, "no preset has the identifier \(id)", subject: id)
        }
    }
}
