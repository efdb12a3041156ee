/// How faces are grouped into people (``LibraryConfiguration/faceGrouping``).
///
/// A face joins the person whose faces it is nearest to when both its nearest face of that person and the
/// mean of its ``neighbourCount`` nearest faces of that person are within ``distanceThreshold`` (Euclidean, on
/// the 128-value face prints). The mean keeps a face from joining a person through one look-alike face, which
/// is how siblings end up merged. Faces that join no one wait, unassigned, until
/// ``minimumFacesPerPerson`` of them, from different assets and each within the threshold of every other,
/// make a new person.
public struct FaceGroupingOptions: Sendable, Hashable {
    /// dlib's documented threshold for its face-recognition model: two face prints closer than 0.6 are of one
    /// person (99.38% right on the Labeled Faces in the Wild benchmark).
    public static let dlibSamePersonDistance: Float = 0.6

    /// The largest Euclidean distance between face prints of one person; ``dlibSamePersonDistance`` by default.
    public var distanceThreshold: Float
    /// The fewest faces a person is made of, and is listed with; 3 by default.
    public var minimumFacesPerPerson: Int
    /// How many of a person's nearest faces a face must be near on average to join them; 5 by default.
    public var neighbourCount: Int

    /// Options; the defaults are dlib's threshold, 3 faces and 5 neighbours.
    public init(distanceThreshold: Float = dlibSamePersonDistance, minimumFacesPerPerson: Int = 3, neighbourCount: Int = 5) {
        self.distanceThreshold = distanceThreshold.isFinite ? max(0, distanceThreshold) : Self.dlibSamePersonDistance
        self.minimumFacesPerPerson = max(1, minimumFacesPerPerson)
        self.neighbourCount = max(1, neighbourCount)
    }
}
