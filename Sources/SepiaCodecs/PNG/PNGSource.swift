internal import CPNG
public import SepiaImage

/// A PNG file (every colour type and bit depth, palettes, transparency, Adam7 interlacing; an APNG's default
/// image), decoded by libpng's simplified API into a whole frame.
///
/// 8-bit images decode to sRGB-encoded samples (libpng applies gAMA/cHRM when there is no ICC profile);
/// 16-bit images decode to 16-bit linear light, keeping their precision.
public struct PNGSource: EncodedImage {
    let bytes: EncodedBytes
    let header: PNGHeader
    let sourceColor: SourceColor
    let rowTransform: RowColorTransform?
    /// The PNG's metadata.
    public let metadata: ImageMetadata
    /// Warnings reported while decoding.
    public let decodeWarnings = DecodeWarnings()
    /// The file read.
    public let file: String?

    init(bytes: EncodedBytes, options: DecodeOptions, file: String?) throws(CodecError) {
        let header = try PNGHeader.parse(bytes, lenient: !options.strict)
        try options.checkSize(width: header.width, height: header.height, format: .png)
        var budget = options.decodeBudget(width: header.width, height: header.height, format: .png)
        for (name, block) in [("EXIF", header.exif), ("XMP", header.xmp), ("ICC profile", header.icc)] {
            if let block { try budget.reserve(block.count, for: "\(name) metadata of \(block.count) bytes") }
        }
        var metadata = ImageMetadata.assemble(exif: header.exif, xmp: header.xmp, photoshop: nil)
        metadata.warnings += header.problems
        if let problem = header.iccProblem { metadata.warnings.append(problem) }
        var color = SourceColor.sRGB
        var transform: RowColorTransform?
        if let icc = header.icc {
            if let profile = ColorProfile(bytes: icc) {
                metadata.colorProfile = profile.name
                let expected: ColorProfile.Model = header.isColor ? .rgb : .gray
                if profile.model != expected {
                    metadata.warnings.append("the ICC profile (\(profile.name)) does not match the image's colour type; it is ignored")
                } else if let converted = profile.sourceColor() {
                    color = converted
                } else if header.bitDepth != 16, !header.hasAlpha, let rows = profile.makeRowTransform() {
                    transform = rows
                    color = SourceColor(name: profile.name, curves: SourceColor.sRGB.curves, matrix: nil)
                } else {
                    metadata.warnings.append("the ICC profile (\(profile.name)) cannot be applied to this image; sRGB is assumed")
                }
            } else {
                metadata.warnings.append("the embedded ICC profile cannot be read; sRGB is assumed")
            }
        }
        self.file = file
        self.bytes = bytes
        self.header = header
        self.sourceColor = color
        self.rowTransform = transform
        self.metadata = metadata
    }

    /// `.png`.
    public var format: ImageFormat { .png }
    /// IHDR's size.
    public var pixelSize: IntSize { IntSize(width: header.width, height: header.height) }
    /// Alpha channel or tRNS.
    public var hasAlpha: Bool { header.hasAlpha }
    /// Full size only.
    public var decodeScales: [Int] { [1] }
    /// EXIF orientation from an eXIf chunk, if any.
    public var orientation: Orientation { Orientation(exifValue: metadata.exifOrientation ?? 1) }
    /// The colour space converted from.
    public var colorSpace: String { metadata.colorProfile ?? (header.isColor ? "sRGB" : "Gray") }
    /// Colour type, depth, interlacing, animation.
    public var details: [String] {
        let kinds = [0: "grayscale", 2: "truecolour", 3: "palette", 4: "grayscale + alpha", 6: "truecolour + alpha"]
        var d = ["\(kinds[header.colorType] ?? "?") \(header.bitDepth)-bit"]
        if header.hasTransparencyChunk { d.append("tRNS transparency") }
        if header.interlaced { d.append("Adam7 interlaced") }
        if header.isAnimated { d.append("animated (\(header.frameCount) frames): default image") }
        return d
    }

    /// A row-streaming decoder for plain 8-bit PNGs (``PNGRowDecoder``), otherwise a whole-frame libpng decoder.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        PNGRowDecoder.handles(header) ? PNGRowDecoder(source: self) : PNGFrameDecoder(source: self)
    }
}

/// Decodes the whole PNG with libpng's simplified API.
final class PNGFrameDecoder: WholeFrameDecoder {
    private let source: PNGSource

    init(source: PNGSource) {
        self.source = source
        let h = source.header
        let format: SourcePixelFormat
        if h.bitDepth == 16 {
            format = .rgba16LinearPremultiplied
        } else if h.isColor {
            format = h.hasAlpha ? .rgba8 : .rgb8
        } else {
            format = h.hasAlpha ? .grayAlpha8 : .gray8
        }
        super.init(size: source.pixelSize, format: format, color: source.sourceColor, file: source.file)
    }

    private var pngFormat: UInt32 {
        switch format {
        case .rgba16LinearPremultiplied: return UInt32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        case .rgba8: return UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        case .rgb8: return UInt32(PNG_FORMAT_FLAG_COLOR)
        case .grayAlpha8: return UInt32(PNG_FORMAT_FLAG_ALPHA)
        case .gray8: return 0
        }
    }

    override func decodeFrame(into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) {
        let stream = source.header.minimalStream(from: source.bytes, keepColorChunks: source.header.icc == nil)
        var image = png_image()
        image.version = cpng_image_version()
        defer { png_image_free(&image) }
        let began = stream.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw failure(image) }
        image.format = pngFormat
        let rowComponents = Int(cpng_image_row_stride(&image))
        let componentBytes = format == .rgba16LinearPremultiplied ? 2 : 1
        guard rowComponents * componentBytes == bytesPerRow else {
            throw CodecError(.corruptData, format: .png, "unexpected row size \(rowComponents * componentBytes), expected \(bytesPerRow)")
        }
        let finished = stream.withUnsafeBytes { _ in
            png_image_finish_read(&image, nil, base, Int32(rowComponents), nil)
        }
        guard finished != 0 else { throw failure(image) }
        if cpng_image_is_warning(&image) != 0 {
            source.decodeWarnings.add(Self.message(image))
        }
        if let transform = source.rowTransform {
            for y in 0..<size.height {
                let row = base + y * bytesPerRow
                transform.convert(UnsafeRawPointer(row), into: row, count: size.width)
            }
        }
    }

    private static func message(_ image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private func failure(_ image: png_image) -> CodecError {
        let text = Self.message(image)
        let lower = text.lowercased()
        if lower.contains("read error") || lower.contains("truncat") || lower.contains("not enough") {
            return CodecError(.truncatedData, format: .png, "the image data is incomplete (\(text))")
        }
        return CodecError(.corruptData, format: .png, "corrupt data: \(text)")
    }
}
