internal import CTIFF
public import SepiaImage

/// A TIFF file (scanners' and editing tools' output: 1 to 16 bits, grey, RGB, palette, CMYK, YCbCr, strips or
/// tiles, every compression libtiff reads), decoded by libtiff's RGBA interface into a whole frame. A multi-page
/// file shows its first page.
///
/// The samples arrive as 8-bit RGBA; an embedded RGB or grey ICC profile is applied as for JPEG and PNG. The
/// ``orientation`` tag is applied by the engine, as EXIF's is.
public struct TIFFSource: EncodedImage {
    let bytes: EncodedBytes
    let info: TIFFPage
    let sourceColor: SourceColor
    /// A CMYK profile's conversion to sRGB, when the file has one.
    let cmykTransform: RowColorTransform?
    /// The TIFF's metadata: its first IFD is read as EXIF.
    public let metadata: ImageMetadata
    /// Warnings reported while decoding.
    public let decodeWarnings = DecodeWarnings()
    /// The file read.
    public let file: String?
    let options: DecodeOptions
    /// What decoding the first page may allocate: no single allocation of libtiff's may exceed it.
    let budget: DecodeBudget

    init(bytes: EncodedBytes, options: DecodeOptions, file: String?) throws(CodecError) {
        let opened = try TIFFHandle(bytes: bytes, maximumAllocation: options.maximumDecodeBytes, file: file)
        var info = sepia_tiff_info()
        sepia_tiff_get_info(opened.tiff, &info)
        try options.checkSize(width: Int(info.width), height: Int(info.height), format: .tiff)
        var budget = options.decodeBudget(width: Int(info.width), height: Int(info.height), format: .tiff)
        try budget.reserve(info.chunk_bytes, for: Self.describeChunks(info))
        try budget.reserve(Int(info.icc_length), for: "an ICC profile of \(info.icc_length) bytes")
        try budget.reserve(Int(info.xmp_length), for: "an XMP packet of \(info.xmp_length) bytes")
        if TIFFPage(info).storedChannels != nil {
            // The rows ``TIFFRowDecoder`` takes from libtiff at a time, as stored.
            let band = UInt64(min(info.height, 64)) * UInt64(info.width) * UInt64(info.samples_per_pixel) * UInt64(info.bits_per_sample / 8)
            try budget.reserve(band, for: "\(info.samples_per_pixel) samples a pixel (\(info.bits_per_sample)-bit) in rows of \(info.width) pixels")
        }
        self.budget = budget
        guard info.sample_format <= 1 || info.bits_per_sample == 8 else {
            throw CodecError(
                .unsupportedFeature, format: .tiff,
                "the samples are \(info.bits_per_sample)-bit floating point or signed, which Sepia does not decode",
                file: file)
        }
        // The XMP packet (tag 700) as Lightroom, Photoshop and scanners' software write it; one over 4 MiB is left out
        // (an XMP reader refuses it anyway).
        let xmp = info.xmp.flatMap { info.xmp_length <= 4 << 20 ? Array(UnsafeBufferPointer(start: $0, count: Int(info.xmp_length))) : nil }
        var metadata = bytes.withUnsafeBytes { ImageMetadata.assemble(exif: Array($0.prefix(1 << 20)), xmp: xmp, photoshop: nil) }
        metadata.exifOrientation = Int(info.orientation)
        var color = SourceColor.sRGB
        if let icc = info.icc, info.icc_length > 0 {
            let profileBytes = Array(UnsafeBufferPointer(start: icc, count: Int(info.icc_length)))
            if let profile = ColorProfile(bytes: profileBytes) {
                metadata.colorProfile = profile.name
                if profile.model == .cmyk {
                    metadata.warnings.append("the CMYK profile (\(profile.name)) is not applied; the inks are converted without it")
                } else if let converted = profile.sourceColor() {
                    color = converted
                } else {
                    metadata.warnings.append("the ICC profile (\(profile.name)) cannot be applied to this image; sRGB is assumed")
                }
            } else {
                metadata.warnings.append("the embedded ICC profile cannot be read; sRGB is assumed")
            }
        }
        let page = TIFFPage(info)
        var transform: RowColorTransform?
        if page.storedChannels == 4, let icc = info.icc, info.icc_length > 0 {
            let profileBytes = Array(UnsafeBufferPointer(start: icc, count: Int(info.icc_length)))
            if let profile = ColorProfile(bytes: profileBytes), profile.model == .cmyk {
                transform = profile.makeRowTransform()
                metadata.warnings.removeAll { $0.hasPrefix("the CMYK profile") }
            }
        }
        self.bytes = bytes
        self.info = page
        self.cmykTransform = transform
        self.sourceColor = color
        self.metadata = metadata
        self.file = file
        self.options = options
    }

    /// What the buffers of ``sepia_tiff_info/chunk_bytes`` hold, in words: "tiles of 65536x65536 pixels (8-bit,
    /// 3 samples a pixel)".
    static func describeChunks(_ info: sepia_tiff_info) -> String {
        let samples = "\(info.bits_per_sample)-bit, \(info.samples_per_pixel) sample\(info.samples_per_pixel == 1 ? "" : "s") a pixel"
        let planes = info.planar == 2 ? ", one plane each" : ""
        if info.tiled != 0 {
            let across = info.tile_width == 0 ? 0 : (UInt64(info.width) + UInt64(info.tile_width) - 1) / UInt64(info.tile_width)
            let row = across > 1 ? ", \(across) of them across the image" : ""
            return "tiles of \(info.tile_width)x\(info.tile_length) pixels for a \(info.width)x\(info.height) image (\(samples)\(planes)\(row))"
        }
        let rows = min(info.rows_per_strip, info.height)
        return "strips of \(rows) rows of \(info.width) pixels (\(samples)\(planes))"
    }

    /// `.tiff`.
    public var format: ImageFormat { .tiff }
    /// The first page's size.
    public var pixelSize: IntSize { IntSize(width: Int(info.width), height: Int(info.height)) }
    /// An extra sample marked as alpha.
    public var hasAlpha: Bool { info.alpha && info.storedChannels != 4 }
    /// The orientation tag.
    public var orientation: Orientation { Orientation(exifValue: Int(info.orientation)) }
    /// The ICC profile's name, or sRGB.
    public var colorSpace: String { metadata.colorProfile ?? "sRGB" }
    /// Photometric, bits, compression, pages.
    public var details: [String] {
        let photometric: [UInt16: String] = [
            0: "grey (white is zero)", 1: "grey", 2: "RGB", 3: "palette", 4: "mask", 5: "CMYK", 6: "YCbCr", 8: "CIE L*a*b*",
        ]
        let compression: [UInt16: String] = [
            1: "uncompressed", 5: "LZW", 7: "JPEG", 8: "Deflate", 32946: "Deflate", 32773: "PackBits", 34925: "LZMA", 50000: "Zstandard",
            50001: "WebP", 4: "CCITT G4", 3: "CCITT G3",
        ]
        var d = ["\(photometric[info.photometric] ?? "photometric \(info.photometric)") \(info.bits_per_sample)-bit"]
        d.append(compression[info.compression] ?? "compression \(info.compression)")
        if info.tiled != 0 { d.append("tiled") }
        if hasAlpha { d.append("alpha") }
        if info.pages > 1 { d.append("\(info.pages) pages: first") }
        return d
    }

    /// The whole page only: libtiff decodes no reductions.
    public var decodeScales: [Int] { [1] }

    /// A decoder of the whole first page.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        if let channels = info.storedChannels { return try TIFFRowDecoder(source: self, channels: channels) }
        return TIFFFrameDecoder(source: self)
    }
}

/// The first page's header, as libtiff read it.
struct TIFFPage: Sendable {
    let width, height: UInt32
    let bits_per_sample, samples_per_pixel, photometric, planar, orientation, compression, sample_format: UInt16
    let extra_sample: UInt16
    let tiled: Int32
    let pages: Int32

    init(_ info: sepia_tiff_info) {
        (width, height, bits_per_sample, samples_per_pixel) = (info.width, info.height, info.bits_per_sample, info.samples_per_pixel)
        (photometric, planar, sample_format) = (info.photometric, info.planar, info.sample_format)
        (orientation, compression, extra_sample, tiled, pages) = (info.orientation, info.compression, info.extra_sample, info.tiled, info.pages)
    }

    /// The colour channels before any extra samples: 1 grey, 3 RGB, 4 CMYK; nil when the samples are not read
    /// as stored (palettes, YCbCr, bilevel, L*a*b*, planar tiles, odd depths: those go through libtiff's RGBA
    /// interface).
    var storedChannels: Int? {
        guard bits_per_sample == 8 || bits_per_sample == 16, sample_format <= 1, planar == 1 || tiled == 0 else { return nil }
        let channels: Int
        switch photometric {
        case 1: channels = 1
        case 2: channels = 3
        case 5: channels = 4
        default: return nil
        }
        let spp = Int(samples_per_pixel)
        guard spp >= channels, spp <= channels + 1 || (spp > channels && extra_sample == 3) else { return nil }
        return channels
    }

    /// Whether the first extra sample is alpha.
    var alpha: Bool { extra_sample == 1 || extra_sample == 2 }
}

/// An open libtiff handle over bytes in memory.
final class TIFFHandle {
    let tiff: OpaquePointer
    let bytes: EncodedBytes

    /// Opens `bytes`; no single allocation of libtiff's may exceed `maximumAllocation` bytes.
    init(bytes: EncodedBytes, maximumAllocation: Int, file: String?) throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 600)
        var loadReason = [CChar](repeating: 0, count: 512)
        guard sepia_tiff_load(&loadReason, loadReason.count) == 1 else {
            throw CodecError(
                .unsupportedFeature, format: .tiff,
                "TIFF files need libtiff 6, which could not be loaded (\(Self.text(loadReason))); install Debian's libtiff6 package", file: file)
        }
        let maximum = UInt64(clamping: maximumAllocation)
        let opened = bytes.withUnsafeBytes { sepia_tiff_open($0.baseAddress, $0.count, maximum, &reason, reason.count) }
        guard let opened else {
            throw CodecError(.corruptData, format: .tiff, "libtiff cannot read the file: \(Self.text(reason))", file: file)
        }
        tiff = opened
        self.bytes = bytes
    }

    deinit { sepia_tiff_close(tiff) }

    static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Decodes the first page with libtiff's RGBA interface; its premultiplied alpha is made straight again.
final class TIFFFrameDecoder: WholeFrameDecoder {
    let source: TIFFSource

    init(source: TIFFSource) {
        self.source = source
        super.init(size: source.pixelSize, format: .rgba8, color: source.sourceColor, file: source.file)
    }

    override func decodeFrame(into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) {
        let handle = try TIFFHandle(bytes: source.bytes, maximumAllocation: source.budget.limit, file: source.file)
        var reason = [CChar](repeating: 0, count: 1100)
        guard sepia_tiff_rgba_begin(handle.tiff, &reason, reason.count) == 1 else {
            throw CodecError(.unsupportedFeature, format: .tiff, "libtiff cannot decode this kind of TIFF: \(TIFFHandle.text(reason))")
        }
        let width = size.width
        let band = max(1, min(size.height, (1 << 22) / max(1, width)))
        var raster = [UInt32](repeating: 0, count: width * band)
        var row = 0
        while row < size.height {
            let rows = min(band, size.height - row)
            let ok = raster.withUnsafeMutableBufferPointer { sepia_tiff_rgba_rows(handle.tiff, UInt32(row), UInt32(rows), $0.baseAddress!) }
            let error = String(cString: sepia_tiff_error(handle.tiff))
            if ok != 1 || !error.isEmpty {
                let message = error.isEmpty ? "the image data cannot be decoded" : error
                if source.options.strict || ok != 1 && row == 0 {
                    throw CodecError(.corruptData, format: .tiff, "the image data is damaged: \(message)")
                }
                source.decodeWarnings.add("the image data is damaged (\(message)); what could be read is shown")
            }
            raster.withUnsafeBytes { src in
                for r in 0..<rows {
                    let destination = (base + (row + r) * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let s = src.baseAddress!.advanced(by: r * width * 4).assumingMemoryBound(to: UInt8.self)
                    destination.update(from: s, count: width * 4)
                    if source.hasAlpha { Self.unpremultiply(destination, count: width) }
                }
            }
            row += rows
        }
    }

    static func unpremultiply(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let a = Int(p[4 * i + 3])
            guard a != 255 else { continue }
            if a == 0 {
                p[4 * i] = 0
                p[4 * i + 1] = 0
                p[4 * i + 2] = 0
                continue
            }
            for c in 0..<3 { p[4 * i + c] = UInt8(min(255, (Int(p[4 * i + c]) * 255 + a / 2) / a)) }
        }
    }
}
