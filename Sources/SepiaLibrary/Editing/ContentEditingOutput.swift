import Foundation
import SepiaCodecs
public import SepiaImage

/// The result of an edit (PhotoKit's `PHContentEditingOutput`): adjustment data describing it and a full-size,
/// upright JPEG at ``renderedContentPath``. Save it with ``ChangeRequests/setContentEditingOutput(_:for:)``.
///
/// Write the JPEG yourself (upright, no EXIF orientation), or let ``render(_:context:quality:)`` apply an
/// ``EditRecipe`` to the input's base image and write it.
public struct ContentEditingOutput: Sendable {
    /// The asset edited.
    public let assetID: String
    /// What the edit did. Required before saving.
    public var adjustmentData: AdjustmentData?
    /// Where the rendered JPEG goes: a temporary file inside the library, moved into place when the edit is
    /// saved.
    public let renderedContentPath: String
    /// The adjustment whose render the edit started from, if not the original.
    let baseAdjustmentID: String?
    let input: ContentEditingInput

    /// An output for `input`.
    public init(contentEditingInput input: ContentEditingInput) {
        assetID = input.asset.id
        self.input = input
        baseAdjustmentID = input.baseAdjustmentID
        renderedContentPath = input.temporaryFolder + "/" + UUID().uuidString + ".edit.jpg"
    }

    /// Applies `recipe` to the input's full-size image, writes the JPEG to ``renderedContentPath`` and sets
    /// ``adjustmentData``. With a `costLimit`, a recipe whose render would cost more is refused before any pixel
    /// is computed (``RecipeCostError``).
    public mutating func render(_ recipe: EditRecipe, context: RenderContext, quality: Int = 92, costLimit: RenderCostLimit? = nil) async throws {
        let base = try input.baseImage(for: recipe)
        if let costLimit {
            try recipe.checkCost(limit: costLimit) { try $0.withoutRAWDevelopment.apply(to: base) }
        }
        let image = try recipe.withoutRAWDevelopment.apply(to: base)
        let jpeg = try await ImageEncoding.encode(image, as: .jpeg, options: EncodeOptions(quality: quality), context: context)
        try DurableFile.write(jpeg, to: renderedContentPath, via: renderedContentPath + ".partial", sync: false)
        adjustmentData = AdjustmentData(recipe: recipe)
    }
}
