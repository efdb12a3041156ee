import CFaces
import Foundation

/// A face found in an image, as Vision's `VNFaceObservation`: where it is, how sure the detector is, its roll, and
/// (from ``DetectFaceLandmarksRequest``) its landmarks.
public struct FaceObservation: Sendable, Hashable {
    /// The face's box, normalised to the upright image, origin at the lower left (Vision's convention; see
    /// ``NormalizedRect/topLeftOrigin``).
    public var boundingBox: NormalizedRect
    /// How sure the detector is, 0…1: the detector's score through a logistic curve, so 0.5 is its threshold.
    public var confidence: Float
    /// The detector's own score (the HOG detector's SVM margin, or the CNN detector's), 0 at its threshold.
    public var detectorScore: Float
    /// The face's rotation in the image plane, in radians, counter-clockwise positive: the angle of the line from the
    /// eye on the image's left to the other.
    public var roll: Double?
    /// The face's turn left or right, in radians. Five landmarks do not tell it reliably, so it is `nil`.
    public var yaw: Double? { nil }
    /// The landmarks, when a ``DetectFaceLandmarksRequest`` asked for them.
    public var landmarks: FaceLandmarks2D?

    /// The engine's face, in the pixels of the image that was searched, and that image's size: what
    /// ``GenerateFacePrintRequest`` aligns the face with.
    let engineFace: EngineFace

    init(engineFace: EngineFace, searchedWidth: Int, searchedHeight: Int, withLandmarks: Bool) {
        self.engineFace = engineFace
        let face = engineFace.face
        let w = Double(searchedWidth)
        let h = Double(searchedHeight)
        boundingBox = NormalizedRect(
            pixelX: Double(face.x), pixelY: Double(face.y), width: Double(face.width), height: Double(face.height),
            imageWidth: w, imageHeight: h)
        detectorScore = face.score
        confidence = Float(1 / (1 + exp(-2 * Double(face.score))))
        let points = engineFace.landmarks
        // dlib's five points: 0 and 1 are one eye's corners, 2 and 3 the other's, 4 the base of the nose.
        let eyeA = (x: (points[0].x + points[1].x) / 2, y: (points[0].y + points[1].y) / 2)
        let eyeB = (x: (points[2].x + points[3].x) / 2, y: (points[2].y + points[3].y) / 2)
        let (imageLeft, imageRight) = eyeA.x <= eyeB.x ? (eyeA, eyeB) : (eyeB, eyeA)
        // y grows downward in pixels: negate it for an angle counter-clockwise positive.
        roll = atan2(-(imageRight.y - imageLeft.y), imageRight.x - imageLeft.x)
        if withLandmarks {
            let box = (x: Double(face.x), y: Double(face.y), width: max(Double(face.width), 1), height: max(Double(face.height), 1))
            func inBox(_ p: (x: Double, y: Double)) -> NormalizedPoint {
                NormalizedPoint(x: (p.x - box.x) / box.width, y: 1 - (p.y - box.y) / box.height)
            }
            let first = [points[0], points[1]].map(inBox)
            let second = [points[2], points[3]].map(inBox)
            // The person's left eye is on the image's right in a face that looks at the camera.
            let (left, right) = eyeA.x > eyeB.x ? (first, second) : (second, first)
            landmarks = FaceLandmarks2D(leftEye: left, rightEye: right, nose: [inBox(points[4])])
        }
    }
}

/// The landmarks of a face, as Vision's `VNFaceLandmarks2D`: each region's points normalised to the face's bounding
/// box, origin at its lower left. Sepia's model finds five points: two corners of each eye and the base of the nose.
public struct FaceLandmarks2D: Sendable, Hashable {
    /// The corners of the person's left eye (on the image's right when they face the camera).
    public var leftEye: [NormalizedPoint]
    /// The corners of the person's right eye.
    public var rightEye: [NormalizedPoint]
    /// The base of the nose.
    public var nose: [NormalizedPoint]
    /// Every point: the left eye's, the right eye's, the nose's.
    public var allPoints: [NormalizedPoint] { leftEye + rightEye + nose }
}

/// A face as the engine found it, kept with its observation so that a face print can be made without searching again.
struct EngineFace: Sendable, Hashable {
    var face: sepia_face

    var landmarks: [(x: Double, y: Double)] {
        withUnsafeBytes(of: face.landmarks) { raw in
            let values = raw.bindMemory(to: Float.self)
            return (0..<5).map { (x: Double(values[2 * $0]), y: Double(values[2 * $0 + 1])) }
        }
    }

    static func == (a: EngineFace, b: EngineFace) -> Bool {
        withUnsafeBytes(of: a.face) { x in withUnsafeBytes(of: b.face) { y in x.elementsEqual(y) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: face) { hasher.combine(bytes: $0) }
    }
}
