import Foundation
import SepiaCodecs
import SepiaXMP
import Testing

/// Hostile and damaged packets: each is refused as a whole with an error naming the problem, or read with the bad
/// fields ignored and a warning for each; never a crash, a hang, or memory without bound.
@Suite struct XMPHostileTests {
    static func packet(_ properties: String, namespaces: String = "xmlns:xmp='http://ns.adobe.com/xap/1.0/'") -> String {
        """
        <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
        <rdf:Description rdf:about='' \(namespaces) xmlns:exif='http://ns.adobe.com/exif/1.0/'>\(properties)</rdf:Description>\
        </rdf:RDF></x:xmpmeta>
        """
    }

    static func refusal(_ text: String) -> XMPError? {
        do {
            _ = try XMPPacket.read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("an external entity (XXE) naming a local file is refused, and the file's content appears nowhere")
    func externalEntity() throws {
        let folder = try TemporaryFolder()
        let secret = folder.file("secret.txt")
        try "SEPIA-SECRET-7f3a".write(toFile: secret, atomically: true, encoding: .utf8)
        let hostile = "<!DOCTYPE x [<!ENTITY s SYSTEM 'file://\(secret)'>]>" + Self.packet("<xmp:Label>&s;</xmp:Label>")
        let error = try #require(Self.refusal(hostile))
        #expect(error.code == .refused)
        #expect(error.reason.contains("DOCTYPE"), "\(error)")
        #expect(!error.description.contains("SEPIA-SECRET"))

        // Exempi itself, given the packet without Sepia's check, refuses it too and reads nothing of the file.
        let direct = try XMPPacket._readByExempiAlone(Array(hostile.utf8))
        #expect(direct == nil, "Exempi parsed a packet with a DOCTYPE: \(String(describing: direct))")
    }

    @Test("a billion-laughs bomb is refused at once")
    func billionLaughs() throws {
        var entities = "<!ENTITY l0 'lol'>"
        for level in 1...9 { entities += "<!ENTITY l\(level) '" + String(repeating: "&l\(level - 1);", count: 10) + "'>" }
        let bomb = "<!DOCTYPE x [\(entities)]>" + Self.packet("<xmp:Label>&l9;</xmp:Label>")
        let started = Date()
        let error = try #require(Self.refusal(bomb))
        #expect(error.code == .refused)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try XMPPacket._readByExempiAlone(Array(bomb.utf8)) == nil)
    }

    @Test("a DOCTYPE without entities, and an entity used without one, are refused")
    func doctypeAndUndeclaredEntity() {
        #expect(Self.refusal("<!DOCTYPE x>" + Self.packet("<xmp:Rating>1</xmp:Rating>"))?.code == .refused)
        let undeclared = Self.refusal(Self.packet("<xmp:Label>&nope;</xmp:Label>"))
        #expect(undeclared?.code == .malformed)
        #expect(undeclared?.reason.contains("undefined entity") == true, "\(String(describing: undeclared))")
    }

    @Test(
        "malformed XML is refused naming line and column; empty input is refused",
        arguments: [
            "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF>", "not xml at all", "<a><b></a></b>", "\u{0}\u{0}", "",
            "<x:xmpmeta xmlns:x='adobe:ns:meta/'></x:xmpmeta><junk/>",
        ])
    func malformed(text: String) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.code == .malformed, "\(error)")
    }

    @Test("well-formed XML that is not XMP is refused by Exempi's parser, or read as empty")
    func notXMP() throws {
        do {
            let reading = try XMPPacket.read(Array("<html><body>hello</body></html>".utf8))
            #expect(reading.metadata.isEmpty)
        } catch {
            #expect(error.code == .malformed)
        }
    }

    @Test("a packet over 4 MiB is refused without being parsed")
    func huge() throws {
        let filler = "<xmp:Label>" + String(repeating: "a", count: XMPPacket.maximumBytes) + "</xmp:Label>"
        let error = try #require(Self.refusal(Self.packet(filler)))
        #expect(error.code == .tooLarge)
        #expect(error.reason.contains("4 MiB"))

        let folder = try TemporaryFolder()
        let path = folder.file("big.jpg.xmp")
        try Data(Self.packet(filler).utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: XMPError.self) { try XMPSidecar.read(at: path) }
    }

    @Test("deep nesting is refused before Exempi's recursive parser sees it")
    func deepNesting() throws {
        let depth = 200_000
        let deep = Self.packet(
            "<xmp:Label rdf:parseType='Resource'>" + String(repeating: "<xmp:a>", count: depth) + String(repeating: "</xmp:a>", count: depth)
                + "</xmp:Label>")
        let error = try #require(Self.refusal(deep))
        #expect(error.code == .refused)
        #expect(error.reason.contains("nested more than 100"), "\(error)")
    }

    @Test("too many namespace declarations are refused")
    func manyNamespaces() throws {
        let namespaces = (0..<300).map { "xmlns:n\($0)='urn:sepia-test:\($0)'" }.joined(separator: " ")
        let error = try #require(Self.refusal(Self.packet("", namespaces: namespaces)))
        #expect(error.code == .refused)
    }

    @Test("wrong types are ignored field by field, with a warning each, and the valid fields are read")
    func wrongTypes() throws {
        let text = Self.packet(
            """
            <xmp:Rating>abc</xmp:Rating><exif:GPSLatitude>200,00.0N</exif:GPSLatitude><exif:GPSLongitude>2,17.67E</exif:GPSLongitude>\
            <exif:DateTimeOriginal>yesterday</exif:DateTimeOriginal><xmp:CreateDate>2020-02-29T10:00:00Z</xmp:CreateDate>\
            <dc:title>plain</dc:title><lr:hierarchicalSubject>not a bag</lr:hierarchicalSubject>
            """,
            namespaces:
                "xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:dc='http://purl.org/dc/elements/1.1/' xmlns:lr='http://ns.adobe.com/lightroom/1.0/'"
        )
        let reading = try XMPPacket.read(Array(text.utf8))
        let properties = Set(reading.warnings.map(\.property))
        #expect(
            properties.isSuperset(of: ["xmp:Rating", "exif:GPSLatitude", "exif:DateTimeOriginal", "lr:hierarchicalSubject"]), "\(reading.warnings)")
        #expect(reading.metadata.rating == nil)
        #expect(reading.metadata.location == nil)
        #expect(reading.metadata.keywords.isEmpty)
        // The XMP Toolkit itself turns a simple dc:title into a language alternative, as the XMP specification's
        // Dublin Core rules ask; it is read.
        #expect(reading.metadata.title == "plain")
        #expect(reading.metadata.captureDate?.description == "2020-02-29T10:00:00Z")
        #expect(reading.warnings.first { $0.property == "xmp:Rating" }?.description.contains("\"abc\"") == true)
    }

    @Test(
        "out-of-range values are ignored with a warning",
        arguments: [
            ("<xmp:Rating>99</xmp:Rating>", "xmp:Rating"), ("<xmp:Rating>-2</xmp:Rating>", "xmp:Rating"),
            ("<xmp:Rating>NaN</xmp:Rating>", "xmp:Rating"),
            ("<exif:GPSLatitude>91,0.0N</exif:GPSLatitude><exif:GPSLongitude>2,0.0E</exif:GPSLongitude>", "exif:GPSLatitude"),
            ("<exif:GPSLatitude>48,61.0N</exif:GPSLatitude><exif:GPSLongitude>2,0.0E</exif:GPSLongitude>", "exif:GPSLatitude"),
            ("<exif:GPSLatitude>48,1.0E</exif:GPSLatitude><exif:GPSLongitude>2,0.0E</exif:GPSLongitude>", "exif:GPSLatitude"),
            ("<exif:GPSLatitude>48,1.0N</exif:GPSLatitude><exif:GPSLongitude>181,0.0W</exif:GPSLongitude>", "exif:GPSLongitude"),
            ("<exif:DateTimeOriginal>2023-02-30T10:00:00</exif:DateTimeOriginal>", "exif:DateTimeOriginal"),
        ])
    func outOfRange(properties: String, property: String) throws {
        let reading = try XMPPacket.read(Array(Self.packet(properties).utf8))
        #expect(reading.warnings.contains { $0.property == property }, "\(reading.warnings)")
        #expect(reading.metadata.isEmpty)
    }

    @Test("a crop outside the image, or upside down, is ignored with a warning")
    func badCrop() throws {
        let crs = "xmlns:crs='http://ns.adobe.com/camera-raw-settings/1.0/'"
        for edges in ["0.5 0.1 0.2 0.9", "-0.1 0 1 1", "0 0 1 1.5"] {
            let v = edges.split(separator: " ")
            let text = Self.packet(
                "<crs:HasCrop>True</crs:HasCrop><crs:CropTop>\(v[0])</crs:CropTop><crs:CropLeft>\(v[1])</crs:CropLeft><crs:CropBottom>\(v[2])</crs:CropBottom><crs:CropRight>\(v[3])</crs:CropRight>",
                namespaces: crs)
            let reading = try XMPPacket.read(Array(text.utf8))
            #expect(reading.metadata.crop == nil)
            #expect(!reading.warnings.isEmpty)
        }
    }
}
