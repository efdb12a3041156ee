import Foundation

/// Writes files so that readers never see a partial file: the bytes go to a temporary file in the same
/// folder, are flushed to disk, and the temporary file is renamed over the destination.
public enum AtomicFile {
    /// Copies the file at `source` to `path` atomically, a megabyte at a time (a video of gigabytes is never
    /// held in memory), creating or replacing it.
    public static func copy(from source: String, to path: String) throws(CodecError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw CodecError(.fileSystem, "cannot read \(source): \(String(cString: strerror(errno)))", file: path)
        }
        defer { close(input) }
        try write(to: path) { (fd) throws(CodecError) in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let n = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CodecError(.fileSystem, "cannot read \(source): \(String(cString: strerror(errno)))", file: path)
                }
                if n == 0 { return }
                try writeAll(buffer[0..<n], to: fd, path: path)
            }
        }
    }

    /// Writes `bytes` to `path` atomically, creating or replacing it.
    public static func write(_ bytes: [UInt8], to path: String) throws(CodecError) {
        try write(to: path) { (fd) throws(CodecError) in try writeAll(bytes[...], to: fd, path: path) }
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32, path: String) throws(CodecError) {
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            while written < raw.count {
                let n = Foundation.write(fd, base + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return nil
        }
        if let failure {
            throw CodecError(.fileSystem, "cannot write the output: \(String(cString: strerror(failure)))", file: path)
        }
    }

    /// Runs `fill` on a new temporary file beside `path`, flushes it and renames it over `path`.
    private static func write(to path: String, _ fill: (Int32) throws(CodecError) -> Void) throws(CodecError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CodecError(.fileSystem, "cannot create the output: \(String(cString: strerror(errno)))", file: path)
        }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            try fill(fd)
        } catch {
            close(fd)
            throw error
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw CodecError(.fileSystem, "cannot flush the output to disk: \(String(cString: strerror(e)))", file: path)
        }
        close(fd)
        if rename(temporary, path) != 0 {
            throw CodecError(.fileSystem, "cannot move the output into place: \(String(cString: strerror(errno)))", file: path)
        }
        ok = true
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }
}
