import Foundation

/// Writes files so that readers never see a partial file: the bytes go to a temporary file in the same
/// folder, are flushed to disk, and the temporary file is renamed over the destination.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically, creating or replacing it.
    public static func write(_ bytes: [UInt8], to path: String) throws(CodecError) {
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
            close(fd)
            throw CodecError(.fileSystem, "cannot write the output: \(String(cString: strerror(failure)))", file: path)
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
