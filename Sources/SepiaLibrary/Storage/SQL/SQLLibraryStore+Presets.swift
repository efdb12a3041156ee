import Foundation
import SepiaImage

extension SQLLibraryStore {
    /// Every preset, by name (case folded); a preset whose recipe this version cannot read is left out.
    func presets() throws(LibraryError) -> [EditPreset] {
        try read { db in
            try db.fetch("SELECT localIdentifier, name, recipe, creationDate, modificationDate FROM preset ORDER BY nameKey, rowID")
                .compactMap { row -> EditPreset? in
                    let data: Data = row[2]
                    guard let recipe = try? EditRecipe.decode(data) else { return nil }
                    let created: Double = row[3]
                    let modified: Double = row[4]
                    return EditPreset(
                        id: row[0], name: row[1], portableRecipe: recipe, creationDate: Date(timeIntervalSince1970: created),
                        modificationDate: Date(timeIntervalSince1970: modified))
                }
        }
    }

    /// Saves `preset`. When one of the same name (case folded) exists, `replacing` says whether to give it the
    /// new recipe (it keeps its identifier and creation date) or to refuse with ``LibraryError/Code/duplicate``.
    func savePreset(_ preset: EditPreset, replacing: Bool) throws(LibraryError) -> EditPreset {
        let key = EditPreset.nameKey(preset.name)
        // Dates as a read gives them back (seconds since 1970 in a double), so the answer equals what is read later.
        var preset = preset
        preset.creationDate = Date(timeIntervalSince1970: preset.creationDate.timeIntervalSince1970)
        preset.modificationDate = Date(timeIntervalSince1970: preset.modificationDate.timeIntervalSince1970)
        return try write { db -> EditPreset in
            if let row = try db.fetchOne("SELECT localIdentifier, name, creationDate FROM preset WHERE nameKey = ?", [key]) {
                let existingName: String = row[1]
                guard replacing else {
                    var error = LibraryError(
                        .duplicate, "a preset called “\(existingName)” exists; choose another name or replace it", subject: preset.name)
                    error.relatedID = row[0]
                    throw error
                }
                var saved = preset
                saved.id = row[0]
                let created: Double = row[2]
                saved.creationDate = Date(timeIntervalSince1970: created)
                _ = try db.execute(
                    "UPDATE preset SET name = ?, recipe = ?, modificationDate = ? WHERE nameKey = ?",
                    [saved.name, saved.recipe.encoded(), saved.modificationDate.timeIntervalSince1970, key])
                return saved
            }
            let count: Int64 = try db.value("SELECT count(*) FROM preset") ?? 0
            guard count < EditPreset.maximumCount else {
                throw LibraryError(
                    .invalidRequest, "this library has \(count) presets, the most it keeps; delete one before saving another")
            }
            _ = try db.execute(
                "INSERT INTO preset (localIdentifier, name, nameKey, recipe, creationDate, modificationDate) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    preset.id, preset.name, key, preset.recipe.encoded(), preset.creationDate.timeIntervalSince1970,
                    preset.modificationDate.timeIntervalSince1970,
                ])
            return preset
        }
    }

    /// Deletes the preset `id`; false when there is none.
    func deletePreset(id: String) throws(LibraryError) -> Bool {
        try write { db in try db.execute("DELETE FROM preset WHERE localIdentifier = ?", [id]) > 0 }
    }
}
