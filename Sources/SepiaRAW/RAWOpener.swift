public import SepiaCodecs

/// Camera RAW files as a ``MediaOpener``: DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF and the rest LibRaw reads,
/// opened as ``RAWSource``s (the embedded preview for small renditions, a development for the rest). It claims a
/// TIFF-structured file named like a RAW file too, and passes it back as a TIFF when LibRaw does not take it.
public struct RAWOpener: MediaOpener {
    /// The limits and development options files are opened with.
    public let options: RAWOptions

    /// An opener with these options.
    public init(options: RAWOptions = RAWOptions()) {
        self.options = options
    }

    /// ``MediaKind/raw``.
    public var kind: MediaKind { .raw }
    /// Held whole by an import, which hashes and stores the bytes it opens.
    public var readsInPlace: Bool { false }
    /// The file limit of ``RAWOptions/limits``.
    public var maximumFileBytes: Int { options.limits.maximumFileBytes }
    /// The formats, in words.
    public var formatsDescription: String { "camera RAW photos (DNG, CR2, CR3, CRW, NEF, ARW, RAF, ORF, RW2, PEF, …)" }

    /// Camera RAW by content, or a TIFF with a RAW file's extension (its sensor data may lie beyond the head).
    public func claims(_ file: MediaFile) -> Bool {
        file.format == .cameraRAW || (file.format == .tiff && ImageFormat.rawExtensions.contains(file.fileExtension))
    }

    /// Opens the file where it is: LibRaw reads it as it needs.
    public func open(_ file: MediaFile) throws(CodecError) -> OpenedMedia {
        // The metadata LibRaw's structures do not give is read from the first RAWHead.length bytes: a file
        // recognised from its first 400 has the rest of them read here (read, not sniffed again).
        var head = RAWHead(bytes: file.head, fileBytes: file.byteCount)
        if file.head.count < min(file.byteCount, RAWHead.length) {
            head = try RAWHead.read(path: file.path, maximumFileBytes: options.limits.maximumFileBytes)
        }
        let source = try RAWSource(path: file.path, head: head, options: options)
        return OpenedMedia(kind: kind, still: source, byteCount: file.byteCount)
    }

    /// Opens a RAW file in memory.
    public func open(_ bytes: EncodedBytes, format: ImageFormat, fileName: String?) throws(CodecError) -> OpenedMedia {
        let source = try RAWSource(bytes: bytes, options: options, file: fileName)
        return OpenedMedia(kind: kind, still: source, byteCount: bytes.count, bytes: bytes)
    }
}
