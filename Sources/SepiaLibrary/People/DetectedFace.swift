/// One face that indexing found in an asset, as it hands it to the library
/// (``PhotoLibrary/recordFaces(_:for:algorithm:)``): where it is, how sure the detector is, and its face print.
/// The library keeps these; landmarks and the aligned crop are the detector's business and are not stored.
public struct DetectedFace: Sendable, Hashable {
    /// The number of values in a face print: dlib's face-recognition network gives 128.
    public static let descriptorLength = 128

    /// Where the face is in the asset as it is shown (its current version, upright), normalised to 0...1 with the
    /// origin at the top left (``FaceBox``).
    public var boundingBox: FaceBox
    /// The detector's confidence that this is a face, as the detector scores it (higher is surer).
    public var confidence: Float
    /// The face print: exactly ``descriptorLength`` finite values. Two prints of one person are close in
    /// Euclidean distance (see ``FaceGroupingOptions/distanceThreshold``).
    public var descriptor: [Float]

    /// A detected face. The box is clamped to the image; the descriptor is checked when the face is recorded.
    public init(boundingBox: FaceBox, confidence: Float, descriptor: [Float]) {
        self.boundingBox = boundingBox
        self.confidence = confidence
        self.descriptor = descriptor
    }
}
