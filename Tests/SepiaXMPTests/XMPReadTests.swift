import Foundation
import SepiaCodecs
import SepiaXMP
import Testing

/// Sidecars written by exiftool with the field sets digiKam, Lightroom and darktable write, read with SepiaXMP.
@Suite struct XMPReadTests {
    @Test("a digiKam sidecar: rating, title, caption, keywords in three forms merged, date with offset, GPS with altitude")
    func digiKam() throws {
        // Given a sidecar with digiKam's fields (photo.jpg.xmp)
        let folder = try TemporaryFolder()
        let photo = folder.file("photo.jpg")
        try ExifTool.makeSidecar(
            photo + ".xmp",
            [
                "-XMP-xmp:Rating=4", "-XMP-dc:Title=Eiffel Tower", "-XMP-dc:Description=From the Trocadéro",
                "-XMP-dc:Subject=Paris", "-XMP-dc:Subject=Holiday", "-XMP-dc:Subject=Family",
                "-XMP-digiKam:TagsList=Places/France/Paris", "-XMP-digiKam:TagsList=People/Family",
                "-XMP-lr:HierarchicalSubject=Places|France|Paris", "-XMP-lr:HierarchicalSubject=People|Family",
                "-XMP-exif:DateTimeOriginal=2023-06-14T18:42:31+02:00", "-XMP-photoshop:DateCreated=2023-06-14T18:42:31+02:00",
                "-XMP-xmp:CreateDate=2020-01-01T00:00:00Z", "-XMP-exif:GPSLatitude=48.858370", "-XMP-exif:GPSLongitude=2.294481",
                "-XMP-exif:GPSAltitude=35.5", "-XMP-exif:GPSAltitudeRef#=0",
            ])

        // When it is found beside the photo and read
        let reading = try #require(try XMPSidecar.read(forPhotoAt: photo))

        // Then every field is read, and the keywords are merged without duplicates
        #expect(reading.file == photo + ".xmp")
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
        let metadata = reading.metadata
        #expect(metadata.rating == .stars(4))
        #expect(metadata.title == "Eiffel Tower")
        #expect(metadata.caption == "From the Trocadéro")
        #expect(
            metadata.keywords == [XMPKeyword(["Places", "France", "Paris"]), XMPKeyword(["People", "Family"]), XMPKeyword(["Holiday"])])
        let date = try #require(metadata.captureDate)
        #expect(date.description == "2023-06-14T18:42:31+02:00")
        #expect(date.utcOffsetSeconds == 7200)
        #expect(date.origin == .xmp)
        let location = try #require(metadata.location)
        #expect(abs(location.latitude - 48.858370) < 1e-6)
        #expect(abs(location.longitude - 2.294481) < 1e-6)
        #expect(location.altitude == 35.5)
        #expect(metadata.crop == nil)
    }

    @Test(
        "a Lightroom sidecar (photo.xmp): rejected, hierarchical keywords with parents in dc:subject, crop, southern and western GPS below sea level")
    func lightroom() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("IMG_0001.CR2")
        try ExifTool.makeSidecar(
            folder.file("IMG_0001.xmp"),
            [
                "-XMP-xmp:Rating=-1", "-XMP-dc:Subject=Animals", "-XMP-dc:Subject=Birds", "-XMP-dc:Subject=Heron",
                "-XMP-lr:HierarchicalSubject=Animals|Birds|Heron", "-XMP-photoshop:DateCreated=2021-03-02T07:05:00.25-03:00",
                "-XMP-exif:GPSLatitude=-33.8568", "-XMP-exif:GPSLongitude=-70.6483", "-XMP-exif:GPSAltitude=12.25",
                "-XMP-exif:GPSAltitudeRef#=1", "-XMP-crs:HasCrop=True", "-XMP-crs:CropTop=0.125", "-XMP-crs:CropLeft=0.0625",
                "-XMP-crs:CropBottom=0.875", "-XMP-crs:CropRight=0.9375", "-XMP-crs:CropAngle=-2.75",
            ])

        let reading = try #require(try XMPSidecar.read(forPhotoAt: photo))

        #expect(reading.file == folder.file("IMG_0001.xmp"))
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
        #expect(reading.metadata.rating == .rejected)
        #expect(reading.metadata.keywords == [XMPKeyword(["Animals", "Birds", "Heron"])])
        #expect(reading.metadata.captureDate?.description == "2021-03-02T07:05:00.25-03:00")
        let location = try #require(reading.metadata.location)
        #expect(abs(location.latitude + 33.8568) < 1e-6 && abs(location.longitude + 70.6483) < 1e-6)
        #expect(location.altitude == -12.25)
        #expect(reading.metadata.crop == CameraRawCrop(top: 0.125, left: 0.0625, bottom: 0.875, right: 0.9375, angle: -2.75))
    }

    // darktable also writes its history in its own namespace, which exiftool has no table for; the fields Sepia
    // reads are in the standard ones.
    @Test("a darktable sidecar (photo.ext.xmp): rating, keywords in lr:hierarchicalSubject, a date without an offset")
    func darktable() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("DSC_0042.NEF")
        try ExifTool.makeSidecar(
            photo + ".xmp",
            [
                "-XMP-xmp:Rating=2", "-XMP-dc:Subject=sunset", "-XMP-lr:HierarchicalSubject=sunset",
                "-XMP-lr:HierarchicalSubject=places|coast", "-XMP-exif:DateTimeOriginal=2019-08-30T20:14:09",
                "-XMP-xmp:CreateDate=2019-08-31T09:00:00", "-XMP-dc:Title=Coast",
            ])

        let reading = try #require(try XMPSidecar.read(forPhotoAt: photo))

        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
        #expect(reading.metadata.rating == .stars(2))
        #expect(reading.metadata.title == "Coast")
        #expect(reading.metadata.keywords == [XMPKeyword(["sunset"]), XMPKeyword(["places", "coast"])])
        #expect(reading.metadata.captureDate?.description == "2019-08-30T20:14:09")
        #expect(reading.metadata.captureDate?.utcOffsetSeconds == nil)
    }

    @Test("the sidecar lookup order: NAME.ext.xmp before NAME.xmp; none gives nil")
    func lookupOrder() throws {
        let folder = try TemporaryFolder()
        let photo = folder.file("a.jpg")
        #expect(try XMPSidecar.read(forPhotoAt: photo) == nil)
        try ExifTool.makeSidecar(folder.file("a.xmp"), ["-XMP-xmp:Rating=1"])
        #expect(XMPSidecar.path(forPhotoAt: photo) == folder.file("a.xmp"))
        try ExifTool.makeSidecar(photo + ".xmp", ["-XMP-xmp:Rating=5"])
        #expect(XMPSidecar.path(forPhotoAt: photo) == photo + ".xmp")
        #expect(try XMPSidecar.read(forPhotoAt: photo)?.metadata.rating == .stars(5))
        #expect(XMPSidecar.writePath(forPhotoAt: photo) == photo + ".xmp")
    }

    @Test("a packet embedded in a JPEG, with its xpacket wrapper and padding, is read from its bytes")
    func embeddedPacket() throws {
        let folder = try TemporaryFolder()
        let sidecar = folder.file("x.xmp")
        try ExifTool.makeSidecar(sidecar, ["-XMP-dc:Title=Embedded", "-XMP-xmp:Rating=3"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sidecar)))
        bytes += [UInt8](repeating: 0x20, count: 2048) + [0, 0]
        let reading = try XMPPacket.read(bytes)
        #expect(reading.metadata.title == "Embedded")
        #expect(reading.metadata.rating == .stars(3))
    }

    @Test("the crop in the displayed frame: orientation 6 turns the stored frame a quarter clockwise")
    func cropOrientation() throws {
        let crop = try #require(CameraRawCrop(top: 0.1, left: 0.2, bottom: 0.7, right: 0.6, angle: 3))
        #expect(crop.oriented(1) == crop)
        // The stored point (x, y) is displayed at (1 - y, x).
        #expect(crop.oriented(6) == CameraRawCrop(top: 0.2, left: 1 - 0.7, bottom: 0.6, right: 1 - 0.1, angle: 3))
        #expect(crop.oriented(8) == CameraRawCrop(top: 1 - 0.6, left: 0.1, bottom: 1 - 0.2, right: 0.7, angle: 3))
        #expect(crop.oriented(3) == CameraRawCrop(top: 1 - 0.7, left: 1 - 0.6, bottom: 1 - 0.1, right: 1 - 0.2, angle: 3))
        #expect(crop.oriented(2) == CameraRawCrop(top: 0.1, left: 1 - 0.6, bottom: 0.7, right: 1 - 0.2, angle: -3))
        for orientation in 1...8 {
            // Every orientation, applied to the crop, keeps its area.
            let turned = crop.oriented(orientation)
            #expect(abs((turned.bottom - turned.top) * (turned.right - turned.left) - 0.24) < 1e-9)
        }
    }

    @Test(
        "a date written EXIF-style (2002:12:12 20:03:26.000), as several tools write it, is read as exiftool and Exiv2 read it",
        arguments: [
            ("2002:12:12 20:03:26.000", "2002-12-12T20:03:26"), ("2002:12:12 20:03:26", "2002-12-12T20:03:26"),
            ("2002:12:12 20:03:26.25", "2002-12-12T20:03:26.25"), ("2002:12:12 20:03:26+02:00", "2002-12-12T20:03:26+02:00"),
            ("2002:12:12 20:03:26.000-05:00", "2002-12-12T20:03:26-05:00"), ("2002:12:12 20:03:26Z", "2002-12-12T20:03:26Z"),
            ("2002:12:12 20:03", "2002-12-12T20:03:00"), ("2002:12:12", "2002-12-12T00:00:00"),
        ])
    func exifStyleDate(written: String, read: String) throws {
        for property in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"] {
            let packet = """
                <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
                <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:exif='http://ns.adobe.com/exif/1.0/' \
                xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/'><\(property)>\(written)</\(property)></rdf:Description></rdf:RDF></x:xmpmeta>
                """
            let reading = try XMPPacket.read(Array(packet.utf8))
            #expect(reading.warnings.isEmpty, "\(property) \(written): \(reading.warnings)")
            #expect(reading.metadata.captureDate?.description == read, "\(property) \(written)")
        }
    }

    @Test(
        "a date that is neither ISO 8601 nor EXIF-style still gets its warning",
        arguments: ["2002:13:12 20:03:26", "12/12/2002", "2002:12", "0000:00:00 00:00:00"])
    func notADate(written: String) throws {
        let packet = """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description rdf:about='' xmlns:exif='http://ns.adobe.com/exif/1.0/'><exif:DateTimeOriginal>\(written)</exif:DateTimeOriginal>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let reading = try XMPPacket.read(Array(packet.utf8))
        #expect(reading.metadata.captureDate == nil)
        #expect(reading.warnings.map(\.property) == ["exif:DateTimeOriginal"])
    }
}
