import Foundation
import NIOCore
import Testing

@testable import SepiaServer

#if canImport(Glibc)
import Glibc
#endif

/// The ZIP writer on its own, its archives read back by Python's `zipfile` and Info-ZIP's `unzip -t`.
@Suite("ZipStream")
struct ZipStreamTests {
    /// Bytes that differ from file to file.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    static let stamp = ZipTimestamp(Date(timeIntervalSince1970: 1_709_287_200), secondsFromGMT: 3600)  // 2024-03-01 10:00 UTC

    /// Writes `files` as an archive, passing each file's bytes in chunks of `chunk` bytes.
    static func archive(_ files: [(name: String, bytes: [UInt8])], limits: ZipStream.Limits = .format, chunk: Int = 65_536) throws -> Data {
        var zip = ZipStream(limits: limits)
        var out = Data()
        for file in files {
            out.append(
                contentsOf: zip.startEntry(ZipStream.Entry(name: file.name, size: UInt64(file.bytes.count), modified: stamp)).readableBytesView)
            var offset = 0
            while offset < file.bytes.count {
                let piece = ByteBuffer(bytes: file.bytes[offset..<min(file.bytes.count, offset + chunk)])
                try zip.update(with: piece)
                out.append(contentsOf: piece.readableBytesView)
                offset += piece.readableBytes
            }
            out.append(contentsOf: try zip.endEntry().readableBytesView)
        }
        out.append(contentsOf: zip.finish().readableBytesView)
        #expect(zip.offset == UInt64(out.count))
        return out
    }

    @Test("files of every size come back byte for byte, with their CRCs, UTF-8 names, dates and mode; the length is known beforehand")
    func roundTrip() async throws {
        // Given files across chunk boundaries, an empty one, and a name in UTF-8
        let files: [(name: String, bytes: [UInt8])] = [
            ("IMG_0001.JPG", Self.bytes(100_000, seed: 1)),
            ("empty.txt", []),
            ("Été à Paris 🌅.heic", Self.bytes(1_048_583, seed: 2)),
            ("IMG_0001 (2).JPG", Self.bytes(3, seed: 3)),
        ]
        // When they are written in chunks of 4 KiB and of 64 KiB
        for chunk in [4096, 65_536] {
            let data = try Self.archive(files, chunk: chunk)
            let predicted = ZipStream.length(
                of: files.map { ZipStream.Entry(name: $0.name, size: UInt64($0.bytes.count), modified: Self.stamp) })
            #expect(predicted == UInt64(data.count))
            // Then Python and unzip read them back as they were
            let archive = try await blocking { try ZipReader.read(data) }
            #expect(archive.firstBadEntry == nil)
            #expect(archive.unzipPassed != false)
            #expect(archive.entries.map(\.name) == files.map(\.name))
            for (entry, file) in zip(archive.entries, files) {
                #expect(entry.bytes == Data(file.bytes), "\(entry.name)")
                #expect(entry.size == UInt64(file.bytes.count))
                #expect(entry.method == 0, "stored")
                #expect(entry.flags & 0x0808 == 0x0808, "data descriptor and UTF-8 flags")
                #expect(entry.mode == 0o100644)
                #expect(entry.date == [2024, 3, 1, 11, 0, 0], "the wall-clock time where it was taken")
            }
        }
    }

    @Test("the predicted length is the written length, with the format's limits and with ZIP64 everywhere", arguments: [0, 1, 2, 7])
    func predictedLength(count: Int) throws {
        let files = (0..<count).map { (name: "file-\($0).bin", bytes: Self.bytes($0 * 1000 + 1, seed: UInt64($0))) }
        for limits in [ZipStream.Limits.format, ZipStream.Limits(entrySize: 0, offset: 0, entryCount: 0)] {
            let data = try Self.archive(files, limits: limits)
            let entries = files.map { ZipStream.Entry(name: $0.name, size: UInt64($0.bytes.count), modified: Self.stamp) }
            #expect(ZipStream.length(of: entries, limits: limits) == UInt64(data.count))
        }
    }

    @Test("past the thresholds, entries get ZIP64 sizes and offsets and the archive the ZIP64 end records, which readers follow")
    func zip64Records() async throws {
        // Given thresholds lowered so that small files cross them: sizes from 1000 bytes, offsets from 2000,
        // three entries or more
        let limits = ZipStream.Limits(entrySize: 1000, offset: 2000, entryCount: 3)
        let files = (0..<5).map { (name: "part-\($0).bin", bytes: Self.bytes($0 == 1 ? 10 : 1500, seed: UInt64(10 + $0))) }
        // When they are written
        let data = try Self.archive(files, limits: limits)
        // Then the records are there…
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        #expect(u32(0) == 0x0403_4B50)
        #expect(u16(4) == 45, "version needed for ZIP64")
        #expect(u32(18) == 0xFFFF_FFFF && u32(22) == 0xFFFF_FFFF, "sizes in the ZIP64 extra field")
        #expect(u16(30 + 10 + 0) == 0x0001, "the ZIP64 extra field comes first")
        let end = bytes.count - 22
        #expect(u32(end) == 0x0605_4B50)
        #expect(u16(end + 10) == 0xFFFF, "the entry count is in the ZIP64 record")
        #expect(u32(end - 20) == 0x0706_4B50, "the ZIP64 locator")
        #expect(u32(end - 20 - 56) == 0x0606_4B50, "the ZIP64 end record")
        // …and Python and unzip read every entry with its CRC
        let archive = try await blocking { try ZipReader.read(data) }
        #expect(archive.firstBadEntry == nil)
        #expect(archive.unzipPassed != false)
        #expect(archive.entries.map(\.name) == files.map(\.name))
        #expect(archive.entries.map(\.bytes) == files.map { Data($0.bytes) })
    }

    @Test("65 535 entries end with the ZIP64 end records")
    func manyEntries() async throws {
        var zip = ZipStream()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-many-\(UUID().uuidString).zip").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var pending = Data()
        for index in 0..<65_535 {
            pending.append(
                contentsOf: zip.startEntry(ZipStream.Entry(name: String(format: "f%05d", index), size: 0, modified: Self.stamp)).readableBytesView)
            pending.append(contentsOf: try zip.endEntry().readableBytesView)
        }
        pending.append(contentsOf: zip.finish().readableBytesView)
        handle.write(pending)
        try handle.close()
        let archive = try await blocking { try ZipReader.read(path: path, contents: false) }
        #expect(archive.entries.count == 65_535)
        #expect(archive.entries.last?.name == "f65534")
        #expect(archive.firstBadEntry == nil)
        #expect(archive.unzipPassed != false)
    }

    @Test("an entry of more than 4 GiB is written with ZIP64 sizes and read back whole (zeros, in a sparse file)")
    func entryPastFourGiB() async throws {
        // Given a file of 4 GiB + 3 bytes of zeros between two small ones, written to a sparse file: the zeros
        // are skipped over rather than written, and read back as zeros
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-large-\(UUID().uuidString).zip").path
        defer { unlink(path) }
        let size: UInt64 = 4 << 30 + 3
        let length = try await blocking { try Self.writeSparseArchive(at: path, largeEntrySize: size) }
        // Then the local header after the large entry starts past 4 GiB, and zipfile checks all three CRCs
        #expect(length > 4 << 30)
        let archive = try await blocking { try ZipReader.read(path: path, contents: false, unzip: false) }
        #expect(archive.entries.map(\.name) == ["before.bin", "large.bin", "after.bin"])
        #expect(archive.entries.map(\.size) == [1000, size, 1000])
        #expect(archive.firstBadEntry == nil)
    }

    /// Writes three entries, the middle one of `largeEntrySize` zeros that are skipped over in the file; returns
    /// the archive's length.
    static func writeSparseArchive(at path: String, largeEntrySize size: UInt64) throws -> UInt64 {
        let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        guard fd >= 0 else { throw ZipReader.Failure(description: "cannot create \(path)") }
        defer { close(fd) }
        func write(_ buffer: ByteBuffer) {
            buffer.withUnsafeReadableBytes { raw in _ = Glibc.write(fd, raw.baseAddress, raw.count) }
        }
        var zip = ZipStream()
        let small = ByteBuffer(bytes: Self.bytes(1000, seed: 7))
        write(zip.startEntry(ZipStream.Entry(name: "before.bin", size: 1000, modified: Self.stamp)))
        try zip.update(with: small)
        write(small)
        write(try zip.endEntry())
        write(zip.startEntry(ZipStream.Entry(name: "large.bin", size: size, modified: Self.stamp)))
        let zeros = ByteBuffer(repeating: 0, count: 8 << 20)
        var left = size
        while left > 0 {
            let piece = left >= UInt64(zeros.readableBytes) ? zeros : zeros.getSlice(at: 0, length: Int(left))!
            try zip.update(with: piece)
            lseek(fd, off_t(piece.readableBytes), SEEK_CUR)
            left -= UInt64(piece.readableBytes)
        }
        write(try zip.endEntry())
        write(zip.startEntry(ZipStream.Entry(name: "after.bin", size: 1000, modified: Self.stamp)))
        try zip.update(with: small)
        write(small)
        write(try zip.endEntry())
        write(zip.finish())
        return zip.offset
    }

    @Test("bytes that do not add up to the declared size are refused")
    func sizeMismatch() throws {
        var zip = ZipStream()
        _ = zip.startEntry(ZipStream.Entry(name: "a", size: 3, modified: Self.stamp))
        try zip.update(with: ByteBuffer(bytes: [1, 2]))
        #expect(throws: ZipStream.SizeMismatch.self) { try zip.endEntry() }
        var other = ZipStream()
        _ = other.startEntry(ZipStream.Entry(name: "b", size: 1, modified: Self.stamp))
        #expect(throws: ZipStream.SizeMismatch.self) { try other.update(with: ByteBuffer(bytes: [1, 2])) }
    }
}

@Suite("ZIP names and times")
struct ZipNamesTests {
    @Test("a taken name gets the next number, whatever its case; an item's files share theirs")
    func numbering() {
        var names = ZipNames()
        #expect(names.claim(["IMG_0001.JPG"], fallback: "x") == ["IMG_0001.JPG"])
        #expect(names.claim(["IMG_0001.JPG"], fallback: "x") == ["IMG_0001 (2).JPG"])
        #expect(names.claim(["img_0001.jpg"], fallback: "x") == ["img_0001 (3).jpg"])
        // A Live Photo whose movie's name is free still takes its still's number.
        #expect(names.claim(["IMG_0001.JPG", "IMG_0001.MOV"], fallback: "x") == ["IMG_0001 (4).JPG", "IMG_0001 (4).MOV"])
        #expect(names.claim(["IMG_0001.MOV"], fallback: "x") == ["IMG_0001.MOV"])
        // Two files of one item with the same name are told apart.
        #expect(names.claim(["", ""], fallback: "photo.jpg") == ["photo.jpg", "photo (2).jpg"])
        #expect(names.claim(["archive"], fallback: "x") == ["archive"])
        #expect(names.claim(["archive"], fallback: "x") == ["archive (2)"])
    }

    @Test("ten thousand photos of one name are numbered 2 to 10 000 quickly")
    func manyOfOneName() {
        var names = ZipNames()
        var last = ""
        for _ in 0..<10_000 { last = names.claim(["photo.jpg"], fallback: "x")[0] }
        #expect(last == "photo (10000).jpg")
    }

    @Test(
        "a name is never a path, nor hidden, nor refused by Windows",
        arguments: [
            ("../../etc/passwd", "etcpasswd"),
            ("a\\b/c.jpg", "abc.jpg"),
            ("..", "fallback.jpg"),
            (".hidden.jpg", "hidden.jpg"),
            ("a..b.jpg", "a.b.jpg"),
            ("what?:*.jpg", "what___.jpg"),
            ("  name.jpg. ", "name.jpg"),
            ("line\nbreak\u{7F}.jpg", "linebreak.jpg"),
            ("\u{202E}gpj.exe", "gpj.exe"),
            ("", "fallback.jpg"),
            ("Été à Paris.HEIC", "Été à Paris.HEIC"),
        ])
    func sanitized(name: String, expected: String) {
        let safe = ZipNames.sanitized(name, fallback: "fallback.jpg")
        #expect(safe == expected)
        #expect(!safe.contains("/") && !safe.contains("\\") && !safe.contains(".."))
    }

    @Test("a long name is cut to 240 bytes, its extension kept")
    func longName() {
        let safe = ZipNames.sanitized(String(repeating: "é", count: 200) + ".jpg", fallback: "x")
        #expect(safe.utf8.count <= ZipNames.maximumBytes)
        #expect(safe.hasSuffix("é.jpg"))
    }

    @Test("DOS fields: the wall-clock time where it was taken, to two seconds; clamped to 1980–2107")
    func dosFields() {
        // 2024-03-01 10:00:01 UTC, taken at UTC+1.
        let stamp = ZipTimestamp(Date(timeIntervalSince1970: 1_709_287_201), secondsFromGMT: 3600)
        #expect(stamp.dosDate == UInt16(2024 - 1980) << 9 | 3 << 5 | 1)
        #expect(stamp.dosTime == 11 << 11 | 0 << 5 | 0)
        #expect(stamp.unixTime == 1_709_287_201)
        // Taken just before midnight at UTC-5: the previous day, where it was taken.
        let evening = ZipTimestamp(Date(timeIntervalSince1970: 1_709_269_199), secondsFromGMT: -5 * 3600)
        #expect(evening.dosDate == UInt16(2024 - 1980) << 9 | 2 << 5 | 29)
        #expect(evening.dosTime == 23 << 11 | 59 << 5 | 29)
        let old = ZipTimestamp(Date(timeIntervalSince1970: -86_400 * 365))
        #expect(old.dosDate == 1 << 5 | 1 && old.dosTime == 0)
        #expect(old.unixTime == Int32(-31_536_000))
        let far = ZipTimestamp(Date(timeIntervalSince1970: 5_000_000_000))
        #expect(far.dosDate == 127 << 9 | 12 << 5 | 31)
        #expect(far.unixTime == nil, "past 2038: no 32-bit Unix time")
    }

    @Test("the civil date of a day count is the Gregorian calendar's (from 1583, where Foundation's stops being Julian)")
    func civilDates() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for day in stride(from: Int64(-140_000), through: 800_000, by: 997) {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let civil = ZipTimestamp.civil(fromDays: day)
            #expect(civil.year == Int64(parts.year!) && civil.month == parts.month! && civil.day == parts.day!, "day \(day)")
        }
    }
}
