import FuzzerDriver
import SepiaCodecs
import SepiaImage
import SepiaRAW

/// One render context for every input.
let context = RenderContext(options: RenderOptions(threadCount: 1))

/// Feeds arbitrary bytes through PhotoDecoding as a file named `.dng` would be: camera RAW through LibRaw (the
/// header, the embedded preview, the half-size development), TIFF through libtiff, and the TIFF-structure test
/// that tells them apart; then a small thumbnail, in lenient and in strict mode. The pixel limit keeps each input
/// small.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = EncodedBytes(UnsafeBufferPointer(start: data, count: size))
    let choice = size > 0 ? data[size - 1] : 0
    let options = DecodeOptions(maximumPixels: 4_000_000, maximumDimension: 4096, maximumFileBytes: 4 << 20, strict: choice & 1 == 1)
    guard let file = try? PhotoDecoding.open(bytes, options: options, fileName: choice & 2 == 0 ? "fuzz.dng" : "fuzz.tif") else { return 0 }
    _ = try? context.renderBitmapSynchronously(file.image.thumbnail(size: IntSize(width: 48, height: 48), mode: .aspectFit))
    return 0
}

runFuzzer(fuzz)
