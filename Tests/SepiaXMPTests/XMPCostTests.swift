import Foundation
import SepiaCodecs
import SepiaTestSupport
import SepiaXMP
import Testing

/// Packets shaped to make Exempi's parse slow: Exempi looks for each new member of a node among those already
/// there, so a node with many members costs it the square of their number. Each is refused before Exempi sees
/// it, naming the limit; sidecars shaped as digiKam, Lightroom and darktable write their largest ones pass.
@Suite struct XMPCostTests {
    static let rdf = "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'"
    static let namespaces = "xmlns:a='http://ns.example.com/a/1.0/' xmlns:xmp='http://ns.adobe.com/xap/1.0/'"

    static func packet(_ descriptions: String) -> [UInt8] {
        Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(rdf) \(namespaces)>\(descriptions)</rdf:RDF></x:xmpmeta>".utf8)
    }

    static func refusal(_ bytes: [UInt8]) -> XMPError? {
        do {
            let reading = try XMPPacket.read(bytes)
            Issue.record("read with rating \(String(describing: reading.metadata.rating))")
            return nil
        } catch {
            return error
        }
    }

    /// A packet whose one node has `count` members, written in one of the ways XMP allows.
    static func crowded(_ shape: String, _ count: Int) -> [UInt8] {
        let members = 0..<count
        switch shape {
        case "attributes":
            // 100 000 attributes on one element: minutes of Exempi's time.
            return packet("<rdf:Description rdf:about='' xmp:Rating='5' " + members.map { "a:p\($0)='1'" }.joined(separator: " ") + "/>")
        case "elements":
            return packet(
                "<rdf:Description rdf:about=''><xmp:Rating>5</xmp:Rating>" + members.map { "<a:p\($0)>1</a:p\($0)>" }.joined()
                    + "</rdf:Description>")
        case "descriptions":
            // Descriptions of ten members each, which Exempi merges into one node.
            return packet(
                "<rdf:Description rdf:about='' xmp:Rating='5'/>"
                    + (0..<(count / 10)).map { d in
                        "<rdf:Description rdf:about='' " + (0..<10).map { "a:p\(d)_\($0)='1'" }.joined(separator: " ") + "/>"
                    }.joined())
        case "structure":
            return packet(
                "<rdf:Description rdf:about='' xmp:Rating='5'><a:s rdf:parseType='Resource'>"
                    + members.map { "<a:p\($0)>1</a:p\($0)>" }.joined() + "</a:s></rdf:Description>")
        default:
            // The attributes of a description nested in a property.
            return packet(
                "<rdf:Description rdf:about='' xmp:Rating='5'><a:s><rdf:Description "
                    + members.map { "a:q\($0)='1'" }.joined(separator: " ") + "/></a:s></rdf:Description>")
        }
    }

    @Test(
        "a node with 100 000 members is refused before Exempi parses it, however its members are written",
        arguments: ["attributes", "elements", "descriptions", "structure", "nested description"])
    func crowdedNode(shape: String) throws {
        let error = try #require(Self.refusal(Self.crowded(shape, 100_000)), "\(shape)")
        #expect(error.code == .refused, "\(shape): \(error)")
        #expect(error.reason.contains("more than 2000 properties"), "\(shape): \(error)")
    }

    @Test("many nodes each under the member limit are refused once Exempi's work would add up past the cost limit")
    func manyCrowdedNodes() throws {
        let structures = (0..<8).map { s in
            "<a:s\(s) rdf:parseType='Resource'>" + (0..<1_500).map { "<a:p\($0)>1</a:p\($0)>" }.joined() + "</a:s\(s)>"
        }
        let error = try #require(Self.refusal(Self.packet("<rdf:Description rdf:about=''>\(structures.joined())</rdf:Description>")))
        #expect(error.code == .refused && error.reason.contains("steps"), "\(error)")
    }

    @Test("more elements and attributes than the node limit are refused, even as array items Exempi adds cheaply")
    func tooManyNodes() throws {
        let items = (0..<110_000).map { _ in "<rdf:li>k</rdf:li>" }.joined()
        let error = try #require(
            Self.refusal(Self.packet("<rdf:Description rdf:about=''><a:b><rdf:Bag>\(items)</rdf:Bag></a:b></rdf:Description>")))
        #expect(error.code == .refused && error.reason.contains("more than 100000 elements and attributes"), "\(error)")
    }

    @Test("the limits are the caller's to set: a packet within the defaults is refused under tighter ones")
    func tighterLimits() throws {
        let bytes = Self.packet("<rdf:Description rdf:about='' xmp:Rating='3' a:one='1' a:two='2'/>")
        #expect(try XMPPacket.read(bytes).metadata.rating == .stars(3))
        var limits = XMPLimits()
        limits.maximumMembers = 2
        #expect(throws: XMPError.self) { try XMPPacket.read(bytes, limits: limits) }
    }

    @Test("a Lightroom sidecar written by exiftool with every Camera Raw setting and a history of 300 saves is read")
    func largeLightroomSidecar() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("IMG_0001.xmp")
        var assignments = ["-XMP-dc:Title=Harbour", "-XMP-xmp:Rating=4"]
        // Every Camera Raw setting exiftool knows with a simple value: far more than Lightroom writes at once.
        let listing = try ExifTool.run(["-listx", "-XMP-crs:all"])
        let values = ["boolean": "True", "integer": "1", "real": "1.5", "string": "x"]
        let pattern = try NSRegularExpression(pattern: "<tag id='[^']*' name='([^']*)' type='([^']*)'")
        for match in pattern.matches(in: listing, range: NSRange(listing.startIndex..., in: listing)) {
            let name = (listing as NSString).substring(with: match.range(at: 1))
            if let value = values[(listing as NSString).substring(with: match.range(at: 2))] { assignments.append("-XMP-crs:\(name)=\(value)") }
        }
        #expect(assignments.count > 800)
        for save in 0..<300 {
            assignments += [
                "-XMP-xmpMM:HistoryAction+=saved", "-XMP-xmpMM:HistoryInstanceID+=xmp.iid:\(save)", "-XMP-xmpMM:HistoryWhen+=2023:01:01 10:00:00",
                "-XMP-xmpMM:HistorySoftwareAgent+=Adobe Photoshop Lightroom Classic 12.0", "-XMP-xmpMM:HistoryChanged+=/metadata",
            ]
        }
        let arguments = folder.file("arguments.txt")
        try assignments.joined(separator: "\n").write(toFile: arguments, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: path)
        _ = try? ExternalProgram.run("/usr/bin/exiftool", ["-q", "-q", "-o", path, "-@", arguments])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 100_000)
        let reading = try XMPPacket.read(bytes)
        #expect(reading.metadata.title == "Harbour" && reading.metadata.rating == .stars(4))
    }

    @Test("a darktable sidecar with a history stack of 2 000 steps and 500 mask entries is read")
    func largeDarktableSidecar() throws {
        // As darktable writes them: one rdf:li per history step, its fields as attributes.
        let steps = (0..<2_000).map { step in
            """
            <rdf:li darktable:num="\(step)" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6" \
            darktable:params="0000000000000000\(step)" darktable:multi_name="" darktable:multi_name_hand_edited="0" \
            darktable:multi_priority="0" darktable:blendop_version="13" darktable:blendop_params="gz11eJxjYGBgkGAAgRNODGQDAA"/>
            """
        }.joined(separator: "\n")
        let masks = (0..<500).map { mask in
            """
            <rdf:li darktable:mask_num="\(mask)" darktable:mask_id="\(1_000_000 + mask)" darktable:mask_type="2" darktable:mask_name="path #\(mask)" \
            darktable:mask_version="6" darktable:mask_points="0000803f" darktable:mask_nb="4" darktable:mask_src="0000000000000000"/>
            """
        }.joined(separator: "\n")
        let sidecar = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF \(Self.rdf)>
              <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:darktable="http://darktable.sf.net/" xmp:Rating="2" \
            exif:DateTimeOriginal="2021:07:04 15:30:10.000" xmpMM:DerivedFrom="IMG_0001.CR3" darktable:import_timestamp="63791000000000000" \
            darktable:change_timestamp="63791000000000000" darktable:xmp_version="5" darktable:raw_params="0" darktable:auto_presets_applied="1" \
            darktable:history_end="2000" darktable:iop_order_version="3">
               <darktable:masks_history><rdf:Seq>\(masks)</rdf:Seq></darktable:masks_history>
               <darktable:history><rdf:Seq>\(steps)</rdf:Seq></darktable:history>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        let reading = try XMPPacket.read(Array(sidecar.utf8))
        #expect(reading.metadata.rating == .stars(2))
        #expect(reading.metadata.captureDate?.description == "2021-07-04T15:30:10")
    }

    @Test("a digiKam sidecar with 5 000 keywords in its three lists is read: array items cost Exempi little")
    func manyKeywords() throws {
        let keywords = (0..<5_000).map { "Places/Region \($0 / 100)/Town \($0)" }
        func bag(_ items: [String]) -> String { "<rdf:Bag>" + items.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Bag>" }
        let text = """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(Self.rdf)><rdf:Description rdf:about='' \
            xmlns:digiKam='http://www.digikam.org/ns/1.0/' xmlns:lr='http://ns.adobe.com/lightroom/1.0/' xmlns:dc='http://purl.org/dc/elements/1.1/'>\
            <digiKam:TagsList>\(bag(keywords))</digiKam:TagsList>\
            <lr:hierarchicalSubject>\(bag(keywords.map { $0.replacingOccurrences(of: "/", with: "|") }))</lr:hierarchicalSubject>\
            <dc:subject>\(bag(keywords.map { String($0.split(separator: "/").last!) }))</dc:subject>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let reading = try XMPPacket.read(Array(text.utf8))
        #expect(reading.metadata.keywords.count == 5_000)
    }
}
