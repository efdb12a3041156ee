import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaTestSupport
import Testing

@testable import SepiaServer

/// `PUT /api/v1/assets/{id}/sidecar`: an XMP sidecar uploaded with its photo (the web app sends one it finds
/// among the files chosen) gives the photo what `sepia import` would take from it.
@Suite struct SidecarUploadTests {
    static let digiKam = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
          xmlns:digiKam="http://www.digikam.org/ns/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
          xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
          xmp:Rating="4" exif:DateTimeOriginal="2019-05-04T10:20:30+02:00" exif:GPSLatitude="48,51.4N" exif:GPSLongitude="2,21.05E"
          crs:HasCrop="True" crs:CropTop="0" crs:CropLeft="0" crs:CropBottom="0.5" crs:CropRight="0.5" crs:CropAngle="0">
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Notre-Dame at dawn</rdf:li></rdf:Alt></dc:title>
        <digiKam:TagsList><rdf:Seq><rdf:li>Places/France/Paris</rdf:li></rdf:Seq></digiKam:TagsList>
        <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(String(repeating: "c", count: 6000))</rdf:li></rdf:Alt></dc:description>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("a sidecar gives the photo its rating, title, keywords, date and place as edits, and its crop; a value over a limit is a warning")
    func applies() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(31)
            let response = try await owner.request(
                .put, "/api/v1/assets/\(id)/sidecar?filename=photo-31.jpg.xmp", body: Array(Self.digiKam.utf8))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let body = try Self.json(response)
            let asset = try #require(body["asset"] as? [String: Any])
            #expect(asset["rating"] as? Int == 4 && asset["title"] as? String == "Notre-Dame at dawn")
            #expect(asset["keywords"] as? [String] == ["Places|France|Paris"])
            #expect(asset["caption"] is NSNull, "the 6000-character caption is over the limit")
            let warnings = try #require(body["warnings"] as? [String])
            #expect(warnings.count == 1 && warnings[0].contains("caption was left out"), "\(warnings)")
            #expect(asset["creationDateOffset"] as? Int == 7200)
            #expect((asset["creationDate"] as? String)?.hasPrefix("2019-05-04T08:20:30") == true, "\(asset["creationDate"] ?? "")")
            let location = try #require(asset["location"] as? [String: Any])
            #expect(abs((location["latitude"] as? Double ?? 0) - (48 + 51.4 / 60)) < 1e-6)
            // The top-left quarter of the 48 × 32 photo
            #expect(asset["hasAdjustments"] as? Bool == true && asset["width"] as? Int == 24 && asset["height"] as? Int == 16)
            // The file's own date stays beside the edit (the upload had none, so the upload's date)
            let info = try Self.json(try await owner.request(.get, "/api/v1/assets/\(id)"))
            #expect(info["creationDateEdited"] as? Bool == true, "\(info)")
        }
    }

    @Test("hostile and empty sidecars are refused with the reason and change nothing; other accounts' photos are not found")
    func refused() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(32)
            let bomb = #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><x>&b;</x>"#
            let refused = try await owner.request(.put, "/api/v1/assets/\(id)/sidecar?filename=bomb.xmp", body: Array(bomb.utf8))
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("the sidecar bomb.xmp was not read") && String(buffer: refused.body).contains("DOCTYPE"))
            let broken = try await owner.request(.put, "/api/v1/assets/\(id)/sidecar", body: Array("<x:xmpmeta".utf8))
            #expect(broken.status == .unprocessableContent)
            #expect(try await owner.request(.put, "/api/v1/assets/\(id)/sidecar", body: []).status == .badRequest)
            let huge = [UInt8](repeating: 0x20, count: (4 << 20) + 1)
            #expect(try await owner.request(.put, "/api/v1/assets/\(id)/sidecar", body: huge).status == .contentTooLarge)
            let missing = "00000000-0000-4000-8000-000000000000"
            #expect(try await owner.request(.put, "/api/v1/assets/\(missing)/sidecar", body: Array(Self.digiKam.utf8)).status == .notFound)
            let asset = try Self.json(try await owner.request(.get, "/api/v1/assets/\(id)"))
            #expect(asset["rating"] as? Int == 0 && asset["hasAdjustments"] as? Bool == false)
        }
    }

    @Test("an uploaded photo takes the rating, title and keywords of the XMP written into it, as an import does")
    func embedded() async throws {
        // A JPEG with an XMP packet in an APP1 segment after its SOI, as cameras and editors write it
        let packet = Array(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="3"><dc:subject><rdf:Bag><rdf:li>Boats</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>"#
                .utf8)
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet
        let length = payload.count + 2
        var jpeg = Array(TestImages.jpeg(33))
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        let tagged = Data(jpeg)
        try await TestServer().withOwner { owner in
            let response = try await owner.upload(tagged, filename: "boats.jpg")
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id
            let asset = try Self.json(try await owner.request(.get, "/api/v1/assets/\(id)"))
            #expect(asset["rating"] as? Int == 3 && asset["keywords"] as? [String] == ["Boats"], "\(asset)")
        }
    }

    @Test("an add-only token's TIFF whose XMP tag has 100 000 attributes is stored without them, and a photo uploaded beside it keeps its XMP")
    func crowdedXMPInTIFF() async throws {
        // The packet goes into the TIFF's XMP tag (700) as a block, unparsed.
        let folder = TestVideos.folder()
        let packet = folder + "/crowded.xmp"
        let attributes = (0..<100_000).map { "a:p\($0)='1'" }.joined(separator: " ")
        try Data(
            """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about='' \
            xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:a='http://ns.example.com/a/1.0/' xmp:Rating='5' \(attributes)/></rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: packet))
        let tiff = folder + "/crowded.tif"
        try RAWUploadTests.fixture("tiff/rgb8_lzw.tif").write(to: URL(fileURLWithPath: tiff))
        let tagging = try ExternalProgram.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP<=" + packet, tiff])
        try #require(tagging.status == 0, "\(tagging.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tiff))
        try await TestServer().withOwner { owner in
            let uploader = try await owner.token("add-only")
            // The crowded TIFF and an ordinary tagged photo, at once.
            async let crowded = uploader.upload(bytes, filename: "crowded.tif")
            async let ordinary = uploader.upload(Self.tagged(rating: 3), filename: "boats.jpg")
            let (first, second) = try await (crowded, ordinary)
            #expect(first.status == .created && second.status == .created, "\(String(buffer: first.body)) \(String(buffer: second.body))")
            let page = try Self.json(try await owner.request(.get, "/api/v1/assets"))
            let ratings = (page["assets"] as? [[String: Any]] ?? []).map { "\($0["originalFilename"] ?? "?"): \($0["rating"] ?? "none")" }.sorted()
            #expect(ratings == ["boats.jpg: 3", "crowded.tif: 0"], "\(ratings)")
        }
    }

    /// A JPEG whose XMP (in an APP1 segment after its SOI) gives it a rating.
    static func tagged(rating: Int) -> Data {
        let packet = Array(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\#(rating)"/></rdf:RDF></x:xmpmeta>"#
                .utf8)
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet
        var jpeg = Array(TestImages.jpeg(34))
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload, at: 2)
        return Data(jpeg)
    }
}
