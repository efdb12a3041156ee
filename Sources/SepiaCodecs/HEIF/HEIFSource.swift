internal import CHeif
public import SepiaImage

/// A HEIF file (HEIC with HEVC, or AVIF with AV1), decoded by libheif. libheif applies the container's
/// rotation, mirroring and crop (`irot`, `imir`, `clap`), so EXIF orientation inside the file is informational
/// only and never applied again.
public struct HEIFSource: EncodedImage {
    let bytes: EncodedBytes
    /// `.heic` or `.avif`.
    public let format: ImageFormat
    let width: Int
    let height: Int
    let alpha: Bool
    let bitDepth: Int
    let sourceColor: SourceColor
    let topLevelImages: Int
    /// The smaller copy of the image the file stores for quick display, if it has one that can stand in for it.
    let thumbnail: StoredThumbnail?
    /// Where the primary image's HEVC data lies, when it can be decoded straight through libde265.
    let layout: HEVCImageLayout?
    /// The file's metadata.
    public let metadata: ImageMetadata
    /// Warnings reported while decoding.
    public let decodeWarnings = DecodeWarnings()
    /// The file read.
    public let file: String?

    init(bytes: EncodedBytes, format: ImageFormat, options: DecodeOptions, file: String?) throws(CodecError) {
        let context = try HEIFContext(bytes: bytes, format: format, options: options)
        let handle = try context.primaryImage()
        defer { heif_image_handle_release(handle) }
        let w = Int(heif_image_handle_get_width(handle))
        let h = Int(heif_image_handle_get_height(handle))
        try options.checkSize(width: w, height: h, format: format)
        var budget = options.decodeBudget(width: w, height: h, format: format)
        let depth = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        let items = HEIFItems(file: UnsafeRawBufferPointer(start: bytes.base, count: bytes.count))
        try items?.reserveDecodeBuffers(in: &budget, bytesPerSample: depth > 8 ? 2 : 1)

        var exif: [UInt8]?
        var xmp: [UInt8]?
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, nil))
        if count > 0 {
            var ids = [heif_item_id](repeating: 0, count: min(count, 64))
            let n = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(ids.count)))
            for id in ids.prefix(n) {
                let type = heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
                let contentType = heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
                let size = heif_image_handle_get_metadata_size(handle, id)
                guard size > 0 else { continue }
                try budget.reserve(size, for: "a metadata block (\(type)) of \(size) bytes")
                var block = [UInt8](repeating: 0, count: size)
                let err = heif_image_handle_get_metadata(handle, id, &block)
                guard err.code == heif_error_Ok else { continue }
                if type == "Exif" && exif == nil && block.count > 4 {
                    // 4-byte big-endian offset to the TIFF header, then the EXIF data.
                    let skip = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
                    if skip >= 0, 4 + skip < block.count { exif = Array(block[(4 + skip)...]) }
                } else if type == "mime" && contentType == "application/rdf+xml" && xmp == nil {
                    xmp = block
                }
            }
        }
        var metadata = ImageMetadata.assemble(exif: exif, xmp: xmp, photoshop: nil)
        let described = Self.color(of: handle)
        if let name = described.profile { metadata.colorProfile = name }
        metadata.warnings += described.warnings
        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        // The direct HEVC path, for what ``reducesPlanes`` covers, when the container reads as libheif reads it.
        let layout = format == .heic && !hasAlpha && depth == 8 ? items.flatMap { HEVCImageLayout(items: $0, image: $0.primary) } : nil
        self.layout = layout?.displayed == IntSize(width: w, height: h) ? layout : nil
        var thumbnail = Self.thumbnail(of: handle, width: w, height: h, alpha: hasAlpha)
        if let stored = thumbnail, format == .heic, !hasAlpha, stored.bitDepth == 8, let items,
            let thumbnailLayout = HEVCImageLayout(items: items, image: stored.id), thumbnailLayout.displayed == stored.size
        {
            thumbnail?.layout = thumbnailLayout
        }
        self.thumbnail = thumbnail
        self.file = file
        self.bytes = bytes
        self.format = format
        width = w
        height = h
        alpha = hasAlpha
        bitDepth = depth
        sourceColor = described.color
        topLevelImages = Int(heif_context_get_number_of_top_level_images(context.context))
        self.metadata = metadata
    }

    private static func nclxName(primaries: Int, transfer: Int) -> String {
        switch (primaries, transfer) {
        case (1, 13), (1, 1), (1, 6), (2, _), (0, _): return "sRGB"
        case (12, _): return "Display P3"
        case (9, _): return "Rec. 2020"
        case (11, _): return "DCI-P3"
        default: return "nclx primaries \(primaries), transfer \(transfer)"
        }
    }

    /// The primary image's size after the container's transforms.
    public var pixelSize: IntSize { IntSize(width: width, height: height) }
    /// Whether an alpha auxiliary image exists.
    public var hasAlpha: Bool { alpha }
    /// Full size; 1/2, 1/4 and 1/8 for 8-bit images without alpha (their planes are averaged before the colour
    /// conversion); and the stored thumbnail when the file has one.
    public var decodeScales: [Int] {
        (reducesPlanes ? [1, 2, 4, 8] : [1]) + (thumbnail == nil ? [] : [StoredThumbnail.scale])
    }
    /// Whether the image is decoded through its own planes (``HEIFPlanarDecoder``), which can be reduced.
    var reducesPlanes: Bool { !alpha && bitDepth == 8 }
    /// The image reduced while decoding, or the stored thumbnail, which covers the whole image at its own size
    /// and may be used down to that size (as the HEIF specification intends thumbnails to be, and libvips does).
    public func reduction(scale: Int) -> DecodeReduction {
        guard scale == StoredThumbnail.scale, let thumbnail else { return .decodeTime(pixelSize, scale: scale) }
        let size = thumbnail.size
        return DecodeReduction(size: size, span: SIMD2(Double(size.width), Double(size.height)), minimumResize: 1)
    }
    /// Always upright: libheif applies the container's transforms; EXIF orientation is not applied again.
    public var orientation: Orientation { .up }
    /// The colour space converted from.
    public var colorSpace: String { metadata.colorProfile ?? "sRGB" }
    /// Bit depth, alpha, number of images.
    public var details: [String] {
        var d = ["\(bitDepth)-bit"]
        if alpha { d.append("alpha") }
        if topLevelImages > 1 { d.append("\(topLevelImages) images: primary") }
        return d
    }

    /// A decoder of the primary image at `scale` that decodes only the tiles `region` needs, when the image is
    /// decoded through ``HEVCRowDecoder``.
    public func makeDecoder(scale: Int, region: IntRect) throws -> any RowDecoder {
        guard scale != StoredThumbnail.scale, reducesPlanes, let layout else { return try makeDecoder(scale: scale) }
        return HEVCRowDecoder(source: self, layout: layout, scale: scale, region: region)
    }

    /// A decoder of the primary image at `scale`, or of its stored thumbnail at ``StoredThumbnail/scale``.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        if scale == StoredThumbnail.scale, let thumbnail {
            if let layout = thumbnail.layout { return HEVCRowDecoder(source: self, thumbnail: thumbnail, layout: layout) }
            return HEIFFrameDecoder(source: self, thumbnail: thumbnail)
        }
        if reducesPlanes, let layout { return HEVCRowDecoder(source: self, layout: layout, scale: scale) }
        if reducesPlanes { return HEIFPlanarDecoder(source: self, scale: scale) }
        return HEIFFrameDecoder(source: self, thumbnail: nil)
    }

    /// How the handle's pixels map to sRGB: its ICC profile, or its nclx colour description.
    static func color(of handle: OpaquePointer) -> (color: SourceColor, profile: String?, warnings: [String]) {
        var warnings: [String] = []
        let profileType = heif_image_handle_get_color_profile_type(handle)
        if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            var icc = [UInt8](repeating: 0, count: size)
            if size > 0, heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok,
                let profile = ColorProfile(bytes: icc), profile.model == .rgb
            {
                if let converted = profile.sourceColor() { return (converted, profile.name, warnings) }
                warnings.append("the ICC profile (\(profile.name)) is not a matrix profile; sRGB is assumed")
                return (.sRGB, profile.name, warnings)
            }
            warnings.append("the embedded ICC profile cannot be used; sRGB is assumed")
        } else if profileType == heif_color_profile_type_nclx {
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let status = heif_image_handle_get_nclx_color_profile(handle, &nclx)
            // libheif hands the profile over before it checks the values, and keeps it handed over when it then
            // refuses one: free it whatever the status.
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            if status.code != heif_error_Ok {
                warnings.append("the colour description (nclx) is invalid; sRGB is assumed")
            } else if let nclx {
                let p = nclx.pointee
                let primaries = Int(p.color_primaries.rawValue)
                let transfer = Int(p.transfer_characteristics.rawValue)
                if let curve = PrimariesConversion.curve(transferCharacteristic: transfer) {
                    var matrix: Matrix3?
                    if primaries != 1 && primaries != 2 && primaries != 0 {
                        matrix = PrimariesConversion.matrixToSRGB(
                            red: [Double(p.color_primary_red_x), Double(p.color_primary_red_y)],
                            green: [Double(p.color_primary_green_x), Double(p.color_primary_green_y)],
                            blue: [Double(p.color_primary_blue_x), Double(p.color_primary_blue_y)],
                            white: [Double(p.color_primary_white_x), Double(p.color_primary_white_y)])
                    }
                    let name = Self.nclxName(primaries: primaries, transfer: transfer)
                    return (SourceColor(name: name, curves: [curve, curve, curve], matrix: matrix), name == "sRGB" ? nil : name, warnings)
                }
                warnings.append("HDR transfer characteristic \(transfer) is shown without tone mapping")
            }
        }
        return (.sRGB, nil, warnings)
    }

    /// The largest stored thumbnail that can stand in for the whole image: the same shape (within 2%, after
    /// the container's transforms, which libheif applies to thumbnails too), the same alpha, 8 to 16 bits.
    static func thumbnail(of handle: OpaquePointer, width: Int, height: Int, alpha: Bool) -> StoredThumbnail? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(ids.count)))
        var best: StoredThumbnail?
        for id in ids.prefix(listed) {
            var thumb: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumb).code == heif_error_Ok, let thumb else { continue }
            defer { heif_image_handle_release(thumb) }
            let tw = Int(heif_image_handle_get_width(thumb))
            let th = Int(heif_image_handle_get_height(thumb))
            let depth = Int(heif_image_handle_get_luma_bits_per_pixel(thumb))
            guard tw > 0, th > 0, tw < width, th < height, (8...16).contains(depth),
                (heif_image_handle_has_alpha_channel(thumb) != 0) == alpha,
                abs(Double(tw) / Double(th) - Double(width) / Double(height)) <= 0.02 * Double(width) / Double(height)
            else { continue }
            if let best, best.size.width >= tw { continue }
            best = StoredThumbnail(id: id, size: IntSize(width: tw, height: th), bitDepth: depth, color: color(of: thumb).color, layout: nil)
        }
        return best
    }
}

/// A thumbnail stored in a HEIF file beside the primary image.
struct StoredThumbnail: Sendable {
    /// The decode scale that stands for the thumbnail in ``HEIFSource/decodeScales``: a key, not a factor.
    static let scale = 1 << 20
    let id: heif_item_id
    let size: IntSize
    let bitDepth: Int
    let color: SourceColor
    /// Where its HEVC data lies, when it can be decoded straight through libde265.
    var layout: HEVCImageLayout?
}

/// A libheif context over a file's bytes (which it reads without copying).
final class HEIFContext {
    let context: OpaquePointer
    let format: ImageFormat

    init(bytes: EncodedBytes, format: ImageFormat, options: DecodeOptions) throws(CodecError) {
        try Self.load(format: format)
        guard let context = heif_context_alloc() else {
            throw CodecError(.corruptData, format: format, "libheif could not allocate a context")
        }
        self.context = context
        self.format = format
        heif_context_set_maximum_image_size_limit(context, Int32(min(options.maximumDimension, Int(Int32.max))))
        let err = heif_context_read_from_memory_without_copy(context, bytes.base, bytes.count, nil)
        if err.code != heif_error_Ok { throw Self.error(err, format: format, "cannot read the file") }
    }

    deinit {
        heif_context_free(context)
    }

    /// Loads libheif and libde265, the first time a HEIC or AVIF file is read in this process.
    static func load(format: ImageFormat) throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 600)
        guard sepia_heif_load(&reason, reason.count) == 0 else { return }
        let message = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw CodecError(
            .unsupportedFeature, format: format,
            "HEIC and AVIF are read with libheif, which could not be loaded (\(message)); install libheif1 and libde265-0")
    }

    func primaryImage() throws(CodecError) -> OpaquePointer {
        var handle: OpaquePointer?
        let err = heif_context_get_primary_image_handle(context, &handle)
        guard err.code == heif_error_Ok, let handle else { throw Self.error(err, format: format, "no primary image") }
        return handle
    }

    static func error(_ err: heif_error, format: ImageFormat, _ what: String) -> CodecError {
        let message = err.message.map { String(cString: $0) } ?? "unknown error"
        switch err.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            return CodecError(.unsupportedFeature, format: format, "\(what): \(message)")
        default:
            return CodecError(.corruptData, format: format, "\(what): \(message)")
        }
    }
}

/// Decodes the primary image to interleaved 8-bit RGB(A).
final class HEIFFrameDecoder: WholeFrameDecoder {
    private let source: HEIFSource
    private let thumbnail: StoredThumbnail?

    init(source: HEIFSource, thumbnail: StoredThumbnail?) {
        self.source = source
        self.thumbnail = thumbnail
        super.init(
            size: thumbnail?.size ?? source.pixelSize, format: source.alpha ? .rgba8 : .rgb8,
            color: thumbnail?.color ?? source.sourceColor, file: source.file)
    }

    override func decodeFrame(into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) {
        let fmt = source.format
        let context = try HEIFContext(bytes: source.bytes, format: fmt, options: DecodeOptions(maximumPixels: Int.max))
        let primary = try context.primaryImage()
        defer { heif_image_handle_release(primary) }
        var handle = primary
        if let thumbnail {
            var thumb: OpaquePointer?
            let err = heif_image_handle_get_thumbnail(primary, thumbnail.id, &thumb)
            guard err.code == heif_error_Ok, let thumb else { throw HEIFContext.error(err, format: fmt, "cannot read the thumbnail") }
            handle = thumb
        }
        defer { if handle != primary { heif_image_handle_release(handle) } }
        let bitDepth = thumbnail?.bitDepth ?? source.bitDepth
        let deep = bitDepth > 8
        let chroma: heif_chroma
        if deep {
            chroma = source.alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE
        } else {
            chroma = source.alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        }
        var image: OpaquePointer?
        let err = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil)
        guard err.code == heif_error_Ok, let image else { throw HEIFContext.error(err, format: fmt, "cannot decode the image") }
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw CodecError(.corruptData, format: fmt, "the decoded image has no pixels")
        }
        let w = Int(heif_image_get_width(image, heif_channel_interleaved))
        let h = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard w == size.width, h == size.height else {
            throw CodecError(.corruptData, format: fmt, "the decoded image is \(w)x\(h), not the \(size) the header declares")
        }
        let channels = format.bytesPerPixel
        if deep {
            let maxValue = Float((1 << bitDepth) - 1)
            for y in 0..<h {
                let src = UnsafeRawPointer(plane + y * Int(stride))
                let dst = (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for i in 0..<(w * channels) {
                    let v = Float(src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self).littleEndian)
                    dst[i] = UInt8(min(255, (v * 255 / maxValue).rounded()))
                }
            }
        } else {
            for y in 0..<h {
                (base + y * bytesPerRow).copyMemory(from: plane + y * Int(stride), byteCount: w * channels)
            }
        }
    }

}
