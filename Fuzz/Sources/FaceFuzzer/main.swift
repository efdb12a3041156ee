import SepiaImage
import SepiaVision

/// Feeds arbitrary images to the face engine across its C boundary: the first two bytes are the width and height
/// (1…128), the rest the RGB pixels (repeated to fill the image). Each image is searched for faces, their landmarks
/// found and each face printed, at twice its size as a small photo is, so that dlib's detector, landmarks, alignment
/// and network all run on what the fuzzer makes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 3 else { return 0 }
    let width = Int(data[0]) % 128 + 1
    let height = Int(data[1]) % 128 + 1
    let pixels = UnsafeBufferPointer(start: data + 2, count: size - 2)
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for i in bytes.indices { bytes[i] = pixels[i % pixels.count] }
    let handler = ImageRequestHandler(Image(bitmap: Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)))
    do {
        let faces = try DetectFaceLandmarksRequest().perform(on: handler)
        let prints = try GenerateFacePrintRequest(faces).perform(on: handler)
        precondition(prints.count == faces.count && prints.allSatisfy { $0.descriptor.count == 128 })
        precondition(prints.allSatisfy { $0.descriptor.allSatisfy(\.isFinite) })
    } catch {
        // The models must be there: an error here is the engine's, on an image it should take.
        fatalError("the face engine failed on a \(width)×\(height) image: \(error)")
    }
    return 0
}
