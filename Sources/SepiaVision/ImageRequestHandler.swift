import CFaces
public import SepiaCodecs
public import SepiaImage
import SepiaRAW
import Synchronization

/// Performs face requests on one image, as Vision's `ImageRequestHandler`: the image is rendered for the search once,
/// and the faces found once, however many requests are performed on it.
///
/// ```swift
/// let handler = try ImageRequestHandler(path: "family.jpg")
/// let faces = try handler.perform(DetectFaceRectanglesRequest())
/// let prints = try handler.perform(GenerateFacePrintRequest(faces))
/// ```
public final class ImageRequestHandler: Sendable {
    /// The upright image searched.
    public let image: Image
    /// What renders it.
    let context: RenderContext
    private let state = Mutex<State>(State())

    private struct State {
        var searched: SearchedImage?
        var faces: [FaceSearch: [EngineFace]] = [:]
    }

    /// The engine's detectors.
    enum Detector: Hashable {
        case hog, cnn
    }

    /// One search of the image: the faces it finds are kept for the requests that ask the same.
    struct FaceSearch: Hashable {
        var detector: Detector
        var maximumFaces: Int
    }

    /// A handler for an upright image (an `EncodedImage`'s ``SepiaCodecs/EncodedImage/image``, a render, …),
    /// rendered by `context` (by default one context that every handler shares).
    public init(_ image: Image, context: RenderContext = ImageRequestHandler.sharedContext) {
        self.image = image.movedToOrigin()
        self.context = context
    }

    /// The render context handlers share when they are given none.
    public static let sharedContext = RenderContext()

    /// A handler for a photo file, decoded as ``SepiaRAW/PhotoDecoding`` opens it and turned upright by its
    /// orientation.
    public convenience init(path: String, options: DecodeOptions = DecodeOptions()) throws(VisionError) {
        do {
            self.init(try PhotoDecoding.open(path: path, options: options).image)
        } catch {
            throw VisionError(.imageFailed, "cannot search \(path) for faces: \(error)")
        }
    }

    /// The image rendered for the search: at most `maximumSearchedPixels` searched, so faces down to
    /// `80 / effectiveScale` pixels of the image are found (the HOG detector's window is 80 pixels square).
    struct SearchedImage {
        var bitmap: Bitmap
        /// The bitmap's pixels per pixel of ``image``.
        var scale: Double
        /// Whether the engine doubles the bitmap before searching it.
        var upsample: Bool
    }

    /// The scale at which `size` is searched so that at most `maximumSearchedPixels` are: twice the image when it is
    /// small enough (faces of 40 pixels are found), less in a larger one.
    static func searchScale(for size: IntSize, maximumSearchedPixels: Int) -> (scale: Double, upsample: Bool) {
        let pixels = Double(max(size.width, 1)) * Double(max(size.height, 1))
        let effective = min(2, (Double(maximumSearchedPixels) / pixels).squareRoot())
        return effective > 1 ? (effective / 2, true) : (effective, false)
    }

    func searched(maximumSearchedPixels: Int) throws(VisionError) -> SearchedImage {
        if let searched = state.withLock({ $0.searched }) { return searched }
        let (scale, upsample) = Self.searchScale(for: image.extent.size, maximumSearchedPixels: maximumSearchedPixels)
        let bitmap = try render(image: scale < 1 ? image.scaled(by: scale).movedToOrigin() : image, region: nil)
        let searched = SearchedImage(bitmap: bitmap, scale: Double(bitmap.width) / Double(max(image.extent.width, 1)), upsample: upsample)
        state.withLock { $0.searched = searched }
        return searched
    }

    func render(image: Image, region: IntRect?) throws(VisionError) -> Bitmap {
        try Self.checkCancellation()
        do {
            return try context.renderBitmapSynchronously(image, region: region, layout: .rgb)
        } catch {
            throw VisionError(.imageFailed, "cannot render the image to search it for faces: \(error)")
        }
    }

    /// The faces in the image, found once per detector and limit. (The searched render is made once, for the first
    /// request's pixel budget.)
    func faces(
        engine: FaceEngine, detector: Detector, maximumSearchedPixels: Int, maximumFaces: Int
    ) throws(VisionError) -> (faces: [EngineFace], searched: SearchedImage) {
        let searched = try searched(maximumSearchedPixels: maximumSearchedPixels)
        let search = FaceSearch(detector: detector, maximumFaces: maximumFaces)
        if let faces = state.withLock({ $0.faces[search] }) { return (faces, searched) }
        try Self.checkCancellation()
        let bitmap = searched.bitmap
        var found = [sepia_face](repeating: sepia_face(), count: max(maximumFaces, 0))
        var error = [CChar](repeating: 0, count: 512)
        let count = try engine.withEngine { engine throws(VisionError) -> Int32 in
            bitmap.bytes.withUnsafeBufferPointer { pixels in
                sepia_face_detect(
                    engine, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), bitmap.bytesPerRow,
                    searched.upsample ? 1 : 0, detector == .cnn ? 1 : 0, &found, Int32(found.count), &error, error.count)
            }
        }
        guard count >= 0 else { throw VisionError(.engineFailed, FaceEngine.string(error)) }
        let faces = found.prefix(min(Int(count), found.count)).map { EngineFace(face: $0) }
        state.withLock { $0.faces[search] = faces }
        return (faces, searched)
    }

    static func checkCancellation() throws(VisionError) {
        if Task.isCancelled { throw VisionError(.cancelled, "the face search was cancelled") }
    }
}
