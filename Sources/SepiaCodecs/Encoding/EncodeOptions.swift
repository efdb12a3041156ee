/// How to encode an output image.
public struct EncodeOptions: Sendable, Hashable {
    /// JPEG and lossy WebP quality, 1–100. Default 85.
    public var quality: Int
    /// JPEG chroma subsampling: 4:2:0 below quality 90, 4:4:4 from 90 up (as libvips does), unless set.
    public var chromaSubsampling: ChromaSubsampling?
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// Compute optimal JPEG Huffman tables (smaller files, slower).
    public var optimizeCoding: Bool
    /// Encode WebP losslessly.
    public var lossless: Bool

    /// JPEG chroma subsampling.
    public enum ChromaSubsampling: Int, Sendable, Hashable, Codable {
        /// Full-resolution colour.
        case s444 = 444
        /// Half horizontal colour resolution.
        case s422 = 422
        /// Half horizontal and vertical colour resolution.
        case s420 = 420
    }

    /// Creates options; quality is clamped to 1–100.
    public init(
        quality: Int = 85, chromaSubsampling: ChromaSubsampling? = nil, progressive: Bool = false,
        optimizeCoding: Bool = false, lossless: Bool = false
    ) {
        self.quality = min(max(quality, 1), 100)
        self.chromaSubsampling = chromaSubsampling
        self.progressive = progressive
        self.optimizeCoding = optimizeCoding
        self.lossless = lossless
    }

    var effectiveSubsampling: ChromaSubsampling {
        chromaSubsampling ?? (quality >= 90 ? .s444 : .s420)
    }
}
