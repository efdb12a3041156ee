public import Foundation

/// Someone whose faces the library grouped (Photos' People): an immutable snapshot. A person is listed once
/// they have ``FaceGroupingOptions/minimumFacesPerPerson`` faces, or a name.
///
/// It encodes as `{"id", "name", "keyFaceID", "isHidden", "faceCount", "assetCount", "creationDate"}`.
public struct Person: Sendable, Hashable, Identifiable, Codable {
    /// The stable identifier, a UUID string. It survives regrouping: the faces a person had keep them.
    public var id: String
    /// The name the user gave; nil for a person not named yet. Unique in the library whatever its case and
    /// accents.
    public var name: String?
    /// The face that shows the person (the user's choice, else their most confident confirmed face, else their
    /// most confident face); nil only for a named person without faces.
    public var keyFaceID: String?
    /// Hidden from the People view by the user; their faces stay theirs.
    public var isHidden: Bool
    /// The number of their faces.
    public var faceCount: Int
    /// The number of assets (photos and videos) with one of their faces. Two faces of one asset are never one
    /// person's, so it equals ``faceCount``; it counts assets in Recently Deleted and hidden ones too.
    public var assetCount: Int
    /// When the grouping (or the user) made the person.
    public var creationDate: Date

    /// A person as the library reports it.
    public init(
        id: String, name: String?, keyFaceID: String?, isHidden: Bool, faceCount: Int, assetCount: Int, creationDate: Date
    ) {
        self.id = id
        self.name = name
        self.keyFaceID = keyFaceID
        self.isHidden = isHidden
        self.faceCount = faceCount
        self.assetCount = assetCount
        self.creationDate = creationDate
    }

    /// The longest name a person can have, in characters.
    public static let maximumNameLength = 100

    /// The name trimmed of surrounding white space.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/invalidRequest``) when it is empty, longer than
    ///   ``maximumNameLength`` or has a control character.
    public static func validName(_ name: String) throws(LibraryError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LibraryError(.invalidRequest, "a person's name cannot be empty") }
        guard trimmed.count <= maximumNameLength else {
            throw LibraryError(
                .invalidRequest, "a person's name can have at most \(maximumNameLength) characters; this one has \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw LibraryError(.invalidRequest, "a person's name must be one line without control characters")
        }
        return trimmed
    }

    /// The key names are unique by: case, accents and width folded, so "Zoë", "zoe" and "ZOE" are one person.
    static func nameKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
