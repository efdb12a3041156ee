import Foundation
import SepiaCodecs

/// The first bytes of a RAW file: enough for its signature, its TIFF structure and its EXIF, which cameras write
/// near the start, without reading the sensor data.
struct RAWHead {
    /// How many bytes are read.
    static let length = 512 << 10

    let bytes: [UInt8]
    /// The whole file's size.
    let fileBytes: Int

    /// Reads the first `length` bytes of `path`, refusing a file over `maximumFileBytes` before reading it.
    static func read(path: String, maximumFileBytes: Int, length: Int = length) throws(CodecError) -> RAWHead {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CodecError(.fileSystem, "cannot open the file: \(String(cString: strerror(errno)))", file: path)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw CodecError(.fileSystem, "not a regular file", file: path)
        }
        let size = Int(status.st_size)
        guard size <= maximumFileBytes else {
            throw CodecError(.fileTooLarge, "the file has \(size) bytes, more than the limit of \(maximumFileBytes)", file: path)
        }
        var bytes = [UInt8](repeating: 0, count: min(size, length))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return RAWHead(bytes: Array(bytes.prefix(done)), fileBytes: size)
    }
}
