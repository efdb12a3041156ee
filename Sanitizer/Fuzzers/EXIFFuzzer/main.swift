import FuzzerDriver
import SepiaCodecs

/// Feeds arbitrary bytes to the EXIF (TIFF IFD) reader and the date parsing built on it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let fields = EXIFParser.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    _ = fields.captureDate
    _ = fields.gpsDate
    _ = fields.location
    _ = fields.modificationDate
    return 0
}

runFuzzer(fuzz)
