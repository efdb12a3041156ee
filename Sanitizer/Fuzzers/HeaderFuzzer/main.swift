import FuzzerDriver
import SepiaCodecs

/// Feeds arbitrary bytes through format sniffing, every container and header parser (JPEG markers, PNG
/// chunks, RIFF/WebP, HEIF boxes through libheif), ICC parsing with Little CMS and the metadata readers.
/// Pixels are not decoded: the limits keep the fuzzer on the parsing code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = EncodedBytes(UnsafeBufferPointer(start: data, count: size))
    let options = DecodeOptions(maximumPixels: 4_000_000, maximumDimension: 4096, maximumFileBytes: 1 << 20)
    if let image = try? ImageDecoding.open(bytes, options: options) {
        _ = image.metadata
        _ = image.displaySize
        _ = image.details
        _ = image.colorSpace
    }
    return 0
}

runFuzzer(fuzz)
