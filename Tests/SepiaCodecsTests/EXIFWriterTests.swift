import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// The EXIF writer, read back by Sepia's own parser (the CLI tests read exports with exiftool as well).
@Suite struct EXIFWriterTests {
    static func jpeg() throws -> [UInt8] {
        let bytes = (0..<(32 * 24 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        return try ImageEncoding.encode(Bitmap(width: 32, height: 24, layout: .rgb, bytes: bytes), as: .jpeg)
    }

    @Test("a JPEG without EXIF gets one with the date, its zone and the place; the image data is unchanged")
    func newEXIF() throws {
        // Given a JPEG with no EXIF
        let original = try Self.jpeg()
        let date = ISO8601DateFormatter().date(from: "2019-07-14T21:30:05Z")!
        let place = GPSLocation(latitude: -33.8568, longitude: 151.2153, altitude: -12.5)!
        // When a date at +02:00 and a place are written
        let written = try EXIFWriter.applying(EXIFCaptureEdits(date: .set(date, offset: 7200), location: .set(place)), toJPEG: original)
        // Then the parser reads them back, as the local time with its offset
        let metadata = try ImageDecoding.open(EncodedBytes(written)).metadata
        let capture = try #require(metadata.captureDate)
        #expect((capture.year, capture.month, capture.day, capture.hour, capture.minute, capture.second) == (2019, 7, 14, 23, 30, 5))
        #expect(capture.utcOffsetSeconds == 7200 && capture.date == date)
        let location = try #require(metadata.location)
        #expect(abs(location.latitude - place.latitude) < 1e-6 && abs(location.longitude - place.longitude) < 1e-6)
        #expect(abs((location.altitude ?? 0) - -12.5) < 1e-6)
        // And the new segment follows the JFIF one; everything else is the original's, byte for byte
        let jfif = 4 + (Int(original[4]) << 8 | Int(original[5]))
        #expect(original[2] == 0xFF && original[3] == 0xE0)
        #expect(Array(written.prefix(jfif)) == Array(original.prefix(jfif)))
        #expect(written[jfif] == 0xFF && written[jfif + 1] == 0xE1)
        #expect(Array(written.suffix(original.count - jfif)) == Array(original.dropFirst(jfif)))
    }

    @Test("an unknown zone writes no offset; removing the place removes the GPS tags; a second rewrite replaces the first")
    func rewrite() throws {
        let date = ISO8601DateFormatter().date(from: "2001-02-03T04:05:06Z")!
        let first = try EXIFWriter.applying(
            EXIFCaptureEdits(date: .set(date, offset: -18_000), location: .set(GPSLocation(latitude: 1, longitude: 2))), toJPEG: try Self.jpeg())
        let second = try EXIFWriter.applying(EXIFCaptureEdits(date: .set(date, offset: nil), location: .set(nil)), toJPEG: first)
        let metadata = try ImageDecoding.open(EncodedBytes(second)).metadata
        #expect(metadata.captureDate?.utcOffsetSeconds == nil && metadata.captureDate?.hour == 4)
        #expect(metadata.location == nil)
        // Keeping both leaves the bytes as they are.
        #expect(try EXIFWriter.applying(EXIFCaptureEdits(), toJPEG: second) == second)
    }

    @Test("what is not a JPEG, or a JPEG whose segments run past its end, is refused with a message")
    func refused() throws {
        let edits = EXIFCaptureEdits(date: .set(Date(timeIntervalSince1970: 0), offset: 0))
        #expect(throws: CodecError.self) { try EXIFWriter.applying(edits, toJPEG: Array("not a jpeg".utf8)) }
        do {
            _ = try EXIFWriter.applying(edits, toJPEG: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0, 0, 0])
            Issue.record("a segment longer than the data should be refused")
        } catch {
            #expect(error.description.contains("runs past the end"), "\(error)")
        }
    }
}
