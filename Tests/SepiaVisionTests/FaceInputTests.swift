import CFaces
import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaVision

/// What the face requests do with hard input: photos turned by each EXIF orientation, many faces, no face, noise,
/// and models that are missing or damaged. Never a crash or a hang: faces, none, or an error that says what to do.
@Suite struct FaceInputTests {
    /// The stored pixels of each EXIF orientation for an upright photo: jpegtran's transform that stores it so
    /// that the orientation shows it upright again.
    static let storedTransforms: [(orientation: Int, jpegtran: [String])] = [
        (1, []), (2, ["-flip", "horizontal"]), (3, ["-rotate", "180"]), (4, ["-flip", "vertical"]), (5, ["-transpose"]),
        (6, ["-rotate", "270"]), (7, ["-transverse"]), (8, ["-rotate", "90"]),
    ]

    @Test("the same photo stored with each EXIF orientation gives the same face, upright, and the same print")
    func orientations() throws {
        let upright = try FaceSets.corpusPhoto("obama.jpg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-faces-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reference = try #require(try GenerateFacePrintRequest().perform(on: ImageRequestHandler(path: upright)).first)
        for (orientation, transform) in Self.storedTransforms {
            let path = "\(folder)/orientation-\(orientation).jpg"
            let jpegtran = try ExternalProgram.run("/usr/bin/jpegtran", ["-copy", "none", "-trim"] + transform + ["-outfile", path, upright])
            #expect(jpegtran.status == 0, "jpegtran: \(jpegtran.errors)")
            let exiftool = try ExternalProgram.run(
                "/usr/bin/exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=\(orientation)", path])
            #expect(exiftool.status == 0, "exiftool: \(exiftool.errors)")
            let prints = try GenerateFacePrintRequest().perform(on: ImageRequestHandler(path: path))
            #expect(prints.count == 1, "orientation \(orientation): \(prints.count) faces")
            guard let print = prints.first else { continue }
            let box = print.face.boundingBox
            let expected = reference.face.boundingBox
            #expect(abs(box.x + box.width / 2 - expected.x - expected.width / 2) < 0.03, "orientation \(orientation): \(box)")
            #expect(abs(box.y + box.height / 2 - expected.y - expected.height / 2) < 0.03, "orientation \(orientation): \(box)")
            #expect(print.distance(to: reference) < 0.25, "orientation \(orientation)")
        }
    }

    /// An RGB image of `width` × `height` made by `pixel`.
    static func image(width: Int, height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                bytes[(y * width + x) * 3] = r
                bytes[(y * width + x) * 3 + 1] = g
                bytes[(y * width + x) * 3 + 2] = b
            }
        }
        return Image(bitmap: Bitmap(width: width, height: height, layout: .rgb, bytes: bytes))
    }

    @Test("a photo of 200 faces gives 200 faces and 200 prints of one person, and the limit on faces holds")
    func twoHundredFaces() throws {
        let chip = try ImageDecoding.open(EncodedBytes.read(contentsOf: try FaceSets.johns()[0].photos[0], maximumBytes: 1 << 20))
        // Each face 100 pixels square, so that the mosaic is searched at twice its size as a small photo is.
        let face = try RenderContext().renderBitmapSynchronously(chip.image.resized(to: IntSize(width: 100, height: 100)), layout: .rgb)
        let columns = 20
        let rows = 10
        let mosaic = Self.image(width: face.width * columns, height: face.height * rows) { x, y in
            let offset = ((y % face.height) * face.width + x % face.width) * 3
            return (face.bytes[offset], face.bytes[offset + 1], face.bytes[offset + 2])
        }
        let handler = ImageRequestHandler(mosaic)
        let faces = try DetectFaceRectanglesRequest().perform(on: handler)
        #expect(faces.count == 200)
        var limited = DetectFaceRectanglesRequest()
        limited.maximumFaces = 50
        #expect(try limited.perform(on: handler).count == 50)
        let prints = try GenerateFacePrintRequest(faces).perform(on: handler)
        #expect(prints.count == 200)
        #expect(prints.allSatisfy { $0.distance(to: prints[0]) < FacePrintObservation.sameIdentityDistance })
    }

    @Test("no faces in a 1×1 image, a flat one, or 24 megapixels of noise, which is searched within the pixel budget")
    func noFaces() throws {
        #expect(try DetectFaceRectanglesRequest().perform(on: Self.image(width: 1, height: 1) { _, _ in (128, 128, 128) }).isEmpty)
        #expect(try GenerateFacePrintRequest().perform(on: Self.image(width: 640, height: 480) { _, _ in (200, 180, 160) }).isEmpty)
        var random = SystemRandomNumberGenerator()
        var noise = [UInt8](repeating: 0, count: 6000 * 4000 * 3)
        for i in stride(from: 0, to: noise.count, by: 8) {
            withUnsafeBytes(of: random.next() as UInt64) { bytes in
                for k in 0..<min(8, noise.count - i) { noise[i + k] = bytes[k] }
            }
        }
        let image = Image(bitmap: Bitmap(width: 6000, height: 4000, layout: .rgb, bytes: noise))
        #expect(try DetectFaceRectanglesRequest().perform(on: image).count <= 2)
    }

    @Test("missing models say which command installs them; a damaged model is refused, naming the file")
    func models() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-models-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = DetectFaceRectanglesRequest()
        request.models = FaceModels(directory: folder)
        let photo = try FaceSets.corpusPhoto("obama.jpg")
        let missing = #expect(throws: VisionError.self) { try request.perform(on: ImageRequestHandler(path: photo)) }
        #expect(missing?.code == .modelsMissing)
        #expect(missing?.message.contains("scripts/setup") == true)
        #expect(missing?.message.contains(FaceModels.landmarks.name) == true)

        // The installed models, one of them with one byte changed.
        let installed = FaceModels.default
        for file in [FaceModels.landmarks, FaceModels.descriptor] {
            try FileManager.default.copyItem(atPath: installed.path(of: file), toPath: request.models.path(of: file))
        }
        let damaged = request.models.path(of: FaceModels.descriptor)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let refused = #expect(throws: VisionError.self) { try request.perform(on: ImageRequestHandler(path: photo)) }
        #expect(refused?.code == .modelDamaged)
        #expect(refused?.message.contains(damaged) == true)
        // Truncated, too.
        try bytes.prefix(1000).write(to: URL(fileURLWithPath: damaged))
        let truncated = #expect(throws: VisionError.self) { try request.perform(on: ImageRequestHandler(path: photo)) }
        #expect(truncated?.code == .modelDamaged)
    }

    @Test("the engine refuses to align a face whose landmarks are not numbers or lie far outside the image")
    func untrustedFaces() throws {
        let engine = try FaceEngine.shared(models: .default)
        let bitmap = Bitmap(width: 64, height: 64, layout: .rgb, bytes: [UInt8](repeating: 90, count: 64 * 64 * 3))
        var faces: [sepia_face] = []
        for bad in [Float.nan, .infinity, -1e9, 1e9] {
            var face = sepia_face()
            face.x = 10
            face.y = 10
            face.width = 40
            face.height = 40
            withUnsafeMutableBytes(of: &face.landmarks) { raw in
                let values = raw.bindMemory(to: Float.self)
                for i in 0..<10 { values[i] = 30 }
                values[3] = bad
            }
            faces.append(face)
        }
        var zero = sepia_face()
        zero.x = 10
        faces.append(zero)  // no width
        for face in faces {
            var descriptor = [Float](repeating: 0, count: 128)
            var error = [CChar](repeating: 0, count: 512)
            let ok = try engine.withEngine { engine in
                bitmap.bytes.withUnsafeBufferPointer { pixels in
                    sepia_face_describe(engine, pixels.baseAddress, 64, 64, 64 * 3, [face], 1, &descriptor, &error, error.count)
                }
            }
            #expect(ok == 0)
            #expect(FaceEngine.string(error).contains("landmarks outside the image"))
        }
    }
}
