import Foundation

/// Reads the fields Sepia uses from an EXIF (TIFF-structured) block: orientation, dates, camera, lens,
/// exposure and GPS.
///
/// The parser is written for hostile input: every read is bounds-checked, IFD loops and oversized counts are
/// refused, and a damaged entry only loses that field. It never throws; problems are listed in
/// ``EXIFFields/problems``.
public enum EXIFParser {
    /// Parses a TIFF-structured block (starting at `II*\0` or `MM\0*`). A leading `Exif\0\0` is skipped.
    public static func parse(_ bytes: [UInt8]) -> EXIFFields {
        var data = bytes[...]
        if data.starts(with: Array("Exif\0\0".utf8)) { data = data.dropFirst(6) }
        var reader = TIFFReader(bytes: Array(data))
        return reader.read()
    }
}

/// The EXIF fields Sepia reads. Absent or unreadable fields are nil.
public struct EXIFFields: Sendable, Hashable {
    /// The `Orientation` tag's raw value (1–8 are meaningful; other values mean upright).
    public var orientation: Int?
    /// `Make`.
    public var make: String?
    /// `Model`.
    public var model: String?
    /// `Software`.
    public var software: String?
    /// `DateTime` (last change), raw text.
    public var dateTime: String?
    /// `DateTimeOriginal`, raw text.
    public var dateTimeOriginal: String?
    /// `DateTimeDigitized`, raw text.
    public var dateTimeDigitized: String?
    /// `SubSecTimeOriginal`.
    public var subSecTimeOriginal: String?
    /// `OffsetTimeOriginal` (`+02:00`).
    public var offsetTimeOriginal: String?
    /// `OffsetTime`.
    public var offsetTime: String?
    /// `LensMake`.
    public var lensMake: String?
    /// `LensModel`.
    public var lensModel: String?
    /// `ExposureTime` in seconds.
    public var exposureTime: Double?
    /// `FNumber`.
    public var fNumber: Double?
    /// `PhotographicSensitivity` (ISO).
    public var iso: Int?
    /// `FocalLength` in millimetres.
    public var focalLength: Double?
    /// `PixelXDimension`.
    public var pixelWidth: Int?
    /// `PixelYDimension`.
    public var pixelHeight: Int?
    /// GPS latitude in degrees (signed by its reference).
    public var gpsLatitude: Double?
    /// GPS longitude in degrees (signed by its reference).
    public var gpsLongitude: Double?
    /// The content identifier in an Apple maker note (tag 0x0011): the identifier a Live Photo's still shares
    /// with its movie (the movie's `com.apple.quicktime.content.identifier`).
    public var appleContentIdentifier: String?
    /// GPS altitude in metres (signed by its reference).
    public var gpsAltitude: Double?
    /// GPS UTC date `YYYY:MM:DD`.
    public var gpsDateStamp: String?
    /// GPS UTC time of day in seconds.
    public var gpsTimeSeconds: Double?
    /// What could not be read.
    public var problems: [String] = []

    /// The capture date: `DateTimeOriginal` with its offset and sub-seconds, else `DateTimeDigitized`.
    public var captureDate: CaptureDate? {
        if let text = dateTimeOriginal,
            let date = CaptureDate.exif(text, subseconds: subSecTimeOriginal, offset: offsetTimeOriginal ?? offsetTime, origin: .exifOriginal)
        {
            return date
        }
        if let text = dateTimeDigitized, let date = CaptureDate.exif(text, offset: offsetTime, origin: .exifDigitized) {
            return date
        }
        return nil
    }

    /// `DateTime` (last modification), for use when nothing better exists.
    public var modificationDate: CaptureDate? {
        dateTime.flatMap { CaptureDate.exif($0, offset: offsetTime, origin: .exifModified) }
    }

    /// The GPS receiver's UTC timestamp.
    public var gpsDate: CaptureDate? {
        guard let stamp = gpsDateStamp, let seconds = gpsTimeSeconds, seconds >= 0, seconds < 86_401,
            var date = CaptureDate.exif(stamp, offset: "Z", origin: .gps)
        else { return nil }
        let whole = Int(seconds)
        date.hour = min(23, whole / 3600)
        date.minute = (whole % 3600) / 60
        date.second = whole % 60
        date.nanosecond = Int(((seconds - Double(whole)) * 1e9).rounded())
        if date.nanosecond >= 1_000_000_000 { date.nanosecond = 999_999_999 }
        return date
    }

    /// The GPS position, when both coordinates are present and valid.
    public var location: GPSLocation? {
        guard let lat = gpsLatitude, let lon = gpsLongitude else { return nil }
        return GPSLocation(latitude: lat, longitude: lon, altitude: gpsAltitude)
    }
}

/// A bounds-checked reader of TIFF IFDs.
private struct TIFFReader {
    let bytes: [UInt8]
    var littleEndian = true
    var fields = EXIFFields()
    var visited = Set<Int>()
    var entriesRead = 0

    static let maxEntries = 4096
    static let maxStringLength = 1024

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() -> EXIFFields {
        guard bytes.count >= 8 else {
            fields.problems.append("EXIF block too short (\(bytes.count) bytes)")
            return fields
        }
        if bytes[0] == 0x49 && bytes[1] == 0x49 {
            littleEndian = true
        } else if bytes[0] == 0x4D && bytes[1] == 0x4D {
            littleEndian = false
        } else {
            fields.problems.append("EXIF block has no TIFF byte-order mark")
            return fields
        }
        guard u16(2) == 42, let ifd0 = u32(4) else {
            fields.problems.append("EXIF block has a bad TIFF header")
            return fields
        }
        readIFD(at: Int(ifd0), kind: .primary)
        return fields
    }

    private enum IFDKind { case primary, exif, gps, appleMakerNote }

    private func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    private func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let b0 = UInt32(bytes[offset]), b1 = UInt32(bytes[offset + 1]), b2 = UInt32(bytes[offset + 2]), b3 = UInt32(bytes[offset + 3])
        return littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b0 << 24 | b1 << 16 | b2 << 8 | b3
    }

    private struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// Offset of the value bytes (inline or pointed to), already bounds-checked.
        let valueOffset: Int
    }

    private static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }

    private mutating func readIFD(at offset: Int, kind: IFDKind) {
        guard offset > 0, !visited.contains(offset) else {
            if offset > 0 { fields.problems.append("EXIF IFD loop at offset \(offset)") }
            return
        }
        visited.insert(offset)
        guard let countRaw = u16(offset) else {
            fields.problems.append("EXIF IFD offset \(offset) is outside the block")
            return
        }
        let count = Int(countRaw)
        guard offset + 2 + count * 12 <= bytes.count else {
            fields.problems.append("EXIF IFD at \(offset) with \(count) entries runs past the block")
            return
        }
        var subIFDs: [(Int, IFDKind)] = []
        for i in 0..<count {
            entriesRead += 1
            if entriesRead > Self.maxEntries {
                fields.problems.append("EXIF has more than \(Self.maxEntries) entries; the rest is ignored")
                return
            }
            let e = offset + 2 + i * 12
            guard let tag = u16(e), let type = u16(e + 2), let n = u32(e + 4), let size = Self.typeSize(type) else { continue }
            let total = Int(n).multipliedReportingOverflow(by: size)
            guard !total.overflow, total.partialValue <= bytes.count else { continue }
            let valueOffset: Int
            if total.partialValue <= 4 {
                valueOffset = e + 8
            } else {
                guard let pointer = u32(e + 8), Int(pointer) + total.partialValue <= bytes.count else {
                    fields.problems.append(String(format: "EXIF tag 0x%04X points outside the block", tag))
                    continue
                }
                valueOffset = Int(pointer)
            }
            let entry = Entry(tag: tag, type: type, count: Int(n), valueOffset: valueOffset)
            switch kind {
            case .primary:
                switch tag {
                case 0x010F: fields.make = string(entry)
                case 0x0110: fields.model = string(entry)
                case 0x0112: fields.orientation = integer(entry)
                case 0x0131: fields.software = string(entry)
                case 0x0132: fields.dateTime = string(entry)
                case 0x8769: if let p = integer(entry) { subIFDs.append((p, .exif)) }
                case 0x8825: if let p = integer(entry) { subIFDs.append((p, .gps)) }
                default: break
                }
            case .exif:
                switch tag {
                case 0x9003: fields.dateTimeOriginal = string(entry)
                case 0x9004: fields.dateTimeDigitized = string(entry)
                case 0x9010: fields.offsetTime = string(entry)
                case 0x9011: fields.offsetTimeOriginal = string(entry)
                case 0x9291: fields.subSecTimeOriginal = string(entry)
                case 0xA433: fields.lensMake = string(entry)
                case 0xA434: fields.lensModel = string(entry)
                case 0x829A: fields.exposureTime = rational(entry, index: 0)
                case 0x829D: fields.fNumber = rational(entry, index: 0)
                case 0x8827: fields.iso = integer(entry)
                case 0x920A: fields.focalLength = rational(entry, index: 0)
                case 0xA002: fields.pixelWidth = integer(entry)
                case 0xA003: fields.pixelHeight = integer(entry)
                case 0x927C: readAppleMakerNote(entry)
                default: break
                }
            case .gps:
                readGPS(entry)
            case .appleMakerNote:
                if tag == 0x0011, let identifier = string(entry), identifier.count <= 64,
                    identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                {
                    fields.appleContentIdentifier = identifier
                }
            }
        }
        for (pointer, subKind) in subIFDs {
            readIFD(at: pointer, kind: subKind)
        }
        if kind == .gps { finishGPS() }
    }

    /// Reads an Apple maker note: `Apple iOS\0`, a version, a byte-order mark, then an IFD whose offsets count
    /// from the note's first byte. Other makers' notes are left alone.
    private mutating func readAppleMakerNote(_ entry: Entry) {
        let start = entry.valueOffset
        let header = Array("Apple iOS\0".utf8)
        guard entry.count >= 16, start + entry.count <= bytes.count, Array(bytes[start..<(start + header.count)]) == header else { return }
        var note = TIFFReader(bytes: Array(bytes[start..<(start + entry.count)]))
        switch (note.bytes[12], note.bytes[13]) {
        case (0x4D, 0x4D): note.littleEndian = false
        case (0x49, 0x49): note.littleEndian = true
        default: return
        }
        note.entriesRead = entriesRead
        note.readIFD(at: 14, kind: .appleMakerNote)
        entriesRead = note.entriesRead
        fields.appleContentIdentifier = note.fields.appleContentIdentifier
        fields.problems += note.fields.problems.map { "Apple maker note: " + $0 }
    }

    private var latitudeRef: String?
    private var longitudeRef: String?
    private var altitudeRef: Int?
    private var rawLatitude: Double?
    private var rawLongitude: Double?
    private var rawAltitude: Double?

    private mutating func readGPS(_ entry: Entry) {
        switch entry.tag {
        case 0x0001: latitudeRef = string(entry)
        case 0x0002: rawLatitude = degrees(entry)
        case 0x0003: longitudeRef = string(entry)
        case 0x0004: rawLongitude = degrees(entry)
        case 0x0005: altitudeRef = integer(entry)
        case 0x0006: rawAltitude = rational(entry, index: 0)
        case 0x0007:
            if entry.count >= 3, let h = rational(entry, index: 0), let m = rational(entry, index: 1), let s = rational(entry, index: 2) {
                fields.gpsTimeSeconds = h * 3600 + m * 60 + s
            }
        case 0x001D: fields.gpsDateStamp = string(entry)
        default: break
        }
    }

    private mutating func finishGPS() {
        if let lat = rawLatitude {
            fields.gpsLatitude = latitudeRef?.uppercased().hasPrefix("S") == true ? -lat : lat
        }
        if let lon = rawLongitude {
            fields.gpsLongitude = longitudeRef?.uppercased().hasPrefix("W") == true ? -lon : lon
        }
        if let alt = rawAltitude {
            fields.gpsAltitude = altitudeRef == 1 ? -alt : alt
        }
    }

    private func degrees(_ entry: Entry) -> Double? {
        guard entry.count >= 1, let d = rational(entry, index: 0) else { return nil }
        let m = entry.count >= 2 ? rational(entry, index: 1) ?? 0 : 0
        let s = entry.count >= 3 ? rational(entry, index: 2) ?? 0 : 0
        let value = d + m / 60 + s / 3600
        return value.isFinite ? value : nil
    }

    private func string(_ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 7 || entry.type == 1 else { return nil }
        let length = min(entry.count, Self.maxStringLength)
        guard length > 0, entry.valueOffset + length <= bytes.count else { return nil }
        var raw = Array(bytes[entry.valueOffset..<(entry.valueOffset + length)])
        if let nul = raw.firstIndex(of: 0) { raw = Array(raw[..<nul]) }
        let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    private func integer(_ entry: Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case 1, 7: return entry.valueOffset < bytes.count ? Int(bytes[entry.valueOffset]) : nil
        case 3: return u16(entry.valueOffset).map(Int.init)
        case 8: return u16(entry.valueOffset).map { Int(Int16(bitPattern: $0)) }
        case 4: return u32(entry.valueOffset).map(Int.init)
        case 9: return u32(entry.valueOffset).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

    private func rational(_ entry: Entry, index: Int) -> Double? {
        guard index < entry.count else { return nil }
        switch entry.type {
        case 5, 10:
            let o = entry.valueOffset + index * 8
            guard let n = u32(o), let d = u32(o + 4), d != 0 else { return nil }
            if entry.type == 10 { return Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d)) }
            return Double(n) / Double(d)
        case 3, 4, 8, 9:
            return integer(entry).map(Double.init)
        default:
            return nil
        }
    }
}
