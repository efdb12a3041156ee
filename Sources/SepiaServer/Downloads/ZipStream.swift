import NIOCore
import SepiaCodecs

/// A ZIP archive written front to back, for an answer sent while its files are read: the caller writes what
/// ``startEntry(_:)`` returns, then an entry's bytes (passing each chunk to ``update(with:)``), then what
/// ``endEntry()`` returns, for each file, and finally what ``finish()`` returns. Nothing is ever rewritten, so
/// nothing is held back: the archive needs no temporary file and no memory beyond one small record per entry
/// (for the central directory at its end).
///
/// - Entries are *stored* (method 0): photos and videos are compressed already, and a stored entry takes its
///   file's size, so the archive's exact length follows from the files' sizes and names (``length(of:limits:)``),
///   before any byte is read.
/// - An entry's CRC-32 is computed as its bytes go by and follows them in a data descriptor (general purpose
///   bit 3); the local header leaves it at zero, as APPNOTE 4.4.4 says.
/// - Names are UTF-8 (bit 11). Times are the DOS fields and the `UT` extra field (``ZipTimestamp``). The
///   central directory marks the archive as made on Unix, with files readable by all (0644).
/// - ZIP64 (APPNOTE 4.5.3) where the classic fields overflow: an entry of 4 GiB or more has a ZIP64 extra field
///   in its local header (which makes its data descriptor's sizes 8 bytes) and in the central directory; an
///   entry whose local header starts at or past 4 GiB has its offset there; an archive of 65 535 entries or
///   more, or whose central directory starts past 4 GiB, ends with the ZIP64 end records. ``Limits``
///   moves those thresholds, so that tests reach the ZIP64 records with small files.
///
/// ```swift
/// var zip = ZipStream()
/// try await out.write(zip.startEntry(ZipStream.Entry(name: "IMG_0001.JPG", size: 3, modified: stamp)))
/// try zip.update(with: bytes)
/// try await out.write(bytes)
/// try await out.write(try zip.endEntry())
/// try await out.write(zip.finish())
/// ```
struct ZipStream {
    /// Where the classic fields stop and ZIP64 records take over.
    struct Limits: Sendable, Hashable {
        /// An entry this large or larger has ZIP64 sizes.
        var entrySize: UInt64
        /// A local header or a central directory starting here or later (or a directory this long) has ZIP64
        /// offsets.
        var offset: UInt64
        /// This many entries or more need the ZIP64 end records.
        var entryCount: Int

        /// The format's own limits: 0xFFFFFFFF and 0xFFFF are the classic fields' "see the ZIP64 record" marks,
        /// so a value equal to them counts as overflowing.
        static let format = Limits(entrySize: 0xFFFF_FFFF, offset: 0xFFFF_FFFF, entryCount: 0xFFFF)
    }

    /// One file of the archive, as known before its bytes are read.
    struct Entry: Sendable, Hashable {
        /// Its path in the archive: a plain file name here (``ZipNames`` makes them).
        var name: String
        /// Its length in bytes; the bytes passed to ``ZipStream/update(with:)`` must add up to it.
        var size: UInt64
        /// When it was last modified.
        var modified: ZipTimestamp
    }

    /// An entry whose bytes did not add up to its declared size.
    struct SizeMismatch: Error, CustomStringConvertible {
        var name: String
        var expected: UInt64
        var actual: UInt64

        var description: String {
            "the file '\(name)' has \(actual > expected ? "more" : "fewer") bytes than the \(expected) planned for it (\(actual)\(actual > expected ? " or more" : ""))"
        }
    }

    /// The thresholds in use.
    let limits: Limits
    /// The bytes written so far (the archive's length, once finished).
    private(set) var offset: UInt64 = 0
    /// What the central directory needs of each entry written.
    private var records: [Record] = []
    /// The entry being written, if any.
    private var current: (record: Record, zip64: Bool, crc: CRC32, count: UInt64)?

    private struct Record {
        var name: [UInt8]
        var size: UInt64
        var crc: UInt32
        var headerOffset: UInt64
        var modified: ZipTimestamp
    }

    /// An empty archive with the format's limits, or lower ones for tests.
    init(limits: Limits = .format) {
        self.limits = limits
    }

    /// The exact length of the archive holding `entries`, in this order: laid out as ``ZipStream`` writes it,
    /// without reading any file.
    /// - Complexity: O(n) in the number of entries and the length of their names.
    static func length(of entries: some Sequence<Entry>, limits: Limits = .format) -> UInt64 {
        var zip = ZipStream(limits: limits)
        for entry in entries {
            _ = zip.startEntry(entry)
            zip.skip(entry.size)
            _ = zip.descriptor()
        }
        _ = zip.finish()
        return zip.offset
    }

    // MARK: - Writing

    /// Begins an entry: its local header, to be written before its bytes.
    mutating func startEntry(_ entry: Entry) -> ByteBuffer {
        precondition(current == nil, "ZipStream.startEntry: the previous entry was not ended")
        let name = Array(entry.name.utf8.prefix(0xFFFF))
        let zip64 = entry.size >= limits.entrySize
        let record = Record(name: name, size: entry.size, crc: 0, headerOffset: offset, modified: entry.modified)
        var extra = ByteBuffer()
        if zip64 {
            // Sizes unknown in the local header (bit 3): zero here, in the data descriptor after the bytes.
            extra.writeInteger(UInt16(0x0001), endianness: .little)
            extra.writeInteger(UInt16(16), endianness: .little)
            extra.writeInteger(UInt64(0), endianness: .little)
            extra.writeInteger(UInt64(0), endianness: .little)
        }
        Self.writeTimestampField(entry.modified, to: &extra)
        var header = ByteBuffer()
        header.reserveCapacity(30 + name.count + extra.readableBytes)
        header.writeInteger(UInt32(0x0403_4B50), endianness: .little)
        header.writeInteger(UInt16(zip64 ? 45 : 20), endianness: .little)
        header.writeInteger(Self.flags, endianness: .little)
        header.writeInteger(UInt16(0), endianness: .little)  // stored
        header.writeInteger(entry.modified.dosTime, endianness: .little)
        header.writeInteger(entry.modified.dosDate, endianness: .little)
        header.writeInteger(UInt32(0), endianness: .little)  // CRC-32: in the data descriptor
        header.writeInteger(zip64 ? UInt32.max : 0, endianness: .little)  // compressed size
        header.writeInteger(zip64 ? UInt32.max : 0, endianness: .little)  // uncompressed size
        header.writeInteger(UInt16(name.count), endianness: .little)
        header.writeInteger(UInt16(extra.readableBytes), endianness: .little)
        header.writeBytes(name)
        header.writeImmutableBuffer(extra)
        offset += UInt64(header.readableBytes)
        current = (record, zip64, CRC32(), 0)
        return header
    }

    /// Takes the next bytes of the current entry into its CRC and length; the caller writes them. Throws when
    /// they run past the entry's declared size.
    mutating func update(with chunk: ByteBuffer) throws(SizeMismatch) {
        guard var entry = current else { preconditionFailure("ZipStream.update: no entry was started") }
        entry.count += UInt64(chunk.readableBytes)
        if entry.count > entry.record.size {
            throw SizeMismatch(name: String(decoding: entry.record.name, as: UTF8.self), expected: entry.record.size, actual: entry.count)
        }
        entry.crc.update(with: chunk)
        offset += UInt64(chunk.readableBytes)
        current = entry
    }

    /// Ends the current entry: its data descriptor, to be written after its bytes. Throws when fewer bytes came
    /// than its declared size.
    mutating func endEntry() throws(SizeMismatch) -> ByteBuffer {
        guard let entry = current else { preconditionFailure("ZipStream.endEntry: no entry was started") }
        guard entry.count == entry.record.size else {
            throw SizeMismatch(name: String(decoding: entry.record.name, as: UTF8.self), expected: entry.record.size, actual: entry.count)
        }
        return descriptor()
    }

    /// The end of the archive: the central directory and the end records. Nothing may be written after it.
    mutating func finish() -> ByteBuffer {
        precondition(current == nil, "ZipStream.finish: the last entry was not ended")
        let directoryStart = offset
        var out = ByteBuffer()
        out.reserveCapacity(records.reduce(0) { $0 + 46 + $1.name.count + 37 } + 98)
        for record in records { writeCentralRecord(record, to: &out) }
        let directorySize = UInt64(out.readableBytes)
        let count = records.count
        let needsZip64 = count >= limits.entryCount || directoryStart >= limits.offset || directorySize >= limits.offset
        if needsZip64 {
            let recordStart = directoryStart + directorySize
            out.writeInteger(UInt32(0x0606_4B50), endianness: .little)
            out.writeInteger(UInt64(44), endianness: .little)  // the record's size after this field
            out.writeInteger(Self.madeBy, endianness: .little)
            out.writeInteger(UInt16(45), endianness: .little)
            out.writeInteger(UInt32(0), endianness: .little)  // this disk
            out.writeInteger(UInt32(0), endianness: .little)  // the disk the directory starts on
            out.writeInteger(UInt64(count), endianness: .little)
            out.writeInteger(UInt64(count), endianness: .little)
            out.writeInteger(directorySize, endianness: .little)
            out.writeInteger(directoryStart, endianness: .little)
            // The locator: where the record above starts.
            out.writeInteger(UInt32(0x0706_4B50), endianness: .little)
            out.writeInteger(UInt32(0), endianness: .little)
            out.writeInteger(recordStart, endianness: .little)
            out.writeInteger(UInt32(1), endianness: .little)  // disks in all
        }
        let classicCount = count >= limits.entryCount ? UInt16.max : UInt16(count)
        out.writeInteger(UInt32(0x0605_4B50), endianness: .little)
        out.writeInteger(UInt16(0), endianness: .little)
        out.writeInteger(UInt16(0), endianness: .little)
        out.writeInteger(classicCount, endianness: .little)
        out.writeInteger(classicCount, endianness: .little)
        out.writeInteger(directorySize >= limits.offset ? UInt32.max : UInt32(directorySize), endianness: .little)
        out.writeInteger(directoryStart >= limits.offset ? UInt32.max : UInt32(directoryStart), endianness: .little)
        out.writeInteger(UInt16(0), endianness: .little)  // no comment
        offset += UInt64(out.readableBytes)
        records = []
        return out
    }

    // MARK: - Layout

    /// Data descriptor present, names in UTF-8.
    private static let flags: UInt16 = 1 << 3 | 1 << 11
    /// Made on Unix (its attributes are a Unix mode), by a writer of APPNOTE 4.5.
    private static let madeBy: UInt16 = 3 << 8 | 45
    /// A regular file readable by all, writable by its owner, as a Unix mode in the high half.
    private static let externalAttributes = UInt32(0o100644) << 16

    /// Counts `count` bytes of the current entry without seeing them (``length(of:limits:)``).
    private mutating func skip(_ count: UInt64) {
        guard var entry = current else { preconditionFailure("ZipStream.skip: no entry was started") }
        entry.count += count
        offset += count
        current = entry
    }

    /// Ends the current entry, whatever its count: its data descriptor.
    private mutating func descriptor() -> ByteBuffer {
        guard let entry = current else { preconditionFailure("ZipStream.descriptor: no entry was started") }
        var record = entry.record
        record.crc = entry.crc.value
        var out = ByteBuffer()
        out.writeInteger(UInt32(0x0807_4B50), endianness: .little)
        out.writeInteger(record.crc, endianness: .little)
        if entry.zip64 {
            out.writeInteger(record.size, endianness: .little)
            out.writeInteger(record.size, endianness: .little)
        } else {
            out.writeInteger(UInt32(record.size), endianness: .little)
            out.writeInteger(UInt32(record.size), endianness: .little)
        }
        offset += UInt64(out.readableBytes)
        records.append(record)
        current = nil
        return out
    }

    private func writeCentralRecord(_ record: Record, to out: inout ByteBuffer) {
        let bigSize = record.size >= limits.entrySize
        let bigOffset = record.headerOffset >= limits.offset
        var extra = ByteBuffer()
        if bigSize || bigOffset {
            // Only the fields whose classic value is 0xFFFFFFFF, in this order (APPNOTE 4.5.3).
            extra.writeInteger(UInt16(0x0001), endianness: .little)
            extra.writeInteger(UInt16((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)), endianness: .little)
            if bigSize {
                extra.writeInteger(record.size, endianness: .little)  // uncompressed
                extra.writeInteger(record.size, endianness: .little)  // compressed
            }
            if bigOffset { extra.writeInteger(record.headerOffset, endianness: .little) }
        }
        Self.writeTimestampField(record.modified, to: &extra)
        let size = bigSize ? UInt32.max : UInt32(record.size)
        out.writeInteger(UInt32(0x0201_4B50), endianness: .little)
        out.writeInteger(Self.madeBy, endianness: .little)
        out.writeInteger(UInt16(bigSize || bigOffset ? 45 : 20), endianness: .little)
        out.writeInteger(Self.flags, endianness: .little)
        out.writeInteger(UInt16(0), endianness: .little)
        out.writeInteger(record.modified.dosTime, endianness: .little)
        out.writeInteger(record.modified.dosDate, endianness: .little)
        out.writeInteger(record.crc, endianness: .little)
        out.writeInteger(size, endianness: .little)
        out.writeInteger(size, endianness: .little)
        out.writeInteger(UInt16(record.name.count), endianness: .little)
        out.writeInteger(UInt16(extra.readableBytes), endianness: .little)
        out.writeInteger(UInt16(0), endianness: .little)  // no comment
        out.writeInteger(UInt16(0), endianness: .little)  // disk
        out.writeInteger(UInt16(0), endianness: .little)  // internal attributes
        out.writeInteger(Self.externalAttributes, endianness: .little)
        out.writeInteger(bigOffset ? UInt32.max : UInt32(record.headerOffset), endianness: .little)
        out.writeBytes(record.name)
        out.writeImmutableBuffer(extra)
    }

    /// The extended-timestamp field with the modification time only, the same in the local header and the
    /// central directory.
    private static func writeTimestampField(_ time: ZipTimestamp, to extra: inout ByteBuffer) {
        guard let unix = time.unixTime else { return }
        extra.writeInteger(UInt16(0x5455), endianness: .little)
        extra.writeInteger(UInt16(5), endianness: .little)
        extra.writeInteger(UInt8(1), endianness: .little)  // modification time present
        extra.writeInteger(unix, endianness: .little)
    }
}
