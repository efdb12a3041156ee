internal import CWebP
public import SepiaImage

/// A WebP file: lossy (VP8), lossless (VP8L), with or without alpha, still or animated (the first frame),
/// decoded by libwebp. Still images shrink while decoding (libwebp's area-averaging rescaler) when a render
/// needs a smaller image.
public struct WebPSource: EncodedImage {
    let bytes: EncodedBytes
    let width: Int
    let height: Int
    let alpha: Bool
    let animated: Bool
    let lossless: Bool
    let sourceColor: SourceColor
    /// The WebP's metadata.
    public let metadata: ImageMetadata
    /// Warnings reported while decoding.
    public let decodeWarnings = DecodeWarnings()
    /// The file read.
    public let file: String?

    init(bytes: EncodedBytes, options: DecodeOptions, file: String?) throws(CodecError) {
        let data = bytes.buffer
        guard data.count >= 12 else { throw CodecError(.truncatedData, format: .webp, "the file is too short") }
        func le32(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24 }
        let riffSize = le32(4)
        if riffSize + 8 > data.count {
            throw CodecError(
                .truncatedData, format: .webp, "the file is truncated: the RIFF header declares \(riffSize + 8) bytes, \(data.count) are present")
        }
        var features = WebPBitstreamFeatures()
        let status = cwebp_get_features(bytes.base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == Int32(VP8_STATUS_OK.rawValue) else {
            throw WebPSource.error(status, "cannot read the header")
        }
        try options.checkSize(width: Int(features.width), height: Int(features.height), format: .webp)

        // Metadata chunks of the extended format.
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var icc: [UInt8]?
        var offset = 12
        let end = min(data.count, riffSize + 8)
        while offset + 8 <= end {
            let fourcc = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = le32(offset + 4)
            let start = offset + 8
            guard size >= 0, start + size <= end else { break }
            switch fourcc {
            case "EXIF": exif = bytes[start..<(start + size)]
            case "XMP ": xmp = bytes[start..<(start + size)]
            case "ICCP": icc = bytes[start..<(start + size)]
            default: break
            }
            offset = start + size + (size & 1)
        }
        var budget = options.decodeBudget(width: Int(features.width), height: Int(features.height), format: .webp)
        if features.has_animation != 0 {
            try budget.reserve(
                UInt64(features.width) * UInt64(features.height) * 8,
                for: "an animation on a \(features.width)x\(features.height) canvas, which libwebp keeps twice in RGBA")
        }
        for (name, block) in [("EXIF", exif), ("XMP", xmp), ("ICC profile", icc)] {
            if let block { try budget.reserve(block.count, for: "\(name) metadata of \(block.count) bytes") }
        }
        var metadata = ImageMetadata.assemble(exif: exif, xmp: xmp, photoshop: nil)
        var color = SourceColor.sRGB
        if let icc {
            if let profile = ColorProfile(bytes: icc), profile.model == .rgb {
                metadata.colorProfile = profile.name
                if let converted = profile.sourceColor() {
                    color = converted
                } else {
                    metadata.warnings.append("the ICC profile (\(profile.name)) is not a matrix profile; sRGB is assumed")
                }
            } else {
                metadata.warnings.append("the embedded ICC profile cannot be used; sRGB is assumed")
            }
        }
        self.file = file
        self.bytes = bytes
        width = Int(features.width)
        height = Int(features.height)
        alpha = features.has_alpha != 0
        animated = features.has_animation != 0
        lossless = features.format == 2
        sourceColor = color
        self.metadata = metadata
    }

    /// `.webp`.
    public var format: ImageFormat { .webp }
    /// The canvas size.
    public var pixelSize: IntSize { IntSize(width: width, height: height) }
    /// Whether there is an alpha channel (animations always decode with alpha).
    public var hasAlpha: Bool { alpha || animated }
    /// libwebp can rescale still images while decoding.
    public var decodeScales: [Int] { animated ? [1] : [1, 2, 4, 8] }
    /// EXIF orientation from the EXIF chunk.
    public var orientation: Orientation { Orientation(exifValue: metadata.exifOrientation ?? 1) }
    /// The colour space converted from.
    public var colorSpace: String { metadata.colorProfile ?? "sRGB" }
    /// Lossy or lossless, alpha, animation.
    public var details: [String] {
        var d = [animated ? "animated: first frame" : (lossless ? "lossless" : "lossy")]
        if alpha { d.append("alpha") }
        return d
    }

    /// A libwebp decoder.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        WebPFrameDecoder(source: self, scale: scale)
    }

    static func error(_ status: Int32, _ what: String) -> CodecError {
        switch status {
        case Int32(VP8_STATUS_NOT_ENOUGH_DATA.rawValue):
            return CodecError(.truncatedData, format: .webp, "\(what): the data ends early")
        case Int32(VP8_STATUS_UNSUPPORTED_FEATURE.rawValue):
            return CodecError(.unsupportedFeature, format: .webp, "\(what): the file uses a feature libwebp does not support")
        case Int32(VP8_STATUS_OUT_OF_MEMORY.rawValue):
            return CodecError(.corruptData, format: .webp, "\(what): out of memory")
        default:
            return CodecError(.corruptData, format: .webp, "\(what): corrupt bitstream (libwebp status \(status))")
        }
    }
}

/// Decodes a whole WebP frame, or an animation's first frame.
final class WebPFrameDecoder: WholeFrameDecoder {
    private let source: WebPSource
    private let scale: Int

    init(source: WebPSource, scale: Int) {
        self.source = source
        self.scale = scale
        super.init(
            size: IntSize(width: (source.width + scale - 1) / scale, height: (source.height + scale - 1) / scale),
            format: source.hasAlpha ? .rgba8 : .rgb8, color: source.sourceColor, file: source.file)
    }

    override func decodeFrame(into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) {
        let bytes = source.bytes
        if source.animated {
            var options = WebPAnimDecoderOptions()
            guard cwebp_anim_decoder_options_init(&options) != 0 else {
                throw CodecError(.corruptData, format: .webp, "libwebp version mismatch")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 1
            guard let decoder = cwebp_anim_decoder_new(bytes.base.assumingMemoryBound(to: UInt8.self), bytes.count, &options) else {
                throw CodecError(.corruptData, format: .webp, "cannot read the animation")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw CodecError(.corruptData, format: .webp, "cannot decode the first frame of the animation")
            }
            base.copyMemory(from: canvas, byteCount: size.height * bytesPerRow)
            return
        }
        var config = WebPDecoderConfig()
        guard cwebp_init_decoder_config(&config) != 0 else {
            throw CodecError(.corruptData, format: .webp, "libwebp version mismatch")
        }
        config.options.use_threads = 1
        if scale > 1 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        config.output.colorspace = format == .rgba8 ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = base.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(bytesPerRow)
        config.output.u.RGBA.size = size.height * bytesPerRow
        let status = WebPDecode(bytes.base.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw WebPSource.error(Int32(status.rawValue), "cannot decode the image") }
    }

}
