import Foundation
import SepiaCodecs
import SepiaXMP
import Testing

/// Sidecars written by SepiaXMP, read back by exiftool under the names digiKam and Lightroom read, and by SepiaXMP.
@Suite struct XMPWriteTests {
    static let recipe = #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CIPhotoEffectNoir"}]}"#

    static func sample() throws -> XMPMetadata {
        let date = try #require(
            CaptureDate(year: 2022, month: 5, day: 17, hour: 5, minute: 4, second: 3, utcOffsetSeconds: 7200, origin: .xmp))
        let location = try #require(GPSLocation(latitude: 60.397076, longitude: -5.324383, altitude: -4.5))
        let crop = try #require(CameraRawCrop(top: 0.05, left: 0.1, bottom: 0.95, right: 0.9, angle: 1.25))
        var metadata = XMPMetadata(
            rating: .stars(3), title: "Harbour at dawn", caption: "Fishing boats, Ω & <friends>",
            keywords: [XMPKeyword(["Places", "Norway", "Bergen"]), XMPKeyword(["Boats"]), XMPKeyword(["Trips", "Bergen"])],
            captureDate: date, location: location, crop: crop, editRecipe: recipe)
        metadata.placeNames = XMPPlaceNames(city: "Bergen", state: "Vestland", country: "Norway", countryCode: "NO")
        return metadata
    }

    @Test("every field is where digiKam and Lightroom read it, as exiftool reads the sidecar")
    func exiftoolReadsBack() throws {
        // Given a sidecar written by SepiaXMP
        let folder = try TemporaryFolder()
        let photo = folder.file("IMG_1.jpg")
        let path = try XMPSidecar.write(try Self.sample(), forPhotoAt: photo)
        #expect(path == photo + ".xmp")

        // When exiftool reads it
        let tags = try ExifTool.tags(path)

        // Then each field is under its XMP name
        #expect(tags["XMP-xmp:Rating"] as? Int == 3)
        #expect(tags["XMP-dc:Title"] as? String == "Harbour at dawn")
        #expect(tags["XMP-dc:Description"] as? String == "Fishing boats, Ω & <friends>")
        #expect(ExifTool.list(tags["XMP-dc:Subject"]) == ["Bergen", "Boats"])
        #expect(ExifTool.list(tags["XMP-lr:HierarchicalSubject"]) == ["Places|Norway|Bergen", "Boats", "Trips|Bergen"])
        #expect(ExifTool.list(tags["XMP-digiKam:TagsList"]) == ["Places/Norway/Bergen", "Boats", "Trips/Bergen"])
        #expect(tags["XMP-exif:DateTimeOriginal"] as? String == "2022:05:17 05:04:03+02:00")
        #expect(tags["XMP-photoshop:DateCreated"] as? String == "2022:05:17 05:04:03+02:00")
        #expect(abs((tags["XMP-exif:GPSLatitude"] as? Double ?? 0) - 60.397076) < 1e-6)
        #expect(abs((tags["XMP-exif:GPSLongitude"] as? Double ?? 0) + 5.324383) < 1e-6)
        #expect(tags["XMP-exif:GPSAltitude"] as? Double == 4.5)
        #expect(tags["XMP-exif:GPSAltitudeRef"] as? Int == 1)
        #expect(tags["XMP-photoshop:City"] as? String == "Bergen")
        #expect(tags["XMP-photoshop:State"] as? String == "Vestland")
        #expect(tags["XMP-photoshop:Country"] as? String == "Norway")
        #expect(tags["XMP-iptcCore:CountryCode"] as? String == "NO")
        #expect(tags["XMP-crs:HasCrop"] as? Bool == true || tags["XMP-crs:HasCrop"] as? Int == 1)
        #expect(tags["XMP-crs:CropTop"] as? Double == 0.05)
        #expect(tags["XMP-crs:CropRight"] as? Double == 0.9)
        #expect(tags["XMP-crs:CropAngle"] as? Double == 1.25)
        #expect(tags["XMP-sepia:EditRecipe"] as? String == Self.recipe, "\(tags.keys.sorted())")
    }

    @Test("written and read back by SepiaXMP, the metadata is the same")
    func roundTrip() throws {
        let metadata = try Self.sample()
        let reading = try XMPPacket.read(try XMPPacket.serialize(metadata))
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
        #expect(reading.metadata == metadata)

        let rejected = XMPMetadata(rating: .rejected, keywords: [XMPKeyword(["Solo"])])
        #expect(try XMPPacket.read(try XMPPacket.serialize(rejected)).metadata == rejected)
        #expect(try XMPPacket.read(try XMPPacket.serialize(XMPMetadata())).metadata.isEmpty)
    }

    @Test("updating a sidecar keeps what Sepia does not manage and replaces what it does; nil removes")
    func merge() throws {
        // Given a sidecar with properties Sepia does not manage (a label, a Camera Raw develop setting)
        let folder = try TemporaryFolder()
        let photo = folder.file("DSC_7.NEF")
        try ExifTool.makeSidecar(
            photo + ".xmp",
            [
                "-XMP-xmp:Label=Red", "-XMP-crs:Exposure2012=+0.35", "-XMP-xmp:Rating=1",
                "-XMP-dc:Subject=old", "-XMP-xmp:CreateDate=2001-01-01T00:00:00",
            ])

        // When Sepia writes new metadata over it
        try XMPSidecar.write(XMPMetadata(rating: .stars(5), keywords: [XMPKeyword(["new"])]), forPhotoAt: photo)

        // Then the label and Camera Raw's setting are kept and Sepia's fields replaced
        let tags = try ExifTool.tags(photo + ".xmp")
        #expect(tags["XMP-xmp:Label"] as? String == "Red")
        #expect(tags["XMP-crs:Exposure2012"] as? String == "+0.35")
        #expect(tags["XMP-xmp:Rating"] as? Int == 5)
        #expect(ExifTool.list(tags["XMP-dc:Subject"]) == ["new"])
        #expect(tags["XMP-xmp:CreateDate"] == nil, "no capture date removes xmp:CreateDate too")
        let reading = try XMPSidecar.read(at: photo + ".xmp")
        #expect(reading.metadata == XMPMetadata(rating: .stars(5), keywords: [XMPKeyword(["new"])]))
    }

    @Test("writing is atomic: no temporary file is left, and a refused existing sidecar is not replaced")
    func atomicAndSafe() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("p.jpg")
        try XMPSidecar.write(XMPMetadata(title: "one"), forPhotoAt: photo)
        try XMPSidecar.write(XMPMetadata(title: "two"), forPhotoAt: photo)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["p.jpg.xmp"])
        #expect(try XMPSidecar.read(at: photo + ".xmp").metadata.title == "two")

        let hostile = "<!DOCTYPE x [<!ENTITY e 'e'>]><x:xmpmeta xmlns:x='adobe:ns:meta/'/>"
        try hostile.write(toFile: photo + ".xmp", atomically: true, encoding: .utf8)
        #expect(throws: XMPError.self) { try XMPSidecar.write(XMPMetadata(title: "three"), forPhotoAt: photo) }
        #expect(try String(contentsOfFile: photo + ".xmp", encoding: .utf8) == hostile)
    }

    @Test(
        "values XMP cannot carry are refused with a reason",
        arguments: [
            XMPMetadata(title: "bell\u{7}"), XMPMetadata(keywords: [XMPKeyword(["a|b"])]), XMPMetadata(editRecipe: "{not json"),
        ])
    func invalidValues(metadata: XMPMetadata) {
        #expect {
            _ = try XMPPacket.serialize(metadata)
        } throws: { error in
            (error as? XMPError)?.code == .invalidValue
        }
    }
}
