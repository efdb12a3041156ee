/// The way back from one change to people: a merge, a face assigned to a person or taken from one
/// (``PhotoLibrary/undo(_:)``). It holds the state the change replaced: whose each face it touched was and
/// whether confirmed, each person's name, key face and hidden flag, and the "Not this person" facts about them;
/// undoing restores exactly that, recreating a person the change deleted with the same identifier, and deletes
/// a person the change made.
///
/// It is a value the caller keeps (encodable, to keep it in a session); the library does not. Undoing it after
/// later changes to the same faces puts them back as they were before the change, over the later changes.
/// A server that hands one to a client must keep it, or sign it, rather than take one back unchecked.
public struct PeopleUndo: Sendable, Hashable, Codable {
    /// Whose a face was.
    struct FaceAssignment: Sendable, Hashable, Codable {
        var face: String
        var person: String?
        var state: Face.State
    }

    /// A person as they were.
    struct PersonRecord: Sendable, Hashable, Codable {
        var id: String
        var name: String?
        var keyFace: String?
        var isHidden: Bool
        var creationDate: Double
    }

    /// One "Not this person" fact.
    struct Rejection: Sendable, Hashable, Codable {
        var face: String
        var person: String
    }

    /// The faces the change touched, as they were.
    var faces: [FaceAssignment]
    /// The people the change touched, as they were.
    var people: [PersonRecord]
    /// People the change made, which undoing deletes.
    var createdPeople: [String]
    /// The facts about those faces and people, as they were.
    var rejections: [Rejection]

    /// Whether undoing would change nothing.
    public var isEmpty: Bool { faces.isEmpty && people.isEmpty && createdPeople.isEmpty && rejections.isEmpty }
}
