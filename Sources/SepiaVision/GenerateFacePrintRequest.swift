import CFaces
public import SepiaImage

/// Makes each face's print (dlib's 128-value descriptor), in the spirit of Vision's feature-print requests: the
/// faces of `inputFaceObservations`, or of a face search when it is `nil`.
///
/// A face that is small in the searched image is aligned from the image itself, at up to its full resolution, so that
/// a face of 60 pixels in a 24-megapixel photo prints as it would in a crop of it.
public struct GenerateFacePrintRequest: Sendable, Hashable {
    /// The faces to print; `nil` finds them first with ``detection``.
    public var inputFaceObservations: [FaceObservation]?
    /// How the faces are found when ``inputFaceObservations`` is `nil`.
    public var detection = DetectFaceRectanglesRequest()

    /// The size, in pixels, under which a face is aligned from the image rather than from the searched render.
    static let alignedFromImageBelow = 120.0
    /// The size a face is rendered at to be aligned: a little above the 150-pixel chip the model describes.
    static let alignmentSize = 160.0

    /// A request for the prints of `faces`, or of the faces a search finds when it is `nil`.
    public init(_ faces: [FaceObservation]? = nil) {
        inputFaceObservations = faces
    }

    /// The prints of the faces in the handler's image, in the order of the faces.
    public func perform(on handler: ImageRequestHandler) throws(VisionError) -> [FacePrintObservation] {
        let faces: [FaceObservation]
        if let input = inputFaceObservations {
            faces = input
        } else {
            faces = try detection.perform(on: handler)
        }
        guard !faces.isEmpty else { return [] }
        let engine = try FaceEngine.shared(models: detection.models)
        let searched = try handler.searched(maximumSearchedPixels: detection.maximumSearchedPixels)
        var descriptors = [[Float]](repeating: [], count: faces.count)
        // Faces large enough in the searched render are described from it, together.
        let fromSearch = faces.indices.filter {
            searched.scale >= 1 || Double(faces[$0].engineFace.face.width) >= Self.alignedFromImageBelow
        }
        let described = try Self.describe(fromSearch.map { faces[$0].engineFace.face }, in: searched.bitmap, engine: engine)
        for (index, descriptor) in zip(fromSearch, described) { descriptors[index] = descriptor }
        // The others from the image around each, rendered where the face is about 160 pixels wide.
        for index in faces.indices where descriptors[index].isEmpty {
            try ImageRequestHandler.checkCancellation()
            let (bitmap, face) = try Self.alignmentRegion(of: faces[index].engineFace.face, searched: searched, handler: handler)
            descriptors[index] = try Self.describe([face], in: bitmap, engine: engine)[0]
        }
        return zip(faces, descriptors).map { FacePrintObservation(face: $0, descriptor: $1) }
    }

    /// The prints of the faces in an upright image.
    public func perform(on image: Image) throws(VisionError) -> [FacePrintObservation] {
        try perform(on: ImageRequestHandler(image))
    }

    static func describe(_ faces: [sepia_face], in bitmap: Bitmap, engine: FaceEngine) throws(VisionError) -> [[Float]] {
        guard !faces.isEmpty else { return [] }
        var values = [Float](repeating: 0, count: faces.count * Int(SEPIA_FACE_DESCRIPTOR_LENGTH))
        var error = [CChar](repeating: 0, count: 512)
        // In batches, so that a photo of many faces can be cancelled between them.
        for start in stride(from: 0, to: faces.count, by: 16) {
            try ImageRequestHandler.checkCancellation()
            let batch = Array(faces[start..<min(start + 16, faces.count)])
            let ok = try engine.withEngine { engine throws(VisionError) -> Int32 in
                bitmap.bytes.withUnsafeBufferPointer { pixels in
                    values.withUnsafeMutableBufferPointer { out in
                        sepia_face_describe(
                            engine, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), bitmap.bytesPerRow, batch,
                            Int32(batch.count), out.baseAddress! + start * Int(SEPIA_FACE_DESCRIPTOR_LENGTH), &error,
                            error.count)
                    }
                }
            }
            guard ok == 1 else { throw VisionError(.engineFailed, FaceEngine.string(error)) }
        }
        let length = Int(SEPIA_FACE_DESCRIPTOR_LENGTH)
        return faces.indices.map { Array(values[$0 * length..<($0 + 1) * length]) }
    }

    /// The image around `face` (found in `searched`), rendered where the face is about ``alignmentSize`` wide (at
    /// most the image's own resolution), and the face in its pixels.
    static func alignmentRegion(
        of face: sepia_face, searched: ImageRequestHandler.SearchedImage, handler: ImageRequestHandler
    ) throws(VisionError) -> (Bitmap, sepia_face) {
        let sourceWidth = max(Double(face.width) / searched.scale, 1)
        let scale = min(1, alignmentSize / sourceWidth)
        let image = scale < 1 ? handler.image.scaled(by: scale).movedToOrigin() : handler.image
        // Source pixels → rendered pixels.
        let factor = scale / searched.scale
        let centerX = (Double(face.x) + Double(face.width) / 2) * factor
        let centerY = (Double(face.y) + Double(face.height) / 2) * factor
        let side = Double(max(face.width, face.height)) * factor * 2.4
        let extent = image.extent
        let left = max(Int((centerX - side / 2).rounded(.down)), extent.minX)
        let top = max(Int((centerY - side / 2).rounded(.down)), extent.minY)
        let right = min(Int((centerX + side / 2).rounded(.up)), extent.maxX)
        let bottom = min(Int((centerY + side / 2).rounded(.up)), extent.maxY)
        let region = IntRect(x: left, y: top, width: max(right - left, 1), height: max(bottom - top, 1))
        let bitmap = try handler.render(image: image, region: region)
        var moved = face
        func move(_ value: Float, _ origin: Int) -> Float { Float(Double(value) * factor - Double(origin)) }
        moved.x = move(face.x, left)
        moved.y = move(face.y, top)
        moved.width = Float(Double(face.width) * factor)
        moved.height = Float(Double(face.height) * factor)
        withUnsafeMutableBytes(of: &moved.landmarks) { raw in
            let values = raw.bindMemory(to: Float.self)
            for i in 0..<5 {
                values[2 * i] = move(values[2 * i], left)
                values[2 * i + 1] = move(values[2 * i + 1], top)
            }
        }
        return (bitmap, moved)
    }
}
