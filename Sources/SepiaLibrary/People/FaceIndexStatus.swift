/// How far face indexing has come for one algorithm version, and what it found
/// (``PhotoLibrary/faceIndexStatus(algorithm:)``).
public struct FaceIndexStatus: Sendable, Hashable, Codable {
    /// The algorithm version asked about.
    public var algorithm: Int
    /// Assets indexed by that version (with or without faces).
    public var indexedAssets: Int
    /// Assets outside Recently Deleted still to index by that version.
    public var assetsToIndex: Int
    /// Faces the library keeps, of every version.
    public var faces: Int
    /// Faces that belong to no one.
    public var unassignedFaces: Int
    /// People listed (``PhotoLibrary/people(includingHidden:)`` with hidden ones).
    public var people: Int
    /// Named people among them.
    public var namedPeople: Int

    /// A status.
    public init(
        algorithm: Int, indexedAssets: Int, assetsToIndex: Int, faces: Int, unassignedFaces: Int, people: Int, namedPeople: Int
    ) {
        self.algorithm = algorithm
        self.indexedAssets = indexedAssets
        self.assetsToIndex = assetsToIndex
        self.faces = faces
        self.unassignedFaces = unassignedFaces
        self.people = people
        self.namedPeople = namedPeople
    }
}
