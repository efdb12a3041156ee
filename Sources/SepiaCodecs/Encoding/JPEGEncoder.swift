internal import CJPEG
import SepiaImage

/// Streams rendered rows into libjpeg-turbo, so a full-resolution JPEG is encoded while it renders without
/// the whole image in memory. Writes no metadata (no EXIF, XMP or comments).
///
/// Sendable: the renderer calls a sink from one thread at a time.
final class JPEGRowSink: RowSink, @unchecked Sendable {
    private let options: EncodeOptions
    private var encoder: OpaquePointer?
    private(set) var output: [UInt8] = []

    init(options: EncodeOptions) {
        self.options = options
    }

    deinit {
        sepia_jpeg_encoder_destroy(encoder)
    }

    func begin(width: Int, height: Int, layout: Bitmap.Layout) throws {
        guard layout == .rgb || layout == .gray else {
            throw CodecError(.encodingFailed, format: .jpeg, "JPEG stores RGB or gray pixels, not \(layout)")
        }
        var message = [CChar](repeating: 0, count: 256)
        var handle: OpaquePointer?
        let status = sepia_jpeg_encoder_create(
            Int32(width), Int32(height), Int32(layout.channels), Int32(options.quality),
            Int32(options.effectiveSubsampling.rawValue), options.progressive ? 1 : 0, options.optimizeCoding ? 1 : 0,
            &handle, &message, message.count)
        guard status == SEPIA_JPEG_OK, let handle else { throw Self.error(message) }
        encoder = handle
    }

    func write(rows: [UInt8], rowCount: Int) throws {
        guard let encoder, rowCount > 0 else { return }
        var message = [CChar](repeating: 0, count: 256)
        let status = rows.withUnsafeBufferPointer { buffer in
            sepia_jpeg_encoder_write_rows(encoder, buffer.baseAddress, rows.count / rowCount, Int32(rowCount), &message, message.count)
        }
        guard status == SEPIA_JPEG_OK else { throw Self.error(message) }
    }

    func finish() throws {
        guard let encoder else { return }
        var message = [CChar](repeating: 0, count: 256)
        var data: UnsafePointer<UInt8>?
        var size = 0
        guard sepia_jpeg_encoder_finish(encoder, &data, &size, &message, message.count) == SEPIA_JPEG_OK, let data else {
            throw Self.error(message)
        }
        output = Array(UnsafeBufferPointer(start: data, count: size))
        sepia_jpeg_encoder_destroy(encoder)
        self.encoder = nil
    }

    private static func error(_ message: [CChar]) -> CodecError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CodecError(.encodingFailed, format: .jpeg, text)
    }
}
