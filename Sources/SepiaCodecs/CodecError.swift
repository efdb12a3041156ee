/// Why an image could not be decoded or encoded: what is wrong, in which format, in which file.
///
/// ``description`` is a sentence for people, e.g.
/// `photo.jpg: JPEG: corrupt data: Premature end of JPEG file (the file is damaged or incomplete)`.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The input has no bytes.
        case emptyInput
        /// The bytes are not a known image format.
        case unrecognizedFormat
        /// A known format Sepia does not decode (GIF, BMP, TIFF, SVG, …).
        case unsupportedFormat
        /// A variant of a supported format that this build cannot decode (12-bit or lossless JPEG, …).
        case unsupportedFeature
        /// The image has more pixels than the limit allows (a decompression bomb, or a huge image).
        case tooManyPixels
        /// Another limit was exceeded: a video's duration or number of streams, the bytes a demuxer may read.
        case limitExceeded
        /// Reading the file took longer than the deadline allows (a hostile or damaged file, or a stalled disk).
        case timedOut
        /// The file is larger than the limit allows.
        case fileTooLarge
        /// The header or the data is malformed.
        case corruptData
        /// The data ends before the image does.
        case truncatedData
        /// Strict mode refused data the decoder had to repair or invent.
        case damagedData
        /// The image could not be encoded.
        case encodingFailed
        /// Reading or writing a file failed.
        case fileSystem
    }

    /// The kind of failure.
    public var code: Code
    /// The format, when known.
    public var format: ImageFormat?
    /// What is wrong, in words.
    public var reason: String
    /// The file involved, when known.
    public var file: String?

    /// Creates an error.
    public init(_ code: Code, format: ImageFormat? = nil, _ reason: String, file: String? = nil) {
        self.code = code
        self.format = format
        self.reason = reason
        self.file = file
    }

    /// The same error, naming `file`.
    public func inFile(_ file: String) -> CodecError {
        var copy = self
        copy.file = file
        return copy
    }

    /// `file: FORMAT: reason`.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let format { parts.append(format.description) }
        parts.append(reason)
        return parts.joined(separator: ": ")
    }
}
