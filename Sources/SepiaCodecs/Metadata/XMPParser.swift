import Foundation

/// Pulls the few XMP properties Sepia uses out of an XMP packet, without an XML parser: dates
/// (`exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`, `exif:GPSTimeStamp`) and GPS
/// coordinates. Both attribute (`exif:X="…"`) and element (`<exif:X>…</exif:X>`) forms are read.
enum XMPParser {
    /// The largest packet examined; longer ones are cut (a defence against huge XMP).
    static let maximumLength = 1 << 20

    struct Fields: Sendable, Hashable {
        var captureDate: CaptureDate?
        var gpsDate: CaptureDate?
        var location: GPSLocation?
    }

    static func parse(_ bytes: [UInt8]) -> Fields {
        let text = String(decoding: bytes.prefix(maximumLength), as: UTF8.self)
        var fields = Fields()
        for key in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate", "exif:DateTimeDigitized"] {
            if let value = property(key, in: text), let date = CaptureDate.iso8601(value, origin: .xmp) {
                fields.captureDate = date
                break
            }
        }
        if let value = property("exif:GPSTimeStamp", in: text) {
            fields.gpsDate = CaptureDate.iso8601(value, origin: .gps)
        }
        if let lat = property("exif:GPSLatitude", in: text).flatMap(coordinate),
            let lon = property("exif:GPSLongitude", in: text).flatMap(coordinate)
        {
            fields.location = GPSLocation(latitude: lat, longitude: lon)
        }
        return fields
    }

    /// The value of `key` as an attribute or a simple element.
    static func property(_ key: String, in text: String) -> String? {
        if let range = text.range(of: key + "=\"") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { return String(rest[..<end]) }
        }
        if let range = text.range(of: key + "='") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "'") { return String(rest[..<end]) }
        }
        if let range = text.range(of: "<" + key + ">") {
            let rest = text[range.upperBound...]
            if let end = rest.range(of: "</" + key + ">") {
                return String(rest[..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// XMP GPS coordinates: `39,6.9N` (degrees, decimal minutes, hemisphere) or `39,6,54N`.
    static func coordinate(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        guard let hemisphere = t.last, "NSEW".contains(hemisphere) else { return Double(t) }
        t.removeLast()
        let parts = t.split(separator: ",").compactMap { Double($0) }
        guard !parts.isEmpty else { return nil }
        var value = parts[0]
        if parts.count > 1 { value += parts[1] / 60 }
        if parts.count > 2 { value += parts[2] / 3600 }
        return hemisphere == "S" || hemisphere == "W" ? -value : value
    }
}

/// Reads IPTC-IIM `DateCreated` (2:55) and `TimeCreated` (2:60) from a Photoshop image-resource block
/// (JPEG APP13).
enum IPTCParser {
    static func captureDate(fromPhotoshopResources bytes: [UInt8]) -> CaptureDate? {
        guard let iptc = iptcBlock(in: bytes) else { return nil }
        var date: String?
        var time: String?
        var i = 0
        while i + 5 <= iptc.count {
            guard iptc[i] == 0x1C else { break }
            let record = iptc[i + 1]
            let dataset = iptc[i + 2]
            let length = Int(iptc[i + 3]) << 8 | Int(iptc[i + 4])
            if length & 0x8000 != 0 { break }  // extended lengths are not used for dates
            let start = i + 5
            guard start + length <= iptc.count else { break }
            let value = String(decoding: iptc[start..<(start + length)], as: UTF8.self)
            if record == 2 && dataset == 55 { date = value }
            if record == 2 && dataset == 60 { time = value }
            i = start + length
        }
        guard let d = date, d.count == 8, let y = Int(d.prefix(4)), let mo = Int(d.dropFirst(4).prefix(2)), let day = Int(d.suffix(2))
        else { return nil }
        var h = 0, mi = 0, s = 0
        var offset: Int?
        if let t = time, t.count >= 6 {
            h = Int(t.prefix(2)) ?? 0
            mi = Int(t.dropFirst(2).prefix(2)) ?? 0
            s = Int(t.dropFirst(4).prefix(2)) ?? 0
            if t.count >= 11 { offset = CaptureDate.parseOffset(String(t.dropFirst(6))) }
        }
        return CaptureDate(year: y, month: mo, day: day, hour: h, minute: mi, second: s, utcOffsetSeconds: offset, origin: .iptc)
    }

    /// The IPTC payload of resource 0x0404 in a `Photoshop 3.0\0` block of `8BIM` resources.
    private static func iptcBlock(in bytes: [UInt8]) -> [UInt8]? {
        let signature = Array("Photoshop 3.0\0".utf8)
        var i = bytes.starts(with: signature) ? signature.count : 0
        while i + 12 <= bytes.count {
            guard bytes[i..<(i + 4)].elementsEqual("8BIM".utf8) else { return nil }
            let id = Int(bytes[i + 4]) << 8 | Int(bytes[i + 5])
            let nameLength = Int(bytes[i + 6])
            var p = i + 7 + nameLength
            if (nameLength + 1) % 2 == 1 { p += 1 }
            guard p + 4 <= bytes.count else { return nil }
            let size = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            let start = p + 4
            guard size >= 0, start + size <= bytes.count else { return nil }
            if id == 0x0404 { return Array(bytes[start..<(start + size)]) }
            i = start + size + (size % 2)
        }
        return nil
    }
}
