/// An image held as 8-bit sRGB-encoded samples with straight (not premultiplied) alpha: what codecs read
/// and write and what an app displays.
///
/// Rows are tightly packed: `bytesPerRow == width * layout.channels`.
public struct Bitmap: Sendable, Hashable {
    /// The channels of each pixel, in memory order.
    public enum Layout: Int, Sendable, Hashable, Codable, CaseIterable {
        /// One luminance sample.
        case gray = 1
        /// Luminance and alpha.
        case grayAlpha = 2
        /// Red, green, blue.
        case rgb = 3
        /// Red, green, blue, alpha.
        case rgba = 4

        /// Samples per pixel.
        public var channels: Int { rawValue }
        /// Whether the layout carries alpha.
        public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }
        /// Whether the layout carries colour.
        public var hasColor: Bool { self == .rgb || self == .rgba }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Channel layout.
    public let layout: Layout
    /// The samples, row by row.
    public var bytes: [UInt8]

    /// Bytes per row.
    public var bytesPerRow: Int { width * layout.channels }

    /// Creates a bitmap from samples; `bytes.count` must be `width * height * layout.channels`.
    public init(width: Int, height: Int, layout: Layout, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0, "a bitmap cannot have a negative size")
        precondition(bytes.count == width * height * layout.channels, "sample count does not match the size")
        self.width = width
        self.height = height
        self.layout = layout
        self.bytes = bytes
    }

    /// Creates a bitmap filled with zeros.
    public init(width: Int, height: Int, layout: Layout) {
        self.init(width: width, height: height, layout: layout, bytes: [UInt8](repeating: 0, count: width * height * layout.channels))
    }

    /// The size in pixels.
    public var size: IntSize { IntSize(width: width, height: height) }

    /// The samples of the pixel at (`x`, `y`), expanded to RGBA (gray is replicated, missing alpha is 255).
    public func rgba(x: Int, y: Int) -> SIMD4<UInt8> {
        let i = (y * width + x) * layout.channels
        switch layout {
        case .gray: return SIMD4(bytes[i], bytes[i], bytes[i], 255)
        case .grayAlpha: return SIMD4(bytes[i], bytes[i], bytes[i], bytes[i + 1])
        case .rgb: return SIMD4(bytes[i], bytes[i + 1], bytes[i + 2], 255)
        case .rgba: return SIMD4(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
        }
    }
}
