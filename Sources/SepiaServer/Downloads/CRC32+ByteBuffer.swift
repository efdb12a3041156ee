import NIOCore
import SepiaCodecs

extension CRC32 {
    /// Adds the readable bytes of `buffer`.
    mutating func update(with buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { update(with: $0) }
    }
}
