public import SepiaCodecs
public import SepiaImage

/// Names one rendition of one version of an asset: a thumbnail or preview made for a target size and mode.
public struct RenditionKey: Sendable, Hashable, CustomStringConvertible {
    /// The asset.
    public var assetID: String
    /// The asset's version (``Asset/contentVersion``): `original` or an adjustment's identifier.
    public var version: String
    /// The target size the rendition was made for.
    public var size: IntSize
    /// How it fits the target size.
    public var mode: ContentMode
    /// The encoding: JPEG (the default) or WebP.
    public var format: ImageFormat

    /// A key.
    public init(assetID: String, version: String, size: IntSize, mode: ContentMode, format: ImageFormat = .jpeg) {
        self.assetID = assetID
        self.version = version
        self.size = size
        self.mode = mode
        self.format = format == .webp ? .webp : .jpeg
    }

    /// The file name in the asset's cache folder: `<version>-<mode>-<W>x<H>.jpg` (or `.webp`).
    var fileName: String { "\(version)-\(mode.rawValue)-\(size.width)x\(size.height).\(format == .webp ? "webp" : "jpg")" }

    /// The key a cache file name stands for.
    init?(assetID: String, fileName: String) {
        let format: ImageFormat
        let stem: Substring
        if fileName.hasSuffix(".jpg") {
            format = .jpeg
            stem = fileName.dropLast(4)
        } else if fileName.hasSuffix(".webp") {
            format = .webp
            stem = fileName.dropLast(5)
        } else {
            return nil
        }
        let parts = stem.split(separator: "-")
        guard parts.count >= 3, let mode = ContentMode(rawValue: String(parts[parts.count - 2])) else { return nil }
        let dimensions = parts[parts.count - 1].split(separator: "x")
        guard dimensions.count == 2, let w = Int(dimensions[0]), let h = Int(dimensions[1]), w > 0, h > 0 else { return nil }
        self.init(
            assetID: assetID, version: parts[0..<(parts.count - 2)].joined(separator: "-"), size: IntSize(width: w, height: h),
            mode: mode, format: format)
    }

    /// `<asset id>/<file name>`.
    public var description: String { "\(assetID)/\(fileName)" }
}

/// An encoded image the store keeps: a JPEG (or WebP) and its pixel size.
public struct Rendition: Sendable, Hashable {
    /// The encoded bytes.
    public let data: [UInt8]
    /// Its size in pixels.
    public let pixelSize: IntSize
    /// How the bytes are encoded: JPEG or WebP.
    public let format: ImageFormat
    /// A hash of the bytes (32 hexadecimal digits of their SHA-256): equal tags mean equal bytes, so it is a
    /// strong HTTP entity tag.
    public let contentTag: String

    /// A rendition of `data`, whose size is `pixelSize`, encoded as `format`.
    public init(data: [UInt8], pixelSize: IntSize, format: ImageFormat = .jpeg) {
        self.data = data
        self.pixelSize = pixelSize
        self.format = format
        contentTag = String(ContentHash.of(data).prefix(32))
    }

    /// The rendition as an image, to filter or render further.
    public func image() throws(CodecError) -> Image {
        try ImageDecoding.open(EncodedBytes(data)).image
    }

    /// The bytes it costs in memory.
    var cost: Int { data.count + 128 }
}
