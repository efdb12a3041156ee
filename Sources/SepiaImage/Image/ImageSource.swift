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
    /// The reductions the codec can apply while decoding (JPEG's DCT scaling offers 1, 2, 4, 8; a HEIF file
    /// may hold a smaller copy of the image). ``reduction(scale:)`` says what each one delivers.
    var decodeScales: [Int] { get }
    /// What a decoder created with `scale`, one of ``decodeScales``, delivers. By default the image reduced
    /// while decoding: `ceil(width / s)` × `ceil(height / s)` pixels.
    func reduction(scale: Int) -> DecodeReduction
    /// Creates a decoder for the image reduced by `scale`, one of ``decodeScales``.
    func makeDecoder(scale: Int) throws -> any RowDecoder
    /// Creates a decoder for the image reduced by `scale` of which the render reads only `region` (in the
    /// decoded image's pixels). The decoder still delivers every row at full width, but may leave the pixels
    /// outside `region` unset, and skip the work of decoding them (a HEIF grid's tiles outside a crop).
    func makeDecoder(scale: Int, region: IntRect) throws -> any RowDecoder
}

/// What a reduced decode of an ``ImageSource`` delivers, for the resize planner to choose the cheapest one
/// that keeps the quality.
public struct DecodeReduction: Sendable, Equatable {
    /// The pixels the decoder delivers.
    public var size: IntSize
    /// The whole image measured in those pixels. A decode-time reduction rounds partial blocks up, so its
    /// ``size`` may be a fraction of a pixel larger than the image it covers.
    public var span: SIMD2<Double>
    /// The least reduction still to be made by the resampler for the result to match a resize of the full
    /// image: a decode-time reduction (a block average) leaves at least 2×, as libvips' thumbnailer does; a
    /// stored thumbnail made by the camera may be used down to its own size (1×).
    public var minimumResize: Double
    /// The work of decoding one of its pixels, relative to the source's other reductions (1 by default): a RAW
    /// file's development costs far more per pixel than its embedded JPEG preview, which the planner then
    /// prefers even when it is larger.
    public var costPerPixel: Double

    /// Creates a description of a reduced decode.
    public init(size: IntSize, span: SIMD2<Double>, minimumResize: Double, costPerPixel: Double = 1) {
        self.size = size
        self.span = span
        self.minimumResize = minimumResize
        self.costPerPixel = costPerPixel
    }

    /// The image reduced by `scale` while decoding.
    public static func decodeTime(_ full: IntSize, scale: Int) -> DecodeReduction {
        DecodeReduction(
            size: IntSize(width: (full.width + scale - 1) / scale, height: (full.height + scale - 1) / scale),
            span: SIMD2(Double(full.width), Double(full.height)) / Double(scale),
            minimumResize: scale == 1 ? 1 : 2)
    }
}

extension ImageSource {
    /// The image reduced by `scale` while decoding.
    public func reduction(scale: Int) -> DecodeReduction { .decodeTime(pixelSize, scale: scale) }

    /// Decodes the whole image: codecs that cannot skip work outside a region need not implement it.
    public func makeDecoder(scale: Int, region: IntRect) throws -> any RowDecoder { try makeDecoder(scale: scale) }
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
