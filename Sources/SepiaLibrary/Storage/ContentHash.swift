import Crypto
import Foundation
import SepiaCodecs

/// SHA-256, as lowercase hex: the names of originals and renders, and how duplicates are found.
enum ContentHash {
    static func of(_ bytes: UnsafeRawBufferPointer) -> String {
        hex(SHA256.hash(data: bytes))
    }

    static func of(_ bytes: EncodedBytes) -> String {
        bytes.withUnsafeBytes { of($0) }
    }

    static func of(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { of($0) }
    }

    /// Hashes a file by streaming it in 1 MiB reads.
    static func ofFile(_ path: String) throws(LibraryError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .fileSystem("cannot open", path: path, errno: errno) }
        defer { close(fd) }
        var hasher = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress!, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw .fileSystem("cannot read", path: path, errno: errno)
            }
            if n == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return hex(hasher.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` looks like a hash this library writes.
    static func isValid(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
