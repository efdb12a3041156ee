public import Foundation
import SepiaImage

/// Opens encoded images: recognises the format by its magic bytes, reads the header and metadata, and checks
/// the limits, without decoding pixels.
///
/// ```swift
/// let file = try ImageDecoding.open(path: "IMG_0042.HEIC")
/// let thumbnail = file.image.thumbnail(size: IntSize(width: 256, height: 256))
/// ```
public enum ImageDecoding {
    /// Opens an image from bytes in memory.
    public static func open(_ bytes: EncodedBytes, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> any EncodedImage {
        try open(bytes, options: options, file: nil)
    }

    static func open(_ bytes: EncodedBytes, options: DecodeOptions, file: String?) throws(CodecError) -> any EncodedImage {
        try checkSize(of: bytes, options: options)
        let head = bytes.prefix(64)
        guard let format = ImageFormat.identify(bytes) else {
            let signature = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw CodecError(
                .unrecognizedFormat,
                "not an image Sepia recognises (first bytes: \(signature)); supported formats are JPEG, PNG, WebP, HEIC, AVIF and TIFF, and camera RAW through SepiaRAW"
            )
        }
        return try open(bytes, format: format, options: options, file: file)
    }

    /// Opens an image whose format is already known (``StillImageOpener``, after the file was sniffed once).
    package static func open(_ bytes: EncodedBytes, format: ImageFormat, options: DecodeOptions, file: String?) throws(CodecError) -> any EncodedImage
    {
        try checkSize(of: bytes, options: options)
        switch format {
        case .jpeg: return try JPEGSource(bytes: bytes, options: options, file: file)
        case .png: return try PNGSource(bytes: bytes, options: options, file: file)
        case .webp: return try WebPSource(bytes: bytes, options: options, file: file)
        case .heic, .avif: return try HEIFSource(bytes: bytes, format: format, options: options, file: file)
        case .tiff: return try TIFFSource(bytes: bytes, options: options, file: file)
        case .cameraRAW:
            throw CodecError(
                .unsupportedFormat, format: format,
                "this is a camera RAW file, which the still-image decoders do not read; SepiaRAW's RAWSource opens it")
        case _ where format.isVideo:
            throw CodecError(
                .unsupportedFormat, format: format, "this is a video, which the still-image decoders do not read; SepiaVideo's VideoSource opens it")
        default:
            throw CodecError(
                .unsupportedFormat, format: format, "this format is not supported; Sepia decodes JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW")
        }
    }

    /// Refuses empty input, and input over the file limit.
    private static func checkSize(of bytes: EncodedBytes, options: DecodeOptions) throws(CodecError) {
        guard bytes.count > 0 else { throw CodecError(.emptyInput, "the input is empty (0 bytes)") }
        if bytes.count > options.maximumFileBytes {
            throw CodecError(.fileTooLarge, "the input has \(bytes.count) bytes, more than the limit of \(options.maximumFileBytes)")
        }
    }

    /// Opens an image from `Data`.
    public static func open(data: Data, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> any EncodedImage {
        try open(EncodedBytes(data: data), options: options)
    }

    /// Opens an image file. Errors name the file.
    public static func open(path: String, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> any EncodedImage {
        do {
            let bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: options.maximumFileBytes)
            return try open(bytes, options: options, file: path)
        } catch {
            throw error.file == nil ? error.inFile(path) : error
        }
    }
}
