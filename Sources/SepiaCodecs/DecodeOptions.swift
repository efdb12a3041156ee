/// Limits and strictness for decoding untrusted files. The limits are on by default.
public struct DecodeOptions: Sendable, Hashable {
    /// The most pixels (width × height as declared in the header) an image may have. Checked from the header,
    /// before any pixel memory is allocated. Default: 100 megapixels.
    public var maximumPixels: Int
    /// The longest side an image may have. Default: 65,535.
    public var maximumDimension: Int
    /// The largest file accepted, in bytes. Default: 256 MiB.
    public var maximumFileBytes: Int
    /// The most scans a progressive JPEG may have (each is a pass over the whole image). Default: 500.
    public var maximumProgressiveScans: Int
    /// When true, data the decoder would have to repair (a truncated JPEG padded with grey, corrupt entropy
    /// data) is an error. Uploads use strict mode; by default damage is tolerated and reported as warnings.
    public var strict: Bool
    /// When true (the default), a progressive JPEG decoded at 1/8 scale reads only its DC scans: the AC scans,
    /// most of the file, are skipped by their markers instead of Huffman-decoded. Luma is then exact; the
    /// chroma of subsampled files loses detail within 2x2 output pixels (libjpeg's block smoothing estimates
    /// it). Strict mode always decodes every scan, so damage anywhere is found.
    public var progressiveDCShortcut: Bool
    /// When true (the default) and the machine has two cores or more, a whole progressive JPEG has its scans
    /// Huffman-decoded on two threads where the file's progression lets them overlap. The pixels are the same
    /// either way; a batch that already decodes one file per core may turn it off to save the threads' overhead.
    public var parallelProgressiveScans: Bool
    /// The memory every decode may set aside for the buffers a file's header declares (a TIFF's tiles or
    /// strips, libjpeg's coefficients, a HEIF's grid tiles and alpha, a WebP animation's canvases, a RAW file's
    /// sensor data, the ICC, EXIF and XMP blocks), checked from the header before any of it is allocated.
    ///
    /// Unless set, it follows the image and the pixel limit: the bytes of the declared image's own frame at the
    /// widest working pixel (width × height × 8, a 16-bit RGBA frame), at least 64 MiB, and at most the pixel
    /// limit's frame (``maximumPixels`` × 8: 800 MB at the default 100 MP). See ``DecodeBudget``. Set, it is the
    /// budget of every decode, whatever the image's size: the way to accept a file whose buffers are larger than
    /// its image (a small image in huge tiles) or than the default ceiling.
    public var maximumDecodeBytes: Int {
        get {
            if let decodeBytesOverride { return decodeBytesOverride }
            let frame = maximumPixels.multipliedReportingOverflow(by: DecodeBudget.bytesPerPixel)
            return frame.overflow ? .max : frame.partialValue
        }
        set { decodeBytesOverride = newValue }
    }
    /// ``maximumDecodeBytes`` when it was set; nil when it follows the image and the pixel limit.
    public private(set) var decodeBytesOverride: Int?

    /// Creates options; the defaults are the limits above, lenient. `maximumDecodeBytes` nil follows the image
    /// and `maximumPixels` (see ``maximumDecodeBytes``).
    public init(
        maximumPixels: Int = 100_000_000, maximumDimension: Int = 65_535, maximumFileBytes: Int = 256 << 20,
        maximumProgressiveScans: Int = 500, strict: Bool = false, progressiveDCShortcut: Bool = true,
        parallelProgressiveScans: Bool = true, maximumDecodeBytes: Int? = nil
    ) {
        self.decodeBytesOverride = maximumDecodeBytes
        self.progressiveDCShortcut = progressiveDCShortcut
        self.parallelProgressiveScans = parallelProgressiveScans
        self.maximumPixels = maximumPixels
        self.maximumDimension = maximumDimension
        self.maximumFileBytes = maximumFileBytes
        self.maximumProgressiveScans = maximumProgressiveScans
        self.strict = strict
    }

    /// Throws unless a `width × height` image is within the limits.
    package func checkSize(width: Int, height: Int, format: ImageFormat) throws(CodecError) {
        guard width > 0, height > 0 else {
            throw CodecError(.corruptData, format: format, "the header declares an empty image (\(width)x\(height))")
        }
        if width > maximumDimension || height > maximumDimension {
            throw CodecError(
                .tooManyPixels, format: format,
                "the image is \(width)x\(height) pixels, larger than the limit of \(maximumDimension) pixels per side")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maximumPixels {
            let mp = Double(width) * Double(height) / 1e6
            throw CodecError(
                .tooManyPixels, format: format,
                "the image is \(width)x\(height) (\(Self.megapixels(mp)) MP), more than the limit of \(Self.megapixels(Double(maximumPixels) / 1e6)) MP; raise the pixel limit to accept it"
            )
        }
    }

    /// The memory budget of decoding a `width × height` image (see ``maximumDecodeBytes``).
    package func decodeBudget(width: Int, height: Int, format: ImageFormat) -> DecodeBudget {
        DecodeBudget(width: width, height: height, options: self, format: format)
    }

    private static func megapixels(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
