import Foundation

/// File operations that survive a crash at any instant: data is written to a temporary file, flushed to disk,
/// and renamed into place; the folder is flushed so the rename itself is durable. A reader sees the whole
/// file or none of it.
enum DurableFile {
    /// Writes `bytes` to `temporary`, flushes it, and renames it to `destination`, creating the destination's
    /// folder when needed. With `sync` false the data is not flushed (for derived files such as the cache).
    static func write(
        _ bytes: UnsafeRawBufferPointer, to destination: String, via temporary: String, sync: Bool = true
    ) throws(LibraryError) {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .fileSystem("cannot create a temporary file", path: temporary, errno: errno) }
        var moved = false
        defer { if !moved { unlink(temporary) } }
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                throw .fileSystem("cannot write", path: temporary, errno: e)
            }
            written += n
        }
        if sync && fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw .fileSystem("cannot flush to disk", path: temporary, errno: e)
        }
        close(fd)
        try moveIntoPlace(temporary, destination, sync: sync)
        moved = true
    }

    /// Writes an array of bytes; see ``write(_:to:via:sync:)``.
    static func write(_ bytes: [UInt8], to destination: String, via temporary: String, sync: Bool = true) throws(LibraryError) {
        var failure: LibraryError?
        bytes.withUnsafeBytes { raw in
            do throws(LibraryError) {
                try write(raw, to: destination, via: temporary, sync: sync)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Flushes `file` to disk.
    static func flush(_ file: String) throws(LibraryError) {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .fileSystem("cannot open", path: file, errno: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw .fileSystem("cannot flush to disk", path: file, errno: errno) }
    }

    /// Renames `source` to `destination` (same file system), creating the destination's folder, and flushes
    /// the folder.
    static func moveIntoPlace(_ source: String, _ destination: String, sync: Bool = true) throws(LibraryError) {
        let folder = (destination as NSString).deletingLastPathComponent
        if rename(source, destination) != 0 {
            guard errno == ENOENT else { throw .fileSystem("cannot move into place", path: destination, errno: errno) }
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw .fileSystem("cannot create the folder", path: folder, errno: errno)
            }
            if sync { flushFolder((folder as NSString).deletingLastPathComponent) }
            if rename(source, destination) != 0 {
                throw .fileSystem("cannot move into place", path: destination, errno: errno)
            }
        }
        if sync { flushFolder(folder) }
    }

    /// Flushes a folder's entries (a rename or an unlink in it) to disk. Best effort.
    static func flushFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// The size of a regular file, or nil when there is none.
    static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Removes a file; a missing file is not an error.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }
}
