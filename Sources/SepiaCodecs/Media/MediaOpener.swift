/// Reads one kind of media: says which files it takes (from their format, recognised by content) and opens them
/// into an ``OpenedMedia`` — kind, picture, duration, metadata, whether it plays as it is. The still-image
/// codecs, SepiaRAW and SepiaVideo each conform; ``MediaOpeners`` is the list that routes a file to the first
/// opener that claims it. A new kind of media is a new conformance added to that list (docs/media-kinds.md).
public protocol MediaOpener: Sendable {
    /// The kind of item the files it opens make on their own.
    var kind: MediaKind { get }
    /// Whether it reads `file`: from its ``MediaFile/format``, and for a file of two natures (a TIFF named like
    /// a RAW file) from its name too.
    func claims(_ file: MediaFile) -> Bool
    /// Whether it reads its files where they are, a part at a time (videos), rather than whole from memory: an
    /// import then hashes and stores them from the file, never reading them whole.
    var readsInPlace: Bool { get }
    /// The formats it reads, in words, for messages: "JPEG, PNG, WebP, HEIC, AVIF and TIFF photos".
    var formatsDescription: String { get }
    /// The largest file it takes, in bytes.
    var maximumFileBytes: Int { get }
    /// Opens the file `file` describes, whose format is already known. Errors name the file.
    ///
    /// - Throws: ``CodecError``; `.unsupportedFormat` passes the file to the next opener that claims it.
    func open(_ file: MediaFile) throws(CodecError) -> OpenedMedia
    /// Opens a file held in memory whose format is already known; `fileName` names it in errors.
    func open(_ bytes: EncodedBytes, format: ImageFormat, fileName: String?) throws(CodecError) -> OpenedMedia
}
