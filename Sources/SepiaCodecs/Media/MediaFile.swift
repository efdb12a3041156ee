import Foundation

/// A file whose format was recognised from its first bytes: sniffed once, then handed to the ``MediaOpener``
/// that claims it, which opens it without sniffing again.
public struct MediaFile: Sendable {
    /// Where the file is.
    public let path: String
    /// Its format, recognised by content (``ImageFormat/identify(_:fileName:)``); nil when no format Sepia knows.
    public let format: ImageFormat?
    /// Its first bytes: 400, or, for a TIFF-structured file or one no signature names, up to ``longHeadBytes``
    /// (where a RAW file's IFDs say it is one).
    public let head: [UInt8]
    /// The file's size in bytes.
    public let byteCount: Int

    /// A file described by what was read of it.
    public init(path: String, format: ImageFormat?, head: [UInt8], byteCount: Int) {
        self.path = path
        self.format = format
        self.head = head
        self.byteCount = byteCount
    }

    /// How many first bytes a TIFF-structured file, or one no signature names, is judged on.
    public static let longHeadBytes = 512 << 10

    /// The file's extension, lower case, without the dot.
    public var fileExtension: String { (path as NSString).pathExtension.lowercased() }

    /// Reads the first bytes of the regular file at `path` and recognises its format.
    ///
    /// - Throws: ``CodecError`` `.fileSystem` when it cannot be read or is not a regular file, `.emptyInput` when
    ///   it is empty.
    public static func sniff(path: String) throws(CodecError) -> MediaFile {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        let head = read(fd, count: min(size, 400))
        return completed(fd: fd, path: path, head: head, sniffed: ImageFormat.sniff(head), byteCount: size)
    }

    /// The regular file at `path`, whose first bytes were read and sniffed already (`head`, of which
    /// ``ImageFormat/sniff(_:)`` said `sniffed`), as an upload's are while it arrives: recognised as
    /// ``sniff(path:)`` recognises it, without sniffing again. Only a TIFF-structured file, or one no signature
    /// names, is read further (its IFDs say whether it is a RAW file).
    ///
    /// - Throws: ``CodecError`` `.fileSystem` when the file must be read further and cannot be.
    public static func identify(path: String, head: [UInt8], sniffed: ImageFormat?, byteCount: Int) throws(CodecError) -> MediaFile {
        guard needsLongHead(sniffed), byteCount > head.count, head.count < longHeadBytes else {
            return MediaFile(
                path: path, format: ImageFormat.identify(EncodedBytes(head), sniffed: sniffed, fileName: path), head: head, byteCount: byteCount)
        }
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        return completed(fd: fd, path: path, head: head, sniffed: sniffed, byteCount: size)
    }

    /// Whether a file whose first bytes say `sniffed` is judged on its first ``longHeadBytes``: a TIFF, or a file
    /// the first bytes do not name.
    private static func needsLongHead(_ sniffed: ImageFormat?) -> Bool {
        sniffed == nil || sniffed == .tiff
    }

    /// The file open at `fd`, of `byteCount` bytes, whose first bytes `head` were sniffed as `sniffed`: its first
    /// ``longHeadBytes`` read when its format calls for them, and its format recognised.
    private static func completed(fd: Int32, path: String, head: [UInt8], sniffed: ImageFormat?, byteCount: Int) -> MediaFile {
        var head = head
        if needsLongHead(sniffed) && byteCount > head.count { head = read(fd, count: min(byteCount, longHeadBytes)) }
        let format = ImageFormat.identify(EncodedBytes(head), sniffed: sniffed, fileName: path)
        return MediaFile(path: path, format: format, head: head, byteCount: byteCount)
    }

    /// Opens the regular, non-empty file at `path` for reading; its descriptor and size.
    private static func openRegularFile(_ path: String) throws(CodecError) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw CodecError(.fileSystem, "cannot open the file: \(String(cString: strerror(errno)))", file: path) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CodecError(.fileSystem, "cannot read the file's size: \(reason)", file: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw CodecError(.fileSystem, status.st_mode & S_IFMT == S_IFDIR ? "is a folder, not a file" : "is not a regular file", file: path)
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            close(fd)
            throw CodecError(.emptyInput, "the file is empty (0 bytes)", file: path)
        }
        return (fd, size)
    }

    /// The first `count` bytes of `fd` (fewer if it ends first).
    private static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress.map { $0 + done }, count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }
}
