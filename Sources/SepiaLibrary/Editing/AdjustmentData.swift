public import Foundation
public import SepiaImage

/// What an edit did, in a format named by identifier and version (PhotoKit's `PHAdjustmentData`). Sepia's
/// own edits store an ``EditRecipe`` as JSON (`org.sepia.recipe`, version 1); data in another format is kept
/// and reported, never guessed at.
public struct AdjustmentData: Sendable, Hashable, Codable {
    /// Reverse-DNS name of the format.
    public var formatIdentifier: String
    /// The format's version.
    public var formatVersion: String
    /// The encoded edit.
    public var data: Data

    /// Creates adjustment data in any format.
    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// Adjustment data holding `recipe`.
    public init(recipe: EditRecipe) {
        self.init(formatIdentifier: recipe.formatIdentifier, formatVersion: recipe.formatVersion, data: recipe.encoded())
    }

    /// Whether this version of Sepia can read the data as an edit recipe.
    public var isEditRecipe: Bool {
        EditRecipe.canHandle(formatIdentifier: formatIdentifier, formatVersion: formatVersion)
    }

    /// The recipe, when the data is one this version can read.
    public func recipe() throws(LibraryError) -> EditRecipe {
        guard isEditRecipe else {
            throw LibraryError(
                .unsupportedAdjustment,
                "the edit is in format '\(formatIdentifier)' version \(formatVersion), which this version of Sepia cannot read; it can only show the edit's rendered image"
            )
        }
        do {
            return try EditRecipe.decode(data)
        } catch {
            throw LibraryError(.unsupportedAdjustment, "the edit recipe cannot be read: \(error)")
        }
    }
}
