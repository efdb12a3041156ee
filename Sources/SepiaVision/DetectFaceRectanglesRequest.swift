public import SepiaImage

/// Finds the faces in an image, as Vision's `DetectFaceRectanglesRequest`.
///
/// ```swift
/// let faces = try DetectFaceRectanglesRequest().perform(on: photo.image)
/// for face in faces where face.confidence > 0.6 { print(face.boundingBox) }
/// ```
///
/// The default detector is dlib's HOG detector, which finds faces that look roughly at the camera; `.cnn` uses
/// dlib's CNN detector (`mmod_human_face_detector.dat`), which finds more faces in profile and in poor light but is
/// many times slower on a CPU.
public struct DetectFaceRectanglesRequest: Sendable, Hashable {
    /// Which of dlib's detectors searches.
    public enum Detector: Sendable, Hashable {
        /// dlib's HOG and linear SVM detector (built into dlib).
        case hog
        /// dlib's CNN detector, from its model file.
        case cnn
    }

    /// Which detector searches.
    public var detector: Detector = .hog
    /// The most pixels searched: an image of up to a quarter of this is searched at twice its size (faces of 40
    /// pixels are found); a larger one at the scale that fits (in a 24-megapixel photo, faces of about 100 pixels).
    /// The search's time and memory grow with it.
    public var maximumSearchedPixels = 16_000_000
    /// The most faces returned, surest first.
    public var maximumFaces = 1_000
    /// The folder of the models.
    public var models: FaceModels = .default

    /// A request with the default detector and limits.
    public init() {}

    /// The faces in the handler's image, surest first.
    public func perform(on handler: ImageRequestHandler) throws(VisionError) -> [FaceObservation] {
        try Self.observations(self, on: handler, withLandmarks: false)
    }

    /// The faces in an upright image, surest first.
    public func perform(on image: Image) throws(VisionError) -> [FaceObservation] {
        try perform(on: ImageRequestHandler(image))
    }

    static func observations(
        _ request: DetectFaceRectanglesRequest, on handler: ImageRequestHandler, withLandmarks: Bool
    ) throws(VisionError) -> [FaceObservation] {
        let engine = try FaceEngine.shared(models: request.models, cnnDetector: request.detector == .cnn)
        let (faces, searched) = try handler.faces(
            engine: engine, detector: request.detector == .cnn ? .cnn : .hog,
            maximumSearchedPixels: request.maximumSearchedPixels, maximumFaces: request.maximumFaces)
        return faces.map {
            FaceObservation(
                engineFace: $0, searchedWidth: searched.bitmap.width, searchedHeight: searched.bitmap.height,
                withLandmarks: withLandmarks)
        }
    }
}

/// Finds the faces in an image with their landmarks, as Vision's `DetectFaceLandmarksRequest`: two corners of each
/// eye and the base of the nose.
public struct DetectFaceLandmarksRequest: Sendable, Hashable {
    /// How the faces are found.
    public var detection = DetectFaceRectanglesRequest()

    /// A request with the default detector and limits.
    public init() {}

    /// The faces in the handler's image with their landmarks, surest first.
    public func perform(on handler: ImageRequestHandler) throws(VisionError) -> [FaceObservation] {
        try DetectFaceRectanglesRequest.observations(detection, on: handler, withLandmarks: true)
    }

    /// The faces in an upright image with their landmarks, surest first.
    public func perform(on image: Image) throws(VisionError) -> [FaceObservation] {
        try perform(on: ImageRequestHandler(image))
    }
}
