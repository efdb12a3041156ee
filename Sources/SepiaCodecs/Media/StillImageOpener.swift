/// The still-image codecs as a ``MediaOpener``: JPEG, PNG, WebP, HEIC, AVIF and TIFF files, read whole into
/// memory (within ``DecodeOptions/maximumFileBytes``) and opened with their header read, no pixels decoded.
public struct StillImageOpener: MediaOpener {
    /// The limits files are opened with.
    public let options: DecodeOptions

    /// An opener with these limits.
    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    /// ``MediaKind/photo``.
    public var kind: MediaKind { .photo }
    /// Photos are read whole.
    public var readsInPlace: Bool { false }
    /// ``DecodeOptions/maximumFileBytes``.
    public var maximumFileBytes: Int { options.maximumFileBytes }
    /// The formats, in words.
    public var formatsDescription: String { "JPEG, PNG, WebP, HEIC, AVIF and TIFF photos" }

    /// Whether the codecs decode the file's format.
    public func claims(_ file: MediaFile) -> Bool {
        file.format?.isDecodable == true
    }

    /// Reads the file whole and opens it.
    public func open(_ file: MediaFile) throws(CodecError) -> OpenedMedia {
        guard let format = file.format, format.isDecodable else {
            throw CodecError(.unsupportedFormat, format: file.format, "this format is not one the still-image codecs decode", file: file.path)
        }
        do {
            let bytes = try EncodedBytes.read(contentsOf: file.path, maximumBytes: options.maximumFileBytes)
            return try open(bytes, format: format, fileName: file.path)
        } catch {
            throw error.file == nil ? error.inFile(file.path) : error
        }
    }

    /// Opens the bytes as `format`.
    public func open(_ bytes: EncodedBytes, format: ImageFormat, fileName: String?) throws(CodecError) -> OpenedMedia {
        do {
            // The name is the error's, as ImageDecoding's own opening gives it.
            let image = try ImageDecoding.open(bytes, format: format, options: options, file: nil)
            return OpenedMedia(kind: kind, still: image, byteCount: bytes.count, bytes: bytes)
        } catch {
            guard let fileName else { throw error }
            throw error.file == nil ? error.inFile(fileName) : error
        }
    }
}
