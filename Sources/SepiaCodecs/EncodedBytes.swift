public import Foundation

/// The bytes of an encoded image, in memory that stays put for as long as decoders need it (libjpeg and
/// libheif read straight from it).
///
/// Sendable: immutable after creation.
public final class EncodedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    /// The number of bytes.
    public let count: Int

    /// Copies `bytes`: with one `memcpy` when they are contiguous (an array, a buffer), else byte by byte.
    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        base = .allocate(byteCount: max(1, count), alignment: 16)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            if let source = buffer.baseAddress { base.copyMemory(from: source, byteCount: buffer.count) }
        }
        guard copied == nil else { return }
        let typed = base.bindMemory(to: UInt8.self, capacity: max(1, count))
        var i = 0
        for b in bytes {
            typed[i] = b
            i += 1
        }
    }

    /// Copies `data`.
    public convenience init(data: Data) {
        self.init(count: data.count)
        data.withUnsafeBytes { src in
            if let s = src.baseAddress { base.copyMemory(from: s, byteCount: data.count) }
        }
    }

    private init(count: Int) {
        self.count = count
        base = .allocate(byteCount: max(1, count), alignment: 16)
    }

    /// Reads a whole file, refusing files larger than `maximumBytes` before reading them.
    public static func read(contentsOf path: String, maximumBytes: Int) throws(CodecError) -> EncodedBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw CodecError(.fileSystem, "cannot open the file: \(String(cString: strerror(errno)))", file: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CodecError(.fileSystem, "cannot read the file's size: \(String(cString: strerror(errno)))", file: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw CodecError(.fileSystem, "is a folder, not a file", file: path)
        }
        let size = Int(info.st_size)
        if size > maximumBytes {
            throw CodecError(.fileTooLarge, "the file has \(size) bytes, more than the limit of \(maximumBytes)", file: path)
        }
        let bytes = EncodedBytes(count: size)
        var done = 0
        while done < size {
            let n = Foundation.read(fd, bytes.base + done, size - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw CodecError(.fileSystem, "cannot read the file: \(String(cString: strerror(errno)))", file: path)
            }
            if n == 0 { break }
            done += n
        }
        if done != size {
            throw CodecError(.fileSystem, "the file changed size while it was read", file: path)
        }
        return bytes
    }

    deinit {
        base.deallocate()
    }

    /// Calls `body` with the bytes, which stay valid only for the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(buffer)
    }

    /// The bytes as a buffer.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of the first `n` bytes.
    func prefix(_ n: Int) -> [UInt8] {
        Array(buffer.prefix(n))
    }

    /// A copy of `range`, clipped to the available bytes.
    subscript(range: Range<Int>) -> [UInt8] {
        let r = max(0, range.lowerBound)..<min(count, range.upperBound)
        if r.isEmpty { return [] }
        return Array(buffer[r])
    }

    /// The byte at `i` (which must be in range).
    subscript(i: Int) -> UInt8 {
        buffer[i]
    }
}
