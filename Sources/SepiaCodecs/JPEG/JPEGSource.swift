internal import CJPEG
internal import Foundation
public import SepiaImage

/// A JPEG file, decoded by libjpeg-turbo row by row, with DCT-domain shrinking (1/2, 1/4, 1/8) when a
/// render needs a smaller image.
public struct JPEGSource: EncodedImage {
    let bytes: EncodedBytes
    let header: JPEGHeader
    let options: DecodeOptions
    let sourceColor: SourceColor
    let rowTransform: RowColorTransform?
    /// The memory the decode may take; libjpeg's memory manager is held to it.
    let budget: DecodeBudget
    /// The JPEG's metadata.
    public let metadata: ImageMetadata
    /// Warnings reported while decoding.
    public let decodeWarnings = DecodeWarnings()
    /// The file read.
    public let file: String?

    init(bytes: EncodedBytes, options: DecodeOptions, file: String?) throws(CodecError) {
        let header = try JPEGHeader.parse(bytes)
        switch header.process {
        case .lossless, .arithmeticLossless:
            throw CodecError(.unsupportedFeature, format: .jpeg, "lossless JPEG (SOF3) is not supported by this build of libjpeg-turbo")
        case .hierarchical:
            throw CodecError(.unsupportedFeature, format: .jpeg, "hierarchical JPEG is not supported")
        default:
            break
        }
        if header.precision != 8 {
            throw CodecError(.unsupportedFeature, format: .jpeg, "\(header.precision)-bit JPEG is not supported; only 8-bit samples are")
        }
        if header.height == 0 {
            throw CodecError(
                .unsupportedFeature, format: .jpeg, "the frame header declares height 0 (a DNL marker), which libjpeg-turbo does not support")
        }
        guard [1, 3, 4].contains(header.components) else {
            throw CodecError(.unsupportedFeature, format: .jpeg, "JPEG with \(header.components) colour components is not supported")
        }
        try options.checkSize(width: header.width, height: header.height, format: .jpeg)
        var budget = options.decodeBudget(width: header.width, height: header.height, format: .jpeg)
        if header.process == .progressive || header.process == .arithmeticProgressive {
            let blocks = header.sampling.map { "\($0.horizontal)x\($0.vertical)" }.joined(separator: ", ")
            let image = "a progressive \(header.width)x\(header.height) image of \(header.components) components (sampled \(blocks))"
            try budget.reserve(header.coefficientBytes, for: image + ", whose coefficients libjpeg keeps whole")
        }
        for (name, block) in [("EXIF", header.exif), ("XMP", header.xmp), ("ICC profile", header.icc), ("Photoshop", header.photoshop)] {
            if let block { try budget.reserve(block.count, for: "\(name) metadata of \(block.count) bytes") }
        }

        var metadata = ImageMetadata.assemble(exif: header.exif, xmp: header.xmp, photoshop: header.photoshop)
        if let problem = header.iccProblem { metadata.warnings.append(problem) }
        var color = SourceColor.sRGB
        var transform: RowColorTransform?
        if let icc = header.icc {
            if let profile = ColorProfile(bytes: icc) {
                metadata.colorProfile = profile.name
                let matches =
                    (header.components == 4 && profile.model == .cmyk) || (header.components == 3 && profile.model == .rgb)
                    || (header.components == 1 && profile.model == .gray)
                if !matches {
                    metadata.warnings.append("the ICC profile (\(profile.name)) does not match the image's colour components; it is ignored")
                } else if header.components == 4 {
                    transform = profile.makeRowTransform(reversedCMYK: header.adobeTransform != nil)
                } else if let converted = profile.sourceColor() {
                    color = converted
                } else if let rows = profile.makeRowTransform() {
                    transform = rows
                    color = SourceColor(name: profile.name, curves: SourceColor.sRGB.curves, matrix: nil)
                }
            } else {
                metadata.warnings.append("the embedded ICC profile cannot be read; sRGB is assumed")
            }
        }
        self.file = file
        self.bytes = bytes
        self.header = header
        self.options = options
        self.sourceColor = color
        self.rowTransform = transform
        self.metadata = metadata
        self.budget = budget
    }

    /// `.jpeg`.
    public var format: ImageFormat { .jpeg }
    /// The frame's size.
    public var pixelSize: IntSize { IntSize(width: header.width, height: header.height) }
    /// JPEG has no alpha.
    public var hasAlpha: Bool { false }
    /// libjpeg-turbo's DCT scaling factors.
    public var decodeScales: [Int] { [1, 2, 4, 8] }
    /// EXIF orientation.
    public var orientation: Orientation { Orientation(exifValue: metadata.exifOrientation ?? 1) }
    /// The colour space converted from.
    public var colorSpace: String {
        if header.components == 4 { return rowTransform != nil ? "CMYK (\(metadata.colorProfile ?? "ICC"))" : "CMYK" }
        if header.components == 1 && metadata.colorProfile == nil { return "Gray" }
        return metadata.colorProfile ?? "sRGB"
    }
    /// Coding process and components.
    public var details: [String] {
        var d: [String] = []
        switch header.process {
        case .baseline: d.append("baseline")
        case .extendedSequential: d.append("extended sequential")
        case .progressive: d.append("progressive")
        case .arithmeticSequential: d.append("arithmetic-coded")
        case .arithmeticProgressive: d.append("progressive, arithmetic-coded")
        default: d.append(header.process.rawValue)
        }
        switch header.components {
        case 1: d.append("grayscale")
        case 4: d.append(header.adobeTransform == 2 ? "YCCK" : "CMYK")
        default: break
        }
        return d
    }

    /// What libjpeg's memory manager may allocate in all: the budget, and 16 MiB for its tables, row buffers and
    /// the other small objects every decode has.
    var libjpegMemory: Int { budget.limit.addingReportingOverflow(16 << 20).overflow ? .max : budget.limit + (16 << 20) }

    /// A libjpeg-turbo decoder at `scale`.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        do {
            return try JPEGRowDecoder(source: self, scale: scale)
        } catch {
            throw error.naming(file)
        }
    }
}

/// Streams rows out of libjpeg-turbo (through the `CJPEG` shim, which keeps libjpeg's longjmp on the C side).
final class JPEGRowDecoder: RowDecoder {
    private let source: JPEGSource
    private var decoder: OpaquePointer?
    let size: IntSize
    let format: SourcePixelFormat
    private let cmyk: Bool
    private var cmykRows: [UInt8] = []
    private var reportedWarnings = 0

    init(source: JPEGSource, scale: Int) throws(CodecError) {
        self.source = source
        var header = sepia_jpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        var handle: OpaquePointer?
        let options = source.options
        let threads = options.parallelProgressiveScans ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1
        let status = sepia_jpeg_decoder_create(
            source.bytes.base.assumingMemoryBound(to: UInt8.self), source.bytes.count, Int32(scale),
            options.strict ? 1 : 0, options.progressiveDCShortcut ? 1 : 0, Int32(threads), UInt(clamping: source.libjpegMemory),
            Int32(options.maximumProgressiveScans),
            &handle, &header, &message, message.count)
        guard status == SEPIA_JPEG_OK, let handle else {
            throw Self.error(status, message)
        }
        decoder = handle
        size = IntSize(width: Int(header.output_width), height: Int(header.output_height))
        cmyk = header.output_components == SEPIA_JPEG_OUTPUT_CMYK
        format = header.output_components == SEPIA_JPEG_OUTPUT_GRAY ? .gray8 : .rgb8
    }

    deinit {
        sepia_jpeg_decoder_destroy(decoder)
    }

    var color: SourceColor { cmyk ? .sRGB : source.sourceColor }
    var decodesIncrementally: Bool { true }
    /// 2 when the file's progressive scans were Huffman-decoded on two threads, else 1.
    var scanThreads: Int { decoder.map { Int(sepia_jpeg_decoder_scan_threads($0)) } ?? 1 }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let decoder, let base = buffer.baseAddress else { return 0 }
        let rows = buffer.count / bytesPerRow
        var message = [CChar](repeating: 0, count: 256)
        var got: Int32 = 0
        let status: Int32
        if cmyk {
            let cmykRowBytes = size.width * 4
            if cmykRows.count < rows * cmykRowBytes { cmykRows = [UInt8](repeating: 0, count: rows * cmykRowBytes) }
            status = cmykRows.withUnsafeMutableBytes { tmp in
                sepia_jpeg_decoder_read_rows(
                    decoder, tmp.baseAddress?.assumingMemoryBound(to: UInt8.self), cmykRowBytes, Int32(rows), &got, &message, message.count)
            }
            if status == SEPIA_JPEG_OK {
                cmykRows.withUnsafeBytes { tmp in
                    guard let src = tmp.baseAddress else { return }
                    for r in 0..<Int(got) {
                        convertCMYK(src + r * cmykRowBytes, into: base + r * bytesPerRow)
                    }
                }
            }
        } else {
            status = sepia_jpeg_decoder_read_rows(
                decoder, base.assumingMemoryBound(to: UInt8.self), bytesPerRow, Int32(rows), &got, &message, message.count)
            if status == SEPIA_JPEG_OK, let transform = source.rowTransform {
                for r in 0..<Int(got) {
                    let row = base + r * bytesPerRow
                    transform.convert(UnsafeRawPointer(row), into: row, count: size.width)
                }
            }
        }
        guard status == SEPIA_JPEG_OK else { throw Self.error(status, message).naming(source.file) }
        let warnings = Int(sepia_jpeg_decoder_warning_count(decoder))
        if warnings > reportedWarnings {
            var first = [CChar](repeating: 0, count: 256)
            sepia_jpeg_decoder_first_warning(decoder, &first, first.count)
            let text = String(decoding: first.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            source.decodeWarnings.add(warnings > 1 ? "\(text) (and \(warnings - 1) more libjpeg warnings)" : text)
            reportedWarnings = warnings
        }
        return Int(got)
    }

    /// CMYK (or YCCK, already converted to CMYK by libjpeg) to RGB: through the embedded profile when there is
    /// one, else the naive complement formula. Adobe files store inverted values.
    private func convertCMYK(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer) {
        if let transform = source.rowTransform {
            transform.convert(src, into: dst, count: size.width)
            return
        }
        let s = src.assumingMemoryBound(to: UInt8.self)
        let d = dst.assumingMemoryBound(to: UInt8.self)
        let inverted = source.header.adobeTransform != nil
        for x in 0..<size.width {
            var c = Int(s[4 * x]), m = Int(s[4 * x + 1]), y = Int(s[4 * x + 2]), k = Int(s[4 * x + 3])
            if !inverted {
                c = 255 - c
                m = 255 - m
                y = 255 - y
                k = 255 - k
            }
            d[3 * x] = UInt8((c * k + 127) / 255)
            d[3 * x + 1] = UInt8((m * k + 127) / 255)
            d[3 * x + 2] = UInt8((y * k + 127) / 255)
        }
    }

    private static func error(_ status: Int32, _ message: [CChar]) -> CodecError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.contains("Backing store not supported") {
            // libjpeg's memory manager was refused more than its share of the budget.
            return CodecError(
                .limitExceeded, format: .jpeg,
                "libjpeg needs more memory for this file than the decode budget allows; the file is refused before that memory is "
                    + "allocated. To accept it, raise the decode memory limit (maximumDecodeBytes, or sepia's --max-decode-bytes)")
        }
        if status == SEPIA_JPEG_STRICT_WARNING {
            return CodecError(.damagedData, format: .jpeg, "damaged data: \(text) (refused in strict mode)")
        }
        let lower = text.lowercased()
        if lower.contains("premature end") || lower.contains("empty input") {
            return CodecError(.truncatedData, format: .jpeg, "the data ends early: \(text)")
        }
        if lower.contains("unsupported") || lower.contains("not supported") {
            return CodecError(.unsupportedFeature, format: .jpeg, text)
        }
        return CodecError(.corruptData, format: .jpeg, "corrupt data: \(text)")
    }
}
