import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@Suite struct MetadataTests {
    static let withEXIF = Corpus.entries.filter { entry in
        guard entry.expected == "DECODE", let exif = entry.exif else { return false }
        return exif["Make"] != nil || exif["EXIF:DateTimeOriginal"] != nil || exif["GPSLatitude"] != nil
    }

    @Test("camera, capture date and GPS match the manifest", arguments: withEXIF)
    func fields(entry: Corpus.Entry) throws {
        let file = try ImageDecoding.open(path: entry.path)
        let m = file.metadata
        let exif = entry.exif ?? [:]
        if let make = exif["Make"]?.string { #expect(m.cameraMake == make) }
        if let model = exif["Model"]?.string { #expect(m.cameraModel == model) }
        if let date = exif["EXIF:DateTimeOriginal"]?.string, date.first?.isNumber == true {
            let c = try #require(m.captureDate, "\(entry.file) has no capture date")
            let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
            #expect(text == date)
            #expect(c.origin == .exifOriginal)
        }
        switch exif["GPSLatitude"] {
        case .number(let lat)?:
            let location = try #require(m.location)
            #expect(abs(location.latitude - lat) < 1e-4)
            if let lon = exif["GPSLongitude"]?.number { #expect(abs(location.longitude - lon) < 1e-4) }
        case .string("")?:
            #expect(m.location == nil, "an empty GPS IFD means no location")
        default:
            break
        }
        if exif["Make"]?.string?.contains("<?php") == true {
            // Metadata is data: a script in a text field stays inert text, and a garbage date is no date.
            #expect(m.captureDate == nil)
        }
        if let orientation = exif["Orientation"]?.number, file.format != .heic, file.format != .avif {
            #expect(file.orientation == Orientation(exifValue: Int(orientation)))
        }
    }

    @Test("a date past 2038 is kept exactly")
    func year2038() throws {
        let date = try #require(try ImageDecoding.open(path: Corpus.path("photos/date-2038.jpg")).metadata.captureDate)
        #expect(date.description == "2038-05-05T01:29:24")
        #expect(date.date.timeIntervalSince1970 == 2_156_635_764)
    }

    @Test("dates fall back to XMP/IPTC and then to the GPS clock")
    func fallbacks() throws {
        let thompson = try #require(try ImageDecoding.open(path: Corpus.path("photos/iptc-date-offset.jpg")).metadata.captureDate)
        #expect(thompson.utcOffsetSeconds == -4 * 3600)
        #expect(thompson.hour == 15 && thompson.minute == 15 && thompson.second == 44)
        let gps = try #require(try ImageDecoding.open(path: Corpus.path("photos/gps-datetime.jpg")).metadata.captureDate)
        #expect(gps.origin == .gps)
        #expect(gps.description == "2023-11-15T12:30:00Z")
        #expect(try ImageDecoding.open(path: Corpus.path("photos/no-date.jpg")).metadata.captureDate == nil)
    }

    @Test("broken metadata fails soft", arguments: ["malformed/invalid-exif.jpg", "malformed/exif-ifd-offset.jpg", "malformed/empty_gps_ifd.jpg"])
    func failSoft(file: String) async throws {
        let image = try ImageDecoding.open(path: Corpus.path(file))
        #expect(image.metadata.location == nil)
        _ = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(image.image)
    }

    /// Found by fuzzing: libheif refuses the colour description's values after handing the description over,
    /// which leaked it (the sanitizer job checks for leaks).
    @Test("an invalid HEIF colour description (nclx) is a warning, and sRGB is assumed")
    func invalidNCLX() async throws {
        let path = Corpus.fixtures.appendingPathComponent("hostile/avif-nclx-invalid-primaries.avif").path
        let image = try ImageDecoding.open(path: path)
        #expect(image.metadata.warnings.contains { $0.contains("nclx") })
        #expect(image.metadata.colorProfile == nil)
        // The pixels decode or fail with a codec error; either way nothing leaks and nothing crashes.
        do {
            _ = try await RenderContext(options: RenderOptions(threadCount: 2)).renderBitmap(image.image)
        } catch let error as CodecError {
            #expect(!error.description.isEmpty)
        }
    }
}

@Suite struct EXIFParserTests {
    /// Builds a TIFF block: IFD0 with the given (tag, type, count, value bytes) entries.
    static func tiff(littleEndian: Bool, entries: [(UInt16, UInt16, UInt32, [UInt8])]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? b.reversed() : b
        }
        var out: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        out += u16(42) + u32(8)
        let dataStart = 8 + 2 + entries.count * 12 + 4
        var data: [UInt8] = []
        out += u16(UInt16(entries.count))
        for (tag, type, count, value) in entries {
            out += u16(tag) + u16(type) + u32(count)
            if value.count <= 4 {
                out += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                out += u32(UInt32(dataStart + data.count))
                data += value
            }
        }
        out += u32(0)
        return out + data
    }

    @Test("orientation, make and model in both byte orders", arguments: [true, false])
    func basics(littleEndian: Bool) {
        let orientation: [UInt8] = littleEndian ? [6, 0] : [0, 6]
        let block = Self.tiff(
            littleEndian: littleEndian,
            entries: [
                (0x010F, 2, 6, Array("Canon\0".utf8)), (0x0110, 2, 4, Array("EOS\0".utf8)), (0x0112, 3, 1, orientation),
            ])
        let fields = EXIFParser.parse(block)
        #expect(fields.make == "Canon")
        #expect(fields.model == "EOS")
        #expect(fields.orientation == 6)
        #expect(fields.problems.isEmpty)
    }

    /// A big-endian EXIF block whose Exif IFD holds `makerNote` as tag 0x927C.
    static func withMakerNote(_ makerNote: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var out: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        out += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)  // IFD0 at 8: the Exif IFD at 26
        out += u16(1) + u16(0x927C) + u16(7) + u32(makerNote.count) + u32(44) + u32(0)  // Exif IFD at 26: the note at 44
        return out + makerNote
    }

    /// An Apple maker note (`Apple iOS`, version 1, big-endian) with a content identifier (tag 0x0011).
    static func appleMakerNote(_ identifier: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let value = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + u16(1) + Array("MM".utf8)
        note += u16(2)
        note += u16(0x0001) + u16(9) + u32(1) + u32(14)  // MakerNoteVersion, inline
        note += u16(0x0011) + u16(2) + u32(value.count) + u32(14 + 2 + 2 * 12 + 4)  // offsets count from the note's start
        note += u32(0)
        return note + value
    }

    @Test("an Apple maker note's content identifier (what pairs a Live Photo's still with its movie) is read")
    func appleContentIdentifier() {
        let identifier = "2F1A6E0C-5B7D-4C8E-9A31-0D2E4F6A8B11"
        #expect(EXIFParser.parse(Self.withMakerNote(Self.appleMakerNote(identifier))).appleContentIdentifier == identifier)
        // Another maker's note, a cut note and a note whose identifier is not an identifier are left alone.
        #expect(EXIFParser.parse(Self.withMakerNote(Array("Nikon\0\u{2}\u{0}\0\0MM\0*\0\0\0\u{8}\0\0".utf8))).appleContentIdentifier == nil)
        #expect(EXIFParser.parse(Self.withMakerNote(Array(Self.appleMakerNote(identifier).prefix(30)))).appleContentIdentifier == nil)
        let strange = EXIFParser.parse(Self.withMakerNote(Self.appleMakerNote("<script>alert(1)</script>")))
        #expect(strange.appleContentIdentifier == nil)
        // Through a whole JPEG: the metadata carries it.
        let bitmap = Bitmap(width: 8, height: 8, layout: .rgb, bytes: [UInt8](repeating: 90, count: 8 * 8 * 3))
        let jpeg = try! ImageEncoding.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: 90))
        let exif = Array("Exif\0\0".utf8) + Self.withMakerNote(Self.appleMakerNote(identifier))
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        let withNote = Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))
        #expect(try! ImageDecoding.open(data: Data(withNote)).metadata.contentIdentifier == identifier)
    }

    @Test("offsets outside the block, loops and zero denominators lose only their field")
    func hostile() {
        var block = Self.tiff(
            littleEndian: true,
            entries: [
                (0x010F, 2, 200, [0xFF, 0xFF, 0, 0]),  // points far outside
                (0x8769, 4, 1, [8, 0, 0, 0]),  // Exif IFD pointing back at IFD0: a loop
                (0x0110, 2, 3, Array("ok\0".utf8)),
            ])
        let fields = EXIFParser.parse(block)
        #expect(fields.make == nil)
        #expect(fields.model == "ok")
        #expect(!fields.problems.isEmpty)
        block = Array(block.prefix(12))
        _ = EXIFParser.parse(block)
        _ = EXIFParser.parse([])
        _ = EXIFParser.parse(Array("Exif\0\0MM\0*".utf8))
    }

    @Test("random bytes never crash the parser")
    func noise() {
        var state: UInt64 = 42
        for length in stride(from: 0, to: 600, by: 7) {
            var bytes: [UInt8] = length % 2 == 0 ? [0x49, 0x49, 42, 0, 8, 0, 0, 0] : [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            _ = EXIFParser.parse(bytes)
        }
    }
}
