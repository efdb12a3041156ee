public import Foundation

/// An edit of an asset (PhotoKit's `PHAdjustmentData` with its render): the recipe that produced it and the
/// full-size JPEG it rendered. Adjustments are never rewritten: editing again adds a new one, reverting
/// makes none current, and the list of an asset's adjustments is its edit history.
public struct Adjustment: Sendable, Hashable, Codable, Identifiable {
    /// A UUID string.
    public var id: String
    /// The asset edited.
    public var assetID: String
    /// The recipe, as adjustment data.
    public var data: AdjustmentData
    /// When the edit was saved.
    public var creationDate: Date
    /// SHA-256 of the rendered JPEG while this adjustment is current; nil once superseded (its render is
    /// deleted, the recipe kept).
    public var renderedContentHash: String?
    /// The render's width.
    public var renderedWidth: Int
    /// The render's height.
    public var renderedHeight: Int
    /// The adjustment whose render this edit started from, when that adjustment's format could not be read
    /// (its look is baked into this edit's render, and its render is kept as this edit's base); nil when the
    /// edit started from the original.
    public var baseAdjustmentID: String?
}
