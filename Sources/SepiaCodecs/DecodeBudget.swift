/// The memory one decode may set aside for the buffers its file's header declares, and what it has set aside
/// so far: each decoder reserves a buffer's size, as the header declares it, before allocating it, and a
/// reservation past the budget is refused with a ``CodecError`` that says what the file declares, the budget
/// and how to raise it.
///
/// The pixel limit bounds the image; the budget bounds what decoding it costs besides: a TIFF declaring a
/// 64×64 image in 65536×65536 tiles has few pixels, but a tile of 12 GB. By default the budget is the declared
/// image's own frame at the widest working pixel (width × height × ``bytesPerPixel``), at least
/// ``minimumBytes`` and at most ``DecodeOptions/maximumDecodeBytes`` (the pixel limit's frame): what an honest
/// file of that size needs, and never more than the largest image accepted needs. When
/// ``DecodeOptions/maximumDecodeBytes`` is set, it is the budget, whatever the image's size.
package struct DecodeBudget: Sendable {
    /// The widest pixel a decode works in: 16-bit RGBA.
    package static let bytesPerPixel = 8
    /// The least budget, for small images: their tiles or strips may be somewhat larger than the image.
    package static let minimumBytes = 64 << 20

    /// The bytes this decode may reserve.
    package let limit: Int
    /// The bytes reserved so far.
    package private(set) var reserved = 0
    private let format: ImageFormat
    private let width: Int
    private let height: Int
    private let followsImage: Bool

    init(width: Int, height: Int, options: DecodeOptions, format: ImageFormat) {
        self.format = format
        self.width = width
        self.height = height
        if let fixed = options.decodeBytesOverride {
            limit = max(0, fixed)
            followsImage = false
        } else {
            let pixels = width.multipliedReportingOverflow(by: height)
            let frame = pixels.partialValue.multipliedReportingOverflow(by: Self.bytesPerPixel)
            let imageBytes = pixels.overflow || frame.overflow ? Int.max : frame.partialValue
            limit = min(options.maximumDecodeBytes, max(Self.minimumBytes, imageBytes))
            followsImage = true
        }
    }

    /// Reserves `bytes` for `what` (words that finish "the file declares …", e.g. "tiles of 65536x65536 pixels"),
    /// or throws ``CodecError/Code/limitExceeded`` when the budget cannot hold them.
    package mutating func reserve(_ bytes: UInt64, for what: String) throws(CodecError) {
        let total = UInt64(reserved).addingReportingOverflow(bytes)
        guard !total.overflow, total.partialValue <= UInt64(limit) else {
            let declared = Self.text(bytes)
            let before = reserved > 0 ? ", after \(Self.text(UInt64(reserved))) already set aside" : ""
            let basis =
                followsImage
                ? "the budget of a \(width)x\(height) image (its frame at \(Self.bytesPerPixel) bytes a pixel, at least "
                    + "\(Self.text(UInt64(Self.minimumBytes))), at most the pixel limit's frame)"
                : "the decode memory limit"
            throw CodecError(
                .limitExceeded, format: format,
                "the file declares \(what), which needs \(declared) of memory to decode\(before): more than \(Self.text(UInt64(limit))), "
                    + "\(basis); the file is refused before that memory is allocated. To accept it, raise the decode memory limit "
                    + "(maximumDecodeBytes, or sepia's --max-decode-bytes)")
        }
        reserved = Int(total.partialValue)
    }

    /// Reserves `bytes` for `what`; a negative count is taken as none.
    package mutating func reserve(_ bytes: Int, for what: String) throws(CodecError) {
        try reserve(UInt64(max(0, bytes)), for: what)
    }

    /// `12.9 GB`, `81.9 MB`, `64 MiB`-style sizes: whole mebibytes below a gibibyte as such, the rest in powers of
    /// ten, exact bytes below a kilobyte.
    static func text(_ bytes: UInt64) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes % (1 << 20) == 0 && bytes < (1 << 30) { return "\(bytes >> 20) MiB" }
        let units: [(Double, String)] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        let value = Double(bytes)
        for (scale, unit) in units where value >= scale {
            let scaled = value / scale
            return (scaled >= 100 ? String(Int(scaled.rounded())) : String((scaled * 10).rounded() / 10)) + " " + unit
        }
        return "\(bytes) bytes"
    }
}
