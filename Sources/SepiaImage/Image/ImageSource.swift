/// Where an ``Image``'s pixels come from: an encoded file that a codec can decode row by row.
///
/// `SepiaImage` knows no file formats; `SepiaCodecs` provides sources for JPEG, PNG, WebP and HEIF/AVIF.
/// A source only describes the image (reading its header is cheap); pixels are decoded when a
/// ``RenderContext`` renders, through a ``RowDecoder``.
public protocol ImageSource: Sendable {
    /// The size of the image as stored (before any orientation), at full resolution.
    var pixelSize: IntSize { get }
    /// Whether the image may have transparent pixels.
    var hasAlpha: Bool { get }
    /// The reduction factors the codec can apply while decoding (JPEG's DCT scaling offers 1, 2, 4, 8).
    /// A decoder created with factor `s` delivers `ceil(width / s)` × `ceil(height / s)` pixels.
    var decodeScales: [Int] { get }
    /// Creates a decoder for the image reduced by `scale`, one of ``decodeScales``.
    func makeDecoder(scale: Int) throws -> any RowDecoder
}

/// Decodes an image's rows from top to bottom. Used by one thread at a time.
public protocol RowDecoder: AnyObject {
    /// The size of the decoded image.
    var size: IntSize { get }
    /// The layout of the rows.
    var format: SourcePixelFormat { get }
    /// How the samples map to the working space.
    var color: SourceColor { get }
    /// Whether rows are produced incrementally. When false the codec decodes the whole frame at once, and the
    /// engine keeps it for random access.
    var decodesIncrementally: Bool { get }
    /// Decodes the next rows into `buffer`, `bytesPerRow` apart, as many as fit. Returns how many rows were
    /// written; 0 means the image has no more rows.
    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int
}
