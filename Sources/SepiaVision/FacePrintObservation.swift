/// A face's print: dlib's 128-value descriptor of the aligned face, in the spirit of Vision's feature prints. Two
/// prints of the same person lie close together: Euclidean distances under ``sameIdentityDistance`` are taken as
/// the same person by dlib's own evaluation (99.38 % on the LFW benchmark).
public struct FacePrintObservation: Sendable, Hashable {
    /// The distance under which dlib's model takes two faces for the same person.
    public static let sameIdentityDistance: Float = 0.6

    /// The face the print is of.
    public var face: FaceObservation
    /// The 128 values.
    public var descriptor: [Float]

    /// The Euclidean distance to another print.
    public func distance(to other: FacePrintObservation) -> Float {
        Self.distance(descriptor, other.descriptor)
    }

    /// The Euclidean distance between two descriptors of equal length.
    public static func distance(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "face prints of different lengths")
        var sum: Float = 0
        for i in a.indices {
            let d = a[i] - b[i]
            sum += d * d
        }
        return sum.squareRoot()
    }
}
