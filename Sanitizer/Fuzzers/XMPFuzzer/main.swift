import FuzzerDriver
import SepiaXMP

/// Feeds arbitrary bytes to the XMP reader (the check before Exempi, Exempi's parse and the property readers), and
/// writes back what it read, merged into the same packet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reading = try? XMPPacket.read(bytes) else { return 0 }
    _ = reading.warnings.map(\.description)
    _ = reading.metadata.crop?.oriented(6)
    _ = try? XMPPacket.serialize(reading.metadata, merging: bytes)
    return 0
}

runFuzzer(fuzz)
