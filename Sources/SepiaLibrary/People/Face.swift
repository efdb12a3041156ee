/// A face the library keeps: where it is in which asset, and whose it is (Photos' `PHFace`). An immutable
/// snapshot; the user changes whose face it is with ``PhotoLibrary/assignFace(_:toPersonNamed:)``,
/// ``PhotoLibrary/rejectFace(_:)`` and ``PhotoLibrary/mergePeople(_:into:)``.
///
/// It encodes as `{"id", "assetID", "boundingBox": {"x", "y", "width", "height"}, "confidence", "personID",
/// "state", "algorithm"}` (its face print is never exposed).
public struct Face: Sendable, Hashable, Identifiable, Codable {
    /// How a face came to belong to a person, or that it does not.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// It belongs to no one yet: it waits until it joins a person or enough faces like it make one.
        case unassigned
        /// The grouping put it with its person; a regrouping may move it.
        case grouped
        /// The user said whose face it is: every later grouping keeps it there.
        case confirmed
    }

    /// The stable identifier, a UUID string. A face found again by a newer algorithm at the same place (see
    /// ``PhotoLibrary/recordFaces(_:for:algorithm:)``) keeps it.
    public var id: String
    /// The asset the face is in.
    public var assetID: String
    /// Where the face is in the asset as it is shown, normalised (``FaceBox``).
    public var boundingBox: FaceBox
    /// The detector's confidence.
    public var confidence: Float
    /// The person it belongs to; nil when unassigned.
    public var personID: String?
    /// Unassigned, grouped or confirmed.
    public var state: State
    /// The version of the indexing algorithm that found it.
    public var algorithm: Int

    /// A face as the library reports it.
    public init(
        id: String, assetID: String, boundingBox: FaceBox, confidence: Float, personID: String?, state: State, algorithm: Int
    ) {
        self.id = id
        self.assetID = assetID
        self.boundingBox = boundingBox
        self.confidence = confidence
        self.personID = personID
        self.state = state
        self.algorithm = algorithm
    }
}

extension Face.State {
    /// The value the database keeps.
    var storedValue: Int {
        switch self {
        case .unassigned: 0
        case .grouped: 1
        case .confirmed: 2
        }
    }

    /// The state a stored value names (an unknown value reads as unassigned).
    init(storedValue: Int) {
        self =
            switch storedValue {
            case 1: .grouped
            case 2: .confirmed
            default: .unassigned
            }
    }
}
