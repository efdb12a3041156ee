import Foundation

/// An image file format, recognised by its magic bytes (never by file name).
///
/// Video containers are recognised too (``isVideo``), so that a caller can route a file to SepiaVideo's
/// `VideoSource` by its bytes; SepiaCodecs itself decodes only the still-image formats.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// JPEG (JFIF/EXIF).
    case jpeg
    /// PNG, including APNG (its default image).
    case png
    /// WebP, lossy or lossless, still or animated.
    case webp
    /// HEIF with HEVC images (HEIC).
    case heic
    /// AVIF: HEIF with AV1 images.
    case avif
    /// GIF (recognised, not decoded).
    case gif
    /// BMP (recognised, not decoded).
    case bmp
    /// TIFF: scanners' and editing tools' files, decoded by libtiff (the first page).
    case tiff
    /// A camera RAW file (DNG, CR2, CR3, CRW, NEF, ARW, RAF, ORF, RW2, PEF, …). Decoded by SepiaRAW's `RAWSource`.
    case cameraRAW = "raw"
    /// JPEG XL (recognised, not decoded).
    case jpegXL = "jxl"
    /// JPEG 2000 (recognised, not decoded).
    case jpeg2000 = "jp2"
    /// SVG or other XML (recognised, never decoded: scripts and external references make it unsafe).
    case svg
    /// PDF (recognised, not decoded).
    case pdf
    /// A QuickTime movie (MOV): the iPhone's videos and Live Photos' motion. Decoded by SepiaVideo.
    case quickTime = "mov"
    /// An MPEG-4 file (MP4, M4V). Decoded by SepiaVideo.
    case mp4
    /// A 3GPP or 3GPP2 file (3GP, 3G2): older phones' videos. Decoded by SepiaVideo.
    case threeGPP = "3gp"
    /// A Matroska file (MKV). Decoded by SepiaVideo.
    case matroska = "mkv"
    /// A WebM file (Matroska with VP8, VP9 or AV1). Decoded by SepiaVideo.
    case webm
    /// An AVI file: older cameras' videos (Motion JPEG, MPEG-4 Part 2, DV). Decoded by SepiaVideo.
    case avi
    /// An MPEG transport stream (TS, and the M2TS/MTS of AVCHD camcorders). Decoded by SepiaVideo.
    case mpegTS = "mts"

    /// Whether Sepia decodes this format.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .webp, .heic, .avif, .tiff: return true
        default: return false
        }
    }

    /// Whether this is a camera RAW file, which SepiaRAW reads.
    public var isRAW: Bool { self == .cameraRAW }

    /// Whether this is a video container, which SepiaVideo reads (a probe, and a poster frame as an image).
    public var isVideo: Bool {
        switch self {
        case .quickTime, .mp4, .threeGPP, .matroska, .webm, .avi, .mpegTS: return true
        default: return false
        }
    }

    /// Whether Sepia encodes this format.
    public var isEncodable: Bool {
        switch self {
        case .jpeg, .png, .webp: return true
        default: return false
        }
    }

    /// The name people use: "JPEG", "PNG", "HEIC".
    public var description: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .heic: return "HEIC"
        case .avif: return "AVIF"
        case .gif: return "GIF"
        case .bmp: return "BMP"
        case .tiff: return "TIFF"
        case .cameraRAW: return "camera RAW"
        case .jpegXL: return "JPEG XL"
        case .jpeg2000: return "JPEG 2000"
        case .svg: return "SVG"
        case .pdf: return "PDF"
        case .quickTime: return "QuickTime"
        case .mp4: return "MP4"
        case .threeGPP: return "3GP"
        case .matroska: return "Matroska"
        case .webm: return "WebM"
        case .avi: return "AVI"
        case .mpegTS: return "MPEG-TS"
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .heic: return "image/heic"
        case .avif: return "image/avif"
        case .gif: return "image/gif"
        case .bmp: return "image/bmp"
        case .tiff: return "image/tiff"
        case .cameraRAW: return "image/x-dcraw"
        case .jpegXL: return "image/jxl"
        case .jpeg2000: return "image/jp2"
        case .svg: return "image/svg+xml"
        case .pdf: return "application/pdf"
        case .quickTime: return "video/quicktime"
        case .mp4: return "video/mp4"
        case .threeGPP: return "video/3gpp"
        case .matroska: return "video/x-matroska"
        case .webm: return "video/webm"
        case .avi: return "video/x-msvideo"
        case .mpegTS: return "video/mp2t"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .heic: return "heic"
        default: return rawValue
        }
    }

    /// The format a file extension names (`jpg`, `JPEG`, `png`, `webp`, …), for choosing an output format.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png", "apng": self = .png
        case "webp": self = .webp
        case "heic", "heif", "hif": self = .heic
        case "avif": self = .avif
        case "gif": self = .gif
        case "bmp": self = .bmp
        case "tif", "tiff": self = .tiff
        case _ where Self.rawExtensions.contains(ext.lowercased()): self = .cameraRAW
        case "jxl": self = .jpegXL
        case "jp2", "j2k": self = .jpeg2000
        case "svg": self = .svg
        case "pdf": self = .pdf
        case "mov", "qt": self = .quickTime
        case "mp4", "m4v": self = .mp4
        case "3gp", "3g2": self = .threeGPP
        case "mkv": self = .matroska
        case "webm": self = .webm
        case "avi": self = .avi
        case "ts", "mts", "m2ts": self = .mpegTS
        default: return nil
        }
    }

    /// The file extensions of camera RAW files, lower case, without the dot.
    public static let rawExtensions: Set<String> = [
        "3fr", "ari", "arw", "bay", "cap", "cr2", "cr3", "crw", "dcr", "dcs", "dng", "drf", "eip", "erf", "fff", "gpr", "iiq",
        "k25", "kdc", "mdc", "mef", "mos", "mrw", "nef", "nrw", "orf", "pef", "ptx", "raf", "raw", "rw2", "rwl", "rwz", "sr2",
        "srf", "srw", "sti", "x3f",
    ]

    /// Recognises a format from a whole file: as ``sniff(_:)``, and a TIFF-structured file whose IFDs describe a
    /// sensor's data (NEF, ARW, PEF, DNG, …) is camera RAW. A file whose bytes name no format but whose name has a
    /// RAW extension (some cameras' files have no signature) is camera RAW too, for LibRaw to judge.
    public static func identify(_ bytes: EncodedBytes, fileName: String? = nil) -> ImageFormat? {
        identify(bytes, sniffed: bytes.withUnsafeBytes { sniff($0.prefix(400)) }, fileName: fileName)
    }

    /// Recognises a format from a whole file whose first bytes were sniffed already (`sniffed`, what
    /// ``sniff(_:)`` answered): a TIFF-structured file is judged by its IFDs, a file no signature names by its
    /// name; the bytes are not sniffed again.
    public static func identify(_ bytes: EncodedBytes, sniffed: ImageFormat?, fileName: String? = nil) -> ImageFormat? {
        let ext = fileName.map { ($0 as NSString).pathExtension.lowercased() }
        switch sniffed {
        case .tiff?:
            if bytes.withUnsafeBytes({ TIFFStructure.describesCameraRAW($0) }) { return .cameraRAW }
            return .tiff
        case nil:
            if let ext, rawExtensions.contains(ext) { return .cameraRAW }
            return nil
        default:
            return sniffed
        }
    }

    /// Recognises a format from the first bytes of a file; nil when unknown.
    ///
    /// 64 bytes are enough for every format. An MPEG transport stream is recognised from its first packet's
    /// header (the sync byte and a table's packet identifier); given 400 bytes or more, from three packets'
    /// sync bytes wherever the stream starts.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        MediaReadCounter.countSniff()
        let head = Array(bytes.prefix(400))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("HEAPCCDR".utf8), at: 6) || starts(Array("FUJIFILMCCD-RAW".utf8)) || starts(Array("IIRO".utf8))
            || starts(Array("IIRS".utf8)) || starts(Array("MMOR".utf8)) || starts([0x49, 0x49, 0x55, 0x00]) || starts([0x00, 0x4D, 0x52, 0x4D])
            || starts(Array("FOVb".utf8)) || (starts([0x49, 0x49, 0x2A, 0x00]) && starts(Array("CR".utf8), at: 8))
        {
            return .cameraRAW
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let major = String(decoding: head[8..<12], as: UTF8.self)
            var brands = [major]
            var offset = 16
            let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            while offset + 4 <= min(boxSize, head.count) {
                brands.append(String(decoding: head[offset..<(offset + 4)], as: UTF8.self))
                offset += 4
            }
            if major == "avif" || major == "avis" { return .avif }
            if ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains(major) { return .heic }
            if ["mif1", "msf1", "miaf"].contains(major) || brands.contains("mif1") {
                if brands.contains("avif") || brands.contains("avis") { return .avif }
                return .heic
            }
            if major == "jp2 " { return .jpeg2000 }
            if major == "crx " { return .cameraRAW }
            return videoBrand(major: major, brands: brands)
        }
        // QuickTime movies older than the ftyp atom start with one of these atoms.
        if head.count >= 8, ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(String(decoding: head[4..<8], as: UTF8.self)) {
            return .quickTime
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return matroskaDocType(head) }
        if starts(Array("RIFF".utf8)) && starts(Array("AVI ".utf8), at: 8) { return .avi }
        if isTransportStream(head, packetSize: 188, offset: 0) || isTransportStream(head, packetSize: 192, offset: 4) { return .mpegTS }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x42, 0x4D]) && head.count >= 14 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jpegXL }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return .jpeg2000 }
        if starts(Array("%PDF".utf8)) { return .pdf }
        let text = String(
            decoding: head.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }),
            as: UTF8.self)
        if text.hasPrefix("<?xml") || text.hasPrefix("<svg") || text.hasPrefix("<!DOCTYPE svg") { return .svg }
        return nil
    }

    /// The video container an ISO base media file's brands name; nil for other brands (M4A audio, CR3 raw…).
    private static func videoBrand(major: String, brands: [String]) -> ImageFormat? {
        let mp4Brands: Set<String> = [
            "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1", "av01", "M4V ", "M4VH",
            "M4VP", "mmp4", "MSNV", "dash", "f4v ", "XAVC", "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM",
            "NDXP", "NDXS",
        ]
        func is3GPP(_ brand: String) -> Bool { ["3gp", "3g2", "3ge", "3gg", "3gs", "kddi"].contains { brand.hasPrefix($0) } }
        // Audio (M4A, M4B audiobooks, M4P) says so in its major brand, whatever it is compatible with.
        if ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "].contains(major) { return nil }
        if major == "qt  " { return .quickTime }
        if is3GPP(major) { return .threeGPP }
        if mp4Brands.contains(major) { return .mp4 }
        if brands.contains("qt  ") { return .quickTime }
        if brands.contains(where: is3GPP) { return .threeGPP }
        if brands.contains(where: mp4Brands.contains) { return .mp4 }
        return nil
    }

    /// WebM or Matroska, from the EBML header's DocType (Matroska when it is missing or unreadable).
    private static func matroskaDocType(_ head: [UInt8]) -> ImageFormat {
        var i = 4
        while i + 3 < head.count {
            if head[i] == 0x42 && head[i + 1] == 0x82 {
                // The DocType element: a one-byte size (0x80 | length) is what every muxer writes.
                let size = head[i + 2]
                guard size & 0x80 != 0 else { break }
                let length = Int(size & 0x7F)
                let start = i + 3
                guard start + length <= head.count else { break }
                let type = String(decoding: head[start..<(start + length)], as: UTF8.self)
                return type == "webm" ? .webm : .matroska
            }
            i += 1
        }
        return .matroska
    }

    /// Whether `head` starts a transport stream of `packetSize`-byte packets whose sync byte is at `offset`
    /// (188-byte TS; 192-byte M2TS, whose packets start with a 4-byte timestamp): every packet in `head` starts
    /// with 0x47 and there are three of them, or the first carries a table (PAT, CAT, NIT, SDT, EIT, TDT).
    private static func isTransportStream(_ head: [UInt8], packetSize: Int, offset: Int) -> Bool {
        guard head.count >= offset + 4, head[offset] == 0x47 else { return false }
        var syncs = 0
        var position = offset
        while position < head.count {
            if head[position] != 0x47 { return false }
            syncs += 1
            position += packetSize
        }
        if syncs >= 3 { return true }
        let payloadStart = head[offset + 1] & 0x40 != 0
        let transportError = head[offset + 1] & 0x80 != 0
        let pid = Int(head[offset + 1] & 0x1F) << 8 | Int(head[offset + 2])
        let hasPayload = head[offset + 3] & 0x10 != 0
        let scrambled = head[offset + 3] & 0xC0 != 0
        return payloadStart && !transportError && hasPayload && !scrambled && [0x00, 0x01, 0x10, 0x11, 0x12, 0x14].contains(pid)
    }
}
