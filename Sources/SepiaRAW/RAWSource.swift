internal import CLibRaw
import Foundation
public import SepiaCodecs
public import SepiaImage

/// A camera RAW file (DNG, CR2, CRW, NEF, ARW, RAF, ORF, RW2, PEF and the rest LibRaw 0.20 reads) as an image.
///
/// Opening reads the header with LibRaw and the embedded preview's header; no sensor data is unpacked. A render
/// then takes the cheapest way that keeps the quality, as for every image (``decodeScales``):
/// - the camera's **embedded JPEG preview**, when it is at least as large as the render needs (every thumbnail and
///   most screen-sized previews), decoded with the JPEG decoder's own reductions;
/// - the **half-size development** (each 2×2 block of a Bayer sensor becomes one pixel, no demosaicing), when
///   half the sensor is still at least twice the size asked: LibRaw's `half_size` development to the bit, made by
///   Sepia row by row from LibRaw's unpacked sensor data as the render reads it, so that no developed image is
///   held (other sensors, noise reduction and highlight recovery are LibRaw's own development);
/// - the **full development**: AHD demosaicing, the camera's white balance, linear sRGB primaries in 16 bits,
///   handed to the engine in linear light.
///
/// A non-default ``development`` (exposure, white balance, noise reduction: `CIRAWFilter`'s parameters) always
/// develops the sensor data: the camera's preview cannot show it.
///
/// ```swift
/// let raw = try RAWSource(path: "DSC_0042.NEF")
/// print(raw.camera, raw.pixelSize)            // "NIKON D70" 3039x2014
/// let thumbnail = raw.image.thumbnail(size: IntSize(width: 256, height: 256))   // from the preview
/// ```
public struct RAWSource: EncodedImage {
    /// Where the file's bytes are.
    let input: RAWInput
    /// The limits the file was opened with.
    public let options: RAWOptions
    /// How the sensor data is developed.
    public let development: RAWDevelopment
    /// The camera's make and model, as LibRaw names them ("Canon EOS 6D").
    public let camera: String
    /// The kind of RAW file ("Nikon NEF", "Adobe DNG"), from its structure.
    public let kind: String
    /// The developed image's size before orientation.
    public let pixelSize: IntSize
    /// The half-size development's size, when the sensor offers one.
    let halfSize: IntSize?
    /// The embedded preview, when it can stand in for the whole image.
    public let preview: (any EncodedImage)?
    /// Capture date, camera, exposure and location.
    public let metadata: ImageMetadata
    /// The orientation LibRaw read (EXIF's, or the maker's own tag).
    public let orientation: Orientation
    /// Problems met so far.
    public let decodeWarnings = DecodeWarnings()
    /// The file read, if any.
    public let file: String?
    let sensor: IntSize
    let bitsLabel: String
    /// The camera's colour matrix and white balance multipliers.
    let cameraColor: RAWCameraColor

    /// The white balance the camera recorded, as a colour temperature (kelvin) and tint: what
    /// `CIRAWFilter.neutralTemperature` and `neutralTint` start at. Nil when the file records none.
    public var asShotNeutral: (temperature: Double, tint: Double)? {
        guard let multipliers = cameraColor.asShot ?? cameraColor.daylight else { return nil }
        return cameraColor.temperatureAndTint(multipliers: multipliers)
    }

    /// The same file developed another way, or with other options (re-opened, so that nothing developed before
    /// is reused).
    public func developing(_ development: RAWDevelopment, options: RAWOptions? = nil) throws(CodecError) -> RAWSource {
        let options = options ?? self.options
        switch input {
        case .file(let path): return try RAWSource(path: path, development: development, options: options)
        case .memory(let bytes): return try RAWSource(bytes: bytes, development: development, options: options, file: file)
        }
    }

    /// Opens a RAW file. LibRaw reads from the file as it needs (the header and preview now, the sensor data
    /// when a render develops it), never the whole file into memory. Errors name the file.
    public init(path: String, development: RAWDevelopment = RAWDevelopment(), options: RAWOptions = RAWOptions()) throws(CodecError) {
        let head = try RAWHead.read(path: path, maximumFileBytes: options.limits.maximumFileBytes)
        try self.init(path: path, head: head, development: development, options: options)
    }

    /// Opens a RAW file whose head was read already.
    init(path: String, head: RAWHead, development: RAWDevelopment = RAWDevelopment(), options: RAWOptions) throws(CodecError) {
        try self.init(input: .file(path), head: head.bytes, count: head.fileBytes, development: development, options: options, file: path)
    }

    /// Opens a RAW file in memory; `file` is the name errors give.
    public init(
        bytes: EncodedBytes, development: RAWDevelopment = RAWDevelopment(), options: RAWOptions = RAWOptions(), file: String? = nil
    ) throws(CodecError) {
        let head = bytes.withUnsafeBytes { Array($0.prefix(RAWHead.length)) }
        try self.init(input: .memory(bytes), head: head, count: bytes.count, development: development, options: options, file: file)
    }

    init(input: RAWInput, head: [UInt8], count: Int, development: RAWDevelopment, options: RAWOptions, file: String?) throws(CodecError) {
        do {
            try development.validate()
        } catch {
            throw CodecError(.unsupportedFeature, format: .cameraRAW, "the RAW development is out of range: \(error)", file: file)
        }
        if count > options.limits.maximumFileBytes {
            throw CodecError(
                .fileTooLarge, format: .cameraRAW, "the file has \(count) bytes, more than the limit of \(options.limits.maximumFileBytes)",
                file: file)
        }
        let handle: LibRawHandle
        do {
            handle = try LibRawHandle(input: input, options: options, file: file)
        } catch {
            throw Self.explained(error, head: head)
        }
        let info = handle.info
        let make = sepia_raw_info.string(info.make)
        let model = sepia_raw_info.string(info.model)
        guard info.width > 0, info.height > 0, info.raw_width > 0, info.raw_height > 0 else {
            throw CodecError(.corruptData, format: .cameraRAW, "the header declares no image (LibRaw found no sensor data to develop)", file: file)
        }
        try options.limits.checkRAWSize(width: Int(info.raw_width), height: Int(info.raw_height), file: file)
        try options.limits.checkRAWSize(width: Int(info.width), height: Int(info.height), file: file)
        do {
            // The unpacked sensor data: a 16-bit sample a photosite, four for a linear (demosaiced) DNG.
            var budget = options.limits.decodeBudget(width: Int(info.raw_width), height: Int(info.raw_height), format: .cameraRAW)
            let samples: UInt64 = info.filters != 0 || info.is_xtrans != 0 ? 1 : 4
            try budget.reserve(
                UInt64(info.raw_width) * UInt64(info.raw_height) * 2 * samples,
                for: "sensor data of \(info.raw_width)x\(info.raw_height) photosites (\(samples) sample\(samples == 1 ? "" : "s") each)")
        } catch {
            throw file.map { error.inFile($0) } ?? error
        }
        self.input = input
        self.options = options
        self.development = development
        self.file = file
        sensor = IntSize(width: Int(info.raw_width), height: Int(info.raw_height))
        pixelSize = IntSize(width: Int(info.width), height: Int(info.height))
        halfSize = info.half_width > 0 ? IntSize(width: Int(info.half_width), height: Int(info.half_height)) : nil
        camera = [make, model].compactMap { $0 }.joined(separator: " ")
        kind = RAWKind.describe(head: head, make: make, dngVersion: Int(info.dng_version))
        bitsLabel = info.is_foveon != 0 ? "Foveon" : info.is_xtrans != 0 ? "X-Trans" : info.filters != 0 ? "Bayer" : "linear"
        orientation = Self.orientation(flip: Int(info.flip))
        cameraColor = RAWCameraColor(info: info)
        metadata = Self.metadata(head: head, info: info, make: make, model: model, xmp: handle.xmp)
        preview = development.showsCameraRendering ? Self.preview(handle, stored: pixelSize, file: file) : nil
    }

    /// A refusal that names the kind of file when its signature says it (a Canon CR3 from a body newer than this
    /// LibRaw, a GoPro GPR), so that the reason is not "not a RAW file".
    static func explained(_ error: CodecError, head: [UInt8]) -> CodecError {
        guard error.code == .unsupportedFormat else { return error }
        var explained = error
        let kind = RAWKind.describe(head: head, make: nil, dngVersion: 0)
        if kind == "Canon CR3" {
            explained.reason =
                "this Canon CR3 file is not one LibRaw 0.20 reads (CR3 support grew in later LibRaw releases); convert it to DNG, or use a system with a newer LibRaw"
        } else if kind != "camera RAW" {
            explained.reason = "LibRaw 0.20 does not read this \(kind) file: its camera or format version is newer or rarer than LibRaw knows"
        }
        return explained
    }

    /// LibRaw's flip as an orientation.
    static func orientation(flip: Int) -> Orientation {
        switch flip {
        case 3: return Orientation(exifValue: 3)
        case 5: return Orientation(exifValue: 8)
        case 6: return Orientation(exifValue: 6)
        default: return Orientation(exifValue: 1)
        }
    }

    /// The file's EXIF (TIFF-structured RAW files carry it as a TIFF does, near their start: it is read from the
    /// file's first ``RAWHead/length`` bytes), completed with what LibRaw read from the maker's own structures.
    static func metadata(head: [UInt8], info: sepia_raw_info, make: String?, model: String?, xmp: [UInt8]? = nil) -> ImageMetadata {
        var m = ImageMetadata()
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            m = ImageMetadata.assemble(exif: head, xmp: xmp, photoshop: nil)
            // The first IFD of most RAW files describes a small preview, whose orientation LibRaw already read.
            m.exifOrientation = nil
        }
        if m.embeddedXMP == nil { m.embeddedXMP = xmp }
        if m.cameraMake == nil { m.cameraMake = make }
        if m.cameraModel == nil { m.cameraModel = model }
        if m.lensModel == nil { m.lensModel = sepia_raw_info.string(info.lens) }
        if m.iso == nil, info.iso > 0 { m.iso = Int(info.iso.rounded()) }
        if m.exposureTime == nil, info.shutter > 0 { m.exposureTime = info.shutter }
        if m.fNumber == nil, info.aperture > 0 { m.fNumber = info.aperture }
        if m.focalLength == nil, info.focal_length > 0 { m.focalLength = info.focal_length }
        if m.captureDate == nil, info.timestamp > 0 {
            // LibRaw turned the camera's local date and time into seconds with the local time zone: turning them
            // back with the same zone gives the camera's clock again, without an offset (cameras rarely record one).
            var seconds = time_t(info.timestamp)
            var fields = tm()
            if localtime_r(&seconds, &fields) != nil {
                m.captureDate = CaptureDate(
                    year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday), hour: Int(fields.tm_hour),
                    minute: Int(fields.tm_min), second: Int(fields.tm_sec), origin: .exifOriginal)
            }
        }
        if m.location == nil, info.has_gps != 0 {
            m.location = GPSLocation(latitude: info.latitude, longitude: info.longitude, altitude: info.altitude)
        }
        return m
    }

    /// The embedded JPEG preview, when it covers the whole image: the same shape as the developed image (within
    /// 2 %, before orientation, as cameras store it), no larger, and at least 64 pixels wide.
    static func preview(_ handle: LibRawHandle, stored: IntSize, file: String?) -> (any EncodedImage)? {
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        var format: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        guard sepia_raw_thumbnail(handle.raw, &pointer, &length, &format, &width, &height) == 0, format == 1, let pointer, length > 0 else {
            return nil
        }
        let jpeg = EncodedBytes(UnsafeBufferPointer(start: pointer, count: length))
        // LibRaw says it is a JPEG (format 1): the JPEG decoder opens it, and refuses it if it is not one.
        guard let image = try? ImageDecoding.open(jpeg, format: .jpeg, options: DecodeOptions(maximumFileBytes: max(length, 1)), file: nil)
        else {
            return nil
        }
        let size = image.pixelSize
        let aspect = Double(stored.width) / Double(stored.height)
        guard size.width >= 64, size.width <= stored.width, size.height <= stored.height,
            abs(Double(size.width) / Double(size.height) - aspect) <= 0.02 * aspect
        else { return nil }
        return image
    }

    // MARK: - EncodedImage

    /// Camera RAW.
    public var format: ImageFormat { .cameraRAW }
    /// RAW images are opaque.
    public var hasAlpha: Bool { false }
    /// Developed into linear sRGB primaries.
    public var colorSpace: String { "camera RGB developed to linear sRGB" }
    /// The kind, the camera, the sensor and the preview, for people.
    public var details: [String] {
        var d = [kind, "\(bitsLabel) sensor \(sensor.width)x\(sensor.height)"]
        if !camera.isEmpty { d.insert(camera, at: 1) }
        if let preview { d.append("preview \(preview.pixelSize.width)x\(preview.pixelSize.height)") }
        if development != RAWDevelopment() { d.append("developed: \(development.summary)") }
        return d
    }

    /// The decode scale keys: 1 (full development), 2 (half size), and the preview at the JPEG decoder's 1, 2, 4
    /// and 8 (``previewScaleKey``).
    public var decodeScales: [Int] {
        var scales = [1]
        if halfSize != nil { scales.append(2) }
        if preview != nil { scales += [1, 2, 4, 8].map { Self.previewScaleKey + $0 } }
        return scales
    }

    /// The work of developing a pixel relative to decoding one of the preview's: unpacking the sensor data,
    /// white balance, demosaicing and the colour conversion cost an order of magnitude more than a JPEG's
    /// inverse DCT, so the preview is preferred whenever it is large enough.
    static let developmentCost = 16.0

    /// Scales at or above this key stand for the preview reduced by the difference.
    static let previewScaleKey = 1 << 20

    /// What each decode scale delivers.
    public func reduction(scale: Int) -> DecodeReduction {
        if scale > Self.previewScaleKey, let preview {
            let k = scale - Self.previewScaleKey
            let r = preview.reduction(scale: k)
            return DecodeReduction(size: r.size, span: r.span, minimumResize: k == 1 ? 1 : r.minimumResize)
        }
        if scale == 2, let halfSize {
            return DecodeReduction(
                size: halfSize, span: SIMD2(Double(pixelSize.width), Double(pixelSize.height)) / 2,
                minimumResize: options.allowsDraftMode ? 1 : 2,
                costPerPixel: Self.developmentCost)
        }
        return DecodeReduction(
            size: pixelSize, span: SIMD2(Double(pixelSize.width), Double(pixelSize.height)), minimumResize: 1, costPerPixel: Self.developmentCost)
    }

    /// A decoder of the preview, or of the developed sensor data at full or half size.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        if scale > Self.previewScaleKey, let preview { return try preview.makeDecoder(scale: scale - Self.previewScaleKey) }
        let half = scale == 2 && halfSize != nil
        return try RAWRowDecoder(source: self, half: half, size: reduction(scale: half ? 2 : 1).size)
    }
}

extension RAWDevelopment {
    /// Whether this is the default development, which the camera's own preview shows well enough for
    /// thumbnails: only then may the preview stand in for the sensor data.
    var showsCameraRendering: Bool { self == RAWDevelopment() }

    /// "exposure +0.7 EV, noise reduction 0.3".
    var summary: String {
        var parts: [String] = []
        if exposure != 0 { parts.append("exposure \(exposure > 0 ? "+" : "")\(exposure) EV") }
        if boost != 1 { parts.append("boost \(boost)") }
        switch whiteBalance {
        case .asShot: break
        case .daylight: parts.append("daylight white balance")
        case .multipliers(let r, let g, let b): parts.append("white balance \(r)/\(g)/\(b)")
        case .neutral(let temperature, let tint): parts.append("white balance \(Int(temperature.rounded())) K, tint \(tint)")
        }
        if noiseReduction != 0 { parts.append("noise reduction \(noiseReduction)") }
        if recoverHighlights { parts.append("highlights recovered") }
        return parts.joined(separator: ", ")
    }
}

extension DecodeOptions {
    /// Throws unless a RAW image of `width × height` is within the limits.
    func checkRAWSize(width: Int, height: Int, file: String?) throws(CodecError) {
        do {
            try checkSize(width: width, height: height, format: .cameraRAW)
        } catch {
            throw file.map { error.inFile($0) } ?? error
        }
    }
}
