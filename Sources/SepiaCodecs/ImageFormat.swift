/// An image file format, recognised by its magic bytes (never by file name).
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
    /// TIFF (recognised, not decoded).
    case tiff
    /// JPEG XL (recognised, not decoded).
    case jpegXL = "jxl"
    /// JPEG 2000 (recognised, not decoded).
    case jpeg2000 = "jp2"
    /// SVG or other XML (recognised, never decoded: scripts and external references make it unsafe).
    case svg
    /// PDF (recognised, not decoded).
    case pdf

    /// Whether Sepia decodes this format.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .webp, .heic, .avif: return true
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
        case .jpegXL: return "JPEG XL"
        case .jpeg2000: return "JPEG 2000"
        case .svg: return "SVG"
        case .pdf: return "PDF"
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
        case .jpegXL: return "image/jxl"
        case .jpeg2000: return "image/jp2"
        case .svg: return "image/svg+xml"
        case .pdf: return "application/pdf"
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
        case "jxl": self = .jpegXL
        case "jp2", "j2k": self = .jpeg2000
        case "svg": self = .svg
        case "pdf": self = .pdf
        default: return nil
        }
    }

    /// Recognises a format from the first bytes of a file; nil when unknown.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(64))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
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
            return nil
        }
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
}
