import SepiaCodecs
import Testing

/// Videos are recognised by their bytes, as images are, so a caller can route them to SepiaVideo; the
/// still-image decoders refuse them with a message saying so.
@Suite("Video containers recognised by their bytes")
struct VideoSniffingTests {
    static func ftyp(_ major: String, _ brands: [String]) -> [UInt8] {
        let payload = Array(major.utf8) + [0, 0, 2, 0] + brands.flatMap { Array($0.utf8) }
        let size = 8 + payload.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + payload + [0, 0, 0, 8] + Array("free".utf8)
    }

    @Test(
        "ISO base media brands",
        arguments: [
            (ftyp("qt  ", ["qt  "]), ImageFormat.quickTime),
            (ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), .mp4),
            (ftyp("mp42", ["mp42", "isom"]), .mp4),
            (ftyp("M4V ", ["M4V ", "M4A ", "mp42"]), .mp4),
            (ftyp("XAVC", ["XAVC", "mp42"]), .mp4),
            (ftyp("3gp5", ["3gp5", "isom"]), .threeGPP),
            (ftyp("3g2a", ["3g2a"]), .threeGPP),
            (ftyp("heic", ["mif1", "heic"]), .heic),
            (ftyp("avif", ["avif", "mif1"]), .avif),
            (ftyp("mif1", ["mif1", "heic", "isom"]), .heic),
        ] as [([UInt8], ImageFormat)])
    func brands(_ head: [UInt8], _ format: ImageFormat) {
        #expect(ImageFormat.sniff(head) == format)
    }

    @Test("audio-only MP4 files are not taken for videos, nor Canon's CR3 RAW files")
    func notVideos() {
        #expect(ImageFormat.sniff(Self.ftyp("M4A ", ["M4A ", "mp42"])) == nil)
        #expect(ImageFormat.sniff(Self.ftyp("crx ", ["crx "])) == .cameraRAW)
    }

    @Test("QuickTime movies without ftyp start with moov, mdat, wide or free")
    func oldQuickTime() {
        for atom in ["moov", "mdat", "wide", "free"] {
            #expect(ImageFormat.sniff([0, 0, 0, 8] + Array(atom.utf8) + [0, 0, 0, 0]) == .quickTime, "\(atom)")
        }
    }

    @Test("EBML: WebM and Matroska told apart by the DocType")
    func ebml() {
        let webm: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0x82, 0x84] + Array("webm".utf8)
        #expect(ImageFormat.sniff(webm) == .webm)
        let mkv: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0xA3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88] + Array("matroska".utf8)
        #expect(ImageFormat.sniff(mkv) == .matroska)
        #expect(ImageFormat.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x80]) == .matroska)
    }

    @Test("RIFF: AVI, and WebP stays WebP")
    func riff() {
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [0, 1, 0, 0] + Array("AVI LIST".utf8)) == .avi)
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [0, 1, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [0, 1, 0, 0] + Array("WAVEfmt ".utf8)) == nil)
    }

    @Test("MPEG-TS: three sync bytes 188 apart, or a first packet carrying a table; M2TS's 192-byte packets")
    func transportStreams() {
        func packets(size: Int, offset: Int, count: Int, pid: UInt16) -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<count {
                var packet = [UInt8](repeating: 0xFF, count: size)
                packet[offset] = 0x47
                packet[offset + 1] = 0x40 | UInt8(pid >> 8)
                packet[offset + 2] = UInt8(pid & 0xFF)
                packet[offset + 3] = 0x10
                bytes += packet
            }
            return bytes
        }
        #expect(ImageFormat.sniff(packets(size: 188, offset: 0, count: 3, pid: 0x100)) == .mpegTS)
        #expect(ImageFormat.sniff(packets(size: 192, offset: 4, count: 3, pid: 0x1011)) == .mpegTS)
        // 64 bytes: one packet's header, which must be a table's (PAT, SDT…).
        #expect(ImageFormat.sniff(packets(size: 188, offset: 0, count: 1, pid: 0).prefix(64)) == .mpegTS)
        #expect(ImageFormat.sniff(packets(size: 188, offset: 0, count: 1, pid: 0x11).prefix(64)) == .mpegTS)
        #expect(ImageFormat.sniff(packets(size: 192, offset: 4, count: 1, pid: 0).prefix(64)) == .mpegTS)
        #expect(ImageFormat.sniff(packets(size: 188, offset: 0, count: 1, pid: 0x100).prefix(64)) == nil)
        // Text that starts with G is not a transport stream.
        #expect(ImageFormat.sniff(Array("GET / HTTP/1.1\r\nHost: example\r\n\r\n".utf8)) == nil)
        // A sync byte that breaks on the third packet.
        var broken = packets(size: 188, offset: 0, count: 3, pid: 0x100)
        broken[376] = 0
        #expect(ImageFormat.sniff(broken) == nil)
    }

    @Test("video formats: names, MIME types, extensions; the image decoders refuse them, naming SepiaVideo")
    func videoFormats() throws {
        let videos: [ImageFormat] = [.quickTime, .mp4, .threeGPP, .matroska, .webm, .avi, .mpegTS]
        #expect(videos.allSatisfy { $0.isVideo && !$0.isDecodable && !$0.isEncodable && $0.mimeType.hasPrefix("video/") })
        #expect(!ImageFormat.jpeg.isVideo)
        #expect(videos.map(\.fileExtension) == ["mov", "mp4", "3gp", "mkv", "webm", "avi", "mts"])
        #expect(ImageFormat(fileExtension: "M2TS") == .mpegTS)
        #expect(ImageFormat(fileExtension: "m4v") == .mp4)
        #expect(
            throws: CodecError(
                .unsupportedFormat, format: .mp4, "this is a video, which the still-image decoders do not read; SepiaVideo's VideoSource opens it")
        ) {
            try ImageDecoding.open(EncodedBytes(Self.ftyp("isom", ["isom"]) + [UInt8](repeating: 0, count: 64)))
        }
    }
}
