public import Foundation

/// The capture date and place to write into a JPEG's EXIF (see ``EXIFWriter``).
public struct EXIFCaptureEdits: Sendable, Hashable {
    /// What to do with the capture date.
    public enum DateChange: Sendable, Hashable {
        /// Leave the file's date tags as they are.
        case keep
        /// Write `DateTimeOriginal` as the date's local time at `offset` seconds from GMT, and
        /// `OffsetTimeOriginal` when the offset is known (it is removed when not; the time is then UTC's).
        case set(Date, offset: Int?)
    }

    /// What to do with the GPS tags.
    public enum LocationChange: Sendable, Hashable {
        /// Leave them.
        case keep
        /// Replace them with this location, or remove them (nil).
        case set(GPSLocation?)
    }

    /// The date change.
    public var date: DateChange
    /// The location change.
    public var location: LocationChange

    /// Creates the edits; nothing changes by default.
    public init(date: DateChange = .keep, location: LocationChange = .keep) {
        self.date = date
        self.location = location
    }

    /// Whether the edits leave the file as it is.
    public var isEmpty: Bool { date == .keep && location == .keep }
}

/// Writes an edited capture date (`DateTimeOriginal`, `OffsetTimeOriginal`, `SubSecTimeOriginal`, and
/// `ExifVersion` 0232, which `OffsetTime*` needs) and GPS position into a JPEG's EXIF, keeping every other tag
/// and the pixels byte for byte.
///
/// The existing TIFF structure is not moved: new copies of IFD0, the EXIF IFD and the GPS IFD are appended to
/// it, with the changed values, and the header is pointed at the new IFD0. Entries whose values lie elsewhere
/// keep pointing at them, so maker notes (whose private offsets often count from the TIFF header) and the
/// embedded thumbnail stay readable. A JPEG without EXIF gets a new APP1 segment after its JFIF one.
public enum EXIFWriter {
    /// The JPEG with the edits applied.
    /// - Throws: ``CodecError`` when the bytes are not a JPEG, its EXIF is damaged, or the new EXIF would not
    ///   fit in one APP1 segment (64 KB).
    public static func applying(_ edits: EXIFCaptureEdits, toJPEG jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        guard !edits.isEmpty else { return jpeg }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw CodecError(.unrecognizedFormat, format: .jpeg, "only a JPEG's EXIF can be rewritten: the data does not start with SOI")
        }
        // Walk the segments before the image data, to find the EXIF APP1 and where a new one goes.
        var position = 2
        var insertAt = 2
        var exif: (start: Int, end: Int)?
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            if marker == 0xFF {
                position += 1
                continue
            }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= jpeg.count else {
                throw CodecError(.truncatedData, format: .jpeg, "a JPEG segment (marker 0x\(String(marker, radix: 16))) runs past the end")
            }
            let payload = position + 4
            if marker == 0xE1, exif == nil, end - payload >= 6, Array(jpeg[payload..<payload + 6]) == Array("Exif\0\0".utf8) {
                exif = (position, end)
            }
            if marker == 0xE0 && insertAt == position { insertAt = end }
            position = end
        }
        let tiff: [UInt8]
        if let exif {
            tiff = try rewrite(Array(jpeg[exif.start + 10..<exif.end]), edits)
        } else {
            tiff = try rewrite(emptyTIFF, edits)
        }
        let segmentLength = 2 + 6 + tiff.count
        guard segmentLength <= 0xFFFF else {
            throw CodecError(
                .limitExceeded, format: .jpeg,
                "the EXIF with the edited date and place would take \(segmentLength) bytes, more than one APP1 segment holds (65535)")
        }
        var segment: [UInt8] = [0xFF, 0xE1, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)]
        segment += Array("Exif\0\0".utf8) + tiff
        if let exif {
            return Array(jpeg[..<exif.start]) + segment + Array(jpeg[exif.end...])
        }
        return Array(jpeg[..<insertAt]) + segment + Array(jpeg[insertAt...])
    }

    // MARK: - TIFF

    /// A big-endian TIFF header with an empty IFD0.
    private static let emptyTIFF: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]

    private static let exifPointer: UInt16 = 0x8769
    private static let gpsPointer: UInt16 = 0x8825
    private static let exifVersion: UInt16 = 0x9000
    private static let dateTimeOriginal: UInt16 = 0x9003
    private static let offsetTimeOriginal: UInt16 = 0x9011
    private static let subSecTimeOriginal: UInt16 = 0x9291

    /// One IFD entry: its tag, and either its 12 bytes as they are (values elsewhere stay where they are) or a
    /// new value to append.
    private struct Entry {
        var tag: UInt16
        var raw: [UInt8]?
        var type: UInt16 = 0
        var count: UInt32 = 0
        var value: [UInt8] = []
    }

    private struct TIFF {
        var bytes: [UInt8]
        let bigEndian: Bool

        func u16(_ at: Int) throws(CodecError) -> UInt16 {
            guard at >= 0, at + 2 <= bytes.count else { throw damaged("an IFD runs past the end of the EXIF data") }
            return bigEndian ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
        }

        func u32(_ at: Int) throws(CodecError) -> UInt32 {
            guard at >= 0, at + 4 <= bytes.count else { throw damaged("an IFD runs past the end of the EXIF data") }
            let b = bytes[at..<at + 4].map(UInt32.init)
            return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        }

        func encode16(_ v: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }

        func encode32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }

        /// The entries of the IFD at `offset` (none for offset 0) and its next-IFD offset.
        func entries(at offset: UInt32) throws(CodecError) -> (entries: [Entry], next: UInt32) {
            guard offset != 0 else { return ([], 0) }
            let start = Int(offset)
            let count = Int(try u16(start))
            guard start + 2 + count * 12 + 4 <= bytes.count else { throw damaged("an IFD of \(count) entries runs past the end") }
            var entries: [Entry] = []
            for i in 0..<count {
                let at = start + 2 + i * 12
                entries.append(Entry(tag: try u16(at), raw: Array(bytes[at..<at + 12])))
            }
            return (entries, try u32(start + 2 + count * 12))
        }

        /// Appends an IFD (entries sorted by tag, new values after it) and returns its offset.
        mutating func append(_ entries: [Entry], next: UInt32) throws(CodecError) -> UInt32 {
            if bytes.count % 2 == 1 { bytes.append(0) }
            let start = bytes.count
            let sorted = entries.sorted { $0.tag < $1.tag }
            let data = start + 2 + sorted.count * 12 + 4
            var table = encode16(UInt16(sorted.count))
            var values: [UInt8] = []
            for entry in sorted {
                if let raw = entry.raw {
                    table += raw
                    continue
                }
                table += encode16(entry.tag) + encode16(entry.type) + encode32(entry.count)
                if entry.value.count <= 4 {
                    table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    table += encode32(UInt32(data + values.count))
                    values += entry.value
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            table += encode32(next)
            bytes += table + values
            guard bytes.count < 0xFFF0 else {
                throw CodecError(.limitExceeded, format: .jpeg, "the rewritten EXIF is larger than one APP1 segment holds")
            }
            return UInt32(start)
        }

        func damaged(_ reason: String) -> CodecError {
            CodecError(.damagedData, format: .jpeg, "the EXIF cannot be rewritten: \(reason)")
        }
    }

    private static func rewrite(_ data: [UInt8], _ edits: EXIFCaptureEdits) throws(CodecError) -> [UInt8] {
        guard data.count >= 8, (data[0] == 0x49 && data[1] == 0x49) || (data[0] == 0x4D && data[1] == 0x4D) else {
            throw CodecError(.damagedData, format: .jpeg, "the EXIF cannot be rewritten: its TIFF header has no byte order")
        }
        var tiff = TIFF(bytes: data, bigEndian: data[0] == 0x4D)
        let (ifd0, ifd1) = try tiff.entries(at: try tiff.u32(4))
        var top = ifd0
        let oldExif = top.first { $0.tag == exifPointer }.flatMap { $0.raw }
        var exifEntries: [Entry] = []
        var exifNext: UInt32 = 0
        if let oldExif {
            let offset = tiff.bigEndian ? Array(oldExif[8..<12]) : Array(oldExif[8..<12].reversed())
            let value = offset.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            (exifEntries, exifNext) = try tiff.entries(at: value)
        }
        if case .set(let date, let offset) = edits.date {
            let dateTags: Set<UInt16> = [dateTimeOriginal, offsetTimeOriginal, subSecTimeOriginal, exifVersion]
            exifEntries.removeAll { dateTags.contains($0.tag) }
            // OffsetTime* came with EXIF 2.31: say 2.32, which every earlier tag still means the same in.
            exifEntries.append(Entry(tag: exifVersion, type: 7, count: 4, value: Array("0232".utf8)))
            let local = date.addingTimeInterval(Double(offset ?? 0))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: local)
            let text = String(
                format: "%04d:%02d:%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            exifEntries.append(ascii(dateTimeOriginal, text))
            if let offset {
                let sign = offset < 0 ? "-" : "+"
                exifEntries.append(ascii(offsetTimeOriginal, String(format: "%@%02d:%02d", sign, abs(offset) / 3600, abs(offset) % 3600 / 60)))
            }
            let milliseconds = (c.nanosecond ?? 0) / 1_000_000
            if milliseconds > 0 { exifEntries.append(ascii(subSecTimeOriginal, String(format: "%03d", milliseconds))) }
        }
        if edits.date != .keep {
            top.removeAll { $0.tag == exifPointer }
            if !exifEntries.isEmpty {
                let offset = try tiff.append(exifEntries, next: exifNext)
                top.append(Entry(tag: exifPointer, type: 4, count: 1, value: tiff.encode32(offset)))
            }
        }
        if case .set(let location) = edits.location {
            top.removeAll { $0.tag == gpsPointer }
            if let location {
                let offset = try tiff.append(gpsEntries(location, tiff), next: 0)
                top.append(Entry(tag: gpsPointer, type: 4, count: 1, value: tiff.encode32(offset)))
            }
        }
        let newTop = try tiff.append(top, next: ifd1)
        let pointer = tiff.encode32(newTop)
        tiff.bytes.replaceSubrange(4..<8, with: pointer)
        return tiff.bytes
    }

    private static func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    private static func gpsEntries(_ location: GPSLocation, _ tiff: TIFF) -> [Entry] {
        func rational(_ numerator: UInt32, _ denominator: UInt32) -> [UInt8] {
            tiff.encode32(numerator) + tiff.encode32(denominator)
        }
        func degrees(_ value: Double) -> [UInt8] {
            let magnitude = abs(value)
            let whole = magnitude.rounded(.down)
            let minutes = ((magnitude - whole) * 60).rounded(.down)
            let seconds = ((magnitude - whole) * 60 - minutes) * 60
            return rational(UInt32(whole), 1) + rational(UInt32(minutes), 1) + rational(UInt32((seconds * 10_000).rounded()), 10_000)
        }
        var entries = [
            Entry(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0]),
            Entry(tag: 0x0001, type: 2, count: 2, value: Array((location.latitude < 0 ? "S" : "N").utf8) + [0]),
            Entry(tag: 0x0002, type: 5, count: 3, value: degrees(location.latitude)),
            Entry(tag: 0x0003, type: 2, count: 2, value: Array((location.longitude < 0 ? "W" : "E").utf8) + [0]),
            Entry(tag: 0x0004, type: 5, count: 3, value: degrees(location.longitude)),
        ]
        if let altitude = location.altitude {
            entries.append(Entry(tag: 0x0005, type: 1, count: 1, value: [altitude < 0 ? 1 : 0]))
            entries.append(Entry(tag: 0x0006, type: 5, count: 1, value: rational(UInt32((abs(altitude) * 100).rounded()), 100)))
        }
        return entries
    }
}
