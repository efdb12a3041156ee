internal import CLibRaw
import Foundation
import SepiaCodecs

/// Where a RAW file's bytes are: a file LibRaw reads as it goes (the header, the preview, the sensor data when
/// developing; never the whole file at once), or bytes in memory.
enum RAWInput: Sendable {
    case file(String)
    case memory(EncodedBytes)
}

/// One LibRaw handle over a RAW file, closed when released. LibRaw's handles are not shared between threads:
/// each open source makes one for reading its header and one for each decode.
final class LibRawHandle {
    let raw: OpaquePointer
    /// The input LibRaw reads from; bytes in memory are kept alive as long as the handle.
    let input: RAWInput
    let file: String?

    init(input: RAWInput, options: RAWOptions, file: String?) throws(CodecError) {
        try Self.load(file: file)
        var code: Int32 = 0
        let limit = UInt32(clamping: options.maximumRawMegabytes)
        let opened: OpaquePointer?
        switch input {
        case .file(let path):
            opened = sepia_raw_open_file(path, limit, &code)
        case .memory(let bytes):
            opened = bytes.withUnsafeBytes { buffer in sepia_raw_open(buffer.baseAddress, buffer.count, limit, &code) }
        }
        guard let opened else { throw Self.error(code, file: file, stage: "reading its header") }
        raw = opened
        self.input = input
        self.file = file
    }

    deinit { sepia_raw_close(raw) }

    /// What identification found.
    /// The file's XMP packet (a DNG's tag 700), at most 4 MiB of it (an XMP reader refuses more); nil when it has
    /// none.
    var xmp: [UInt8]? {
        var length = 0
        guard let bytes = sepia_raw_xmp(raw, &length), length > 0, length <= 4 << 20 else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    var info: sepia_raw_info {
        var info = sepia_raw_info()
        sepia_raw_get_info(raw, &info)
        return info
    }

    /// LibRaw, loaded on first use; a clear error when it is not installed.
    static func load(file: String?) throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard sepia_raw_load(&reason, reason.count) == 1 else {
            let detail = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CodecError(
                .unsupportedFeature, format: .cameraRAW,
                "RAW files need LibRaw 0.20, which could not be loaded (\(detail)); install Debian's libraw20 package", file: file)
        }
    }

    /// A LibRaw error code as an error people can act on.
    static func error(_ code: Int32, file: String?, stage: String) -> CodecError {
        let library = String(cString: sepia_raw_strerror(code))
        switch code {
        case -2, -3:
            return CodecError(
                .unsupportedFormat, format: .cameraRAW,
                "LibRaw 0.20 does not read this file (\(library)): it is not a camera RAW file, or comes from a camera or format version this LibRaw does not know",
                file: file)
        case -100007, -100012, -100013:
            return CodecError(
                .tooManyPixels, format: .cameraRAW, "the RAW data is larger than the memory limit allows while \(stage) (\(library))", file: file)
        case -100009:
            return CodecError(
                .truncatedData, format: .cameraRAW, "the file ends before its RAW data does (found while \(stage)): it is incomplete or damaged",
                file: file)
        case -100008:
            return CodecError(.corruptData, format: .cameraRAW, "the RAW data is damaged (\(library)) while \(stage)", file: file)
        case -100010:
            return CodecError(.timedOut, format: .cameraRAW, "developing the RAW data took longer than the time limit allows", file: file)
        default:
            return CodecError(.corruptData, format: .cameraRAW, "LibRaw could not read the file while \(stage): \(library)", file: file)
        }
    }
}

extension sepia_raw_info {
    /// A fixed-size C string field as a Swift string, nil when empty.
    static func string<T>(_ field: T) -> String? {
        withUnsafeBytes(of: field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
    }
}
