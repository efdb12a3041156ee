import FuzzerDriver
import SepiaCodecs
import SepiaImage

/// One render context for every input.
let context = RenderContext(options: RenderOptions(threadCount: 1))

/// Feeds arbitrary bytes through whole decodes: the JPEG (libjpeg-turbo, progressive and scaled), PNG
/// (libpng), WebP (libwebp) and HEIF/AVIF (libheif) sources, then orientation and colour conversion to an
/// sRGB bitmap, in lenient and in strict mode. The pixel limit keeps each input small; every format is reached
/// through the same sniffing as real files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = EncodedBytes(UnsafeBufferPointer(start: data, count: size))
    // The last byte chooses strict or lenient mode, and a whole decode or a small thumbnail (which decodes
    // JPEG and WebP at a reduced scale), so that the fuzzer explores those paths too.
    let choice = size > 0 ? data[size - 1] : 0
    let options = DecodeOptions(maximumPixels: 1_000_000, maximumDimension: 4096, maximumFileBytes: 1 << 20, strict: choice & 1 == 1)
    guard let file = try? ImageDecoding.open(bytes, options: options) else { return 0 }
    let image = choice & 2 == 0 ? file.image : file.image.thumbnail(size: IntSize(width: 48, height: 48), mode: .aspectFit)
    _ = try? context.renderBitmapSynchronously(image)
    return 0
}

runFuzzer(fuzz)
