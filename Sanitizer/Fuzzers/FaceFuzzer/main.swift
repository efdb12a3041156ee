import FuzzerDriver
import SepiaImage
import SepiaVision

/// Loads the models before the first input, with a search of a small grey image: loading them is not what is
/// fuzzed, and under the sanitizer it can take longer than the time one input is allowed (`-timeout`).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let grey = ImageRequestHandler(Image(bitmap: Bitmap(width: 8, height: 8, layout: .rgb, bytes: [UInt8](repeating: 128, count: 192))))
    do {
        _ = try DetectFaceLandmarksRequest().perform(on: grey)
    } catch {
        fatalError("the face models could not be loaded: \(error)")
    }
    return 0
}

/// Feeds arbitrary images to the face engine across its C boundary: the first two bytes are the width and height
/// (1…128), the rest the RGB pixels (repeated to fill the image). Each image is searched for faces, their landmarks
/// found and the surest two printed, at twice its size as a small photo is, so that dlib's detector, landmarks,
/// alignment and network all run on what the fuzzer makes.
///
/// Two faces, not all of them: each face's print is the same network over a chip of the same size, so a third adds no
/// code to what is fuzzed, but it adds time, and libFuzzer counts a loop's turns as new coverage. Left to find every
/// face, it kept the images with more of them, until one took 11 s, longer than the limit per input, on a loaded
/// machine. The limit itself (more faces found than returned) is then fuzzed too.
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
        var landmarks = DetectFaceLandmarksRequest()
        landmarks.detection.maximumFaces = 2
        let faces = try landmarks.perform(on: handler)
        let prints = try GenerateFacePrintRequest(faces).perform(on: handler)
        precondition(faces.count <= 2 && prints.count == faces.count && prints.allSatisfy { $0.descriptor.count == 128 })
        precondition(prints.allSatisfy { $0.descriptor.allSatisfy(\.isFinite) })
    } catch {
        // The models must be there: an error here is the engine's, on an image it should take.
        fatalError("the face engine failed on a \(width)×\(height) image: \(error)")
    }
    return 0
}

runFuzzer(fuzz)
