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

    /// A key.
    public init(assetID: String, version: String, size: IntSize, mode: ContentMode) {
        self.assetID = assetID
        self.version = version
        self.size = size
        self.mode = mode
    }

    /// The file name in the asset's cache folder: `<version>-<mode>-<W>x<H>.jpg`.
    var fileName: String { "\(version)-\(mode.rawValue)-\(size.width)x\(size.height).jpg" }

    /// The key a cache file name stands for.
    init?(assetID: String, fileName: String) {
        guard fileName.hasSuffix(".jpg") else { return nil }
        let parts = fileName.dropLast(4).split(separator: "-")
        guard parts.count >= 3, let mode = ContentMode(rawValue: String(parts[parts.count - 2])) else { return nil }
        let dimensions = parts[parts.count - 1].split(separator: "x")
        guard dimensions.count == 2, let w = Int(dimensions[0]), let h = Int(dimensions[1]), w > 0, h > 0 else { return nil }
        self.init(
            assetID: assetID, version: parts[0..<(parts.count - 2)].joined(separator: "-"), size: IntSize(width: w, height: h),
            mode: mode)
    }

    /// `<asset id>/<file name>`.
    public var description: String { "\(assetID)/\(fileName)" }
}

/// An encoded image the store keeps: a JPEG and its pixel size.
public struct Rendition: Sendable, Hashable {
    /// The JPEG bytes.
    public let data: [UInt8]
    /// Its size in pixels.
    public let pixelSize: IntSize

    /// A rendition of `data`, whose size is `pixelSize`.
    public init(data: [UInt8], pixelSize: IntSize) {
        self.data = data
        self.pixelSize = pixelSize
    }

    /// The rendition as an image, to filter or render further.
    public func image() throws(CodecError) -> Image {
        try ImageDecoding.open(EncodedBytes(data)).image
    }

    /// The bytes it costs in memory.
    var cost: Int { data.count + 64 }
}
