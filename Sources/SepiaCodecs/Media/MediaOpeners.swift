import Foundation

/// The kinds of media a program reads, as a list of ``MediaOpener``s: a file goes to the first that claims it.
/// There is no switch over kinds to edit; a new kind is one more opener in the list.
///
/// ```swift
/// let openers = MediaOpeners([StillImageOpener()])
/// let opened = try openers.open(path: "IMG_0042.HEIC")
/// print(opened.kind, opened.displaySize)
/// ```
public struct MediaOpeners: Sendable {
    /// The openers, asked in order.
    public let openers: [any MediaOpener]

    /// A list of openers, asked in order: put the one that claims a file of two natures first.
    public init(_ openers: [any MediaOpener]) {
        self.openers = openers
    }

    /// The openers that claim `file`, in order.
    public func openers(claiming file: MediaFile) -> [any MediaOpener] {
        openers.filter { $0.claims(file) }
    }

    /// The opener of `format`'s files, when one reads them.
    public func opener(for format: ImageFormat) -> (any MediaOpener)? {
        openers(claiming: MediaFile(path: "", format: format, head: [], byteCount: 0)).first
    }

    /// The kind a file of `format` makes on its own; nil when nothing here reads it.
    public func kind(of format: ImageFormat) -> MediaKind? {
        opener(for: format)?.kind
    }

    /// The formats some opener reads.
    public var formats: [ImageFormat] {
        ImageFormat.allCases.filter { opener(for: $0) != nil }
    }

    /// Sniffs the file at `path` once and opens it with the opener that claims it.
    public func open(path: String) throws(CodecError) -> OpenedMedia {
        try open(try MediaFile.sniff(path: path))
    }

    /// Opens a sniffed file with the first opener that claims it and takes it (one that answers
    /// `.unsupportedFormat` passes it on: a TIFF named like a RAW file that LibRaw does not take is a TIFF).
    ///
    /// - Throws: ``CodecError``: `.unrecognizedFormat` or `.unsupportedFormat`, naming what is read, when no opener
    ///   takes it; else the opener's error.
    public func open(_ file: MediaFile) throws(CodecError) -> OpenedMedia {
        let claiming = openers(claiming: file)
        guard file.format != nil, let last = claiming.last else { throw refusal(of: file.format, head: file.head, file: file.path) }
        for opener in claiming.dropLast() {
            do {
                return try opener.open(file)
            } catch  where error.code == .unsupportedFormat {
                // Not this opener's after all: the next one that claims it reads it.
            }
        }
        return try last.open(file)
    }

    /// Opens a file held in memory; `fileName`, when given, names it in errors and lets a RAW file without a
    /// signature be recognised by its extension.
    public func open(_ bytes: EncodedBytes, fileName: String? = nil) throws(CodecError) -> OpenedMedia {
        try open(bytes, format: ImageFormat.identify(bytes, fileName: fileName), fileName: fileName)
    }

    /// Opens a file held in memory whose format was recognised already (nil: none Sepia knows), without
    /// sniffing it again.
    public func open(_ bytes: EncodedBytes, format: ImageFormat?, fileName: String? = nil) throws(CodecError) -> OpenedMedia {
        let file = MediaFile(path: fileName ?? "", format: format, head: bytes.prefix(400), byteCount: bytes.count)
        let claiming = openers(claiming: file)
        guard let format, let last = claiming.last else { throw refusal(of: format, head: file.head, file: fileName) }
        for opener in claiming.dropLast() {
            do {
                return try opener.open(bytes, format: format, fileName: fileName)
            } catch  where error.code == .unsupportedFormat {
                // Not this opener's after all: the next one that claims it reads it.
            }
        }
        return try last.open(bytes, format: format, fileName: fileName)
    }

    /// Why a file no opener takes is refused: not recognised, or of a format nothing here reads.
    public func refusal(of format: ImageFormat?, head: [UInt8], file: String?) -> CodecError {
        guard let format else {
            let signature = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return CodecError(
                .unrecognizedFormat, "not a photo or video Sepia recognises (first bytes: \(signature)); it reads \(accepted)", file: file)
        }
        return CodecError(.unsupportedFormat, format: format, "\(format) files are not read; Sepia reads \(accepted)", file: file)
    }

    /// What the openers read, in words: "JPEG, PNG, WebP, HEIC, AVIF and TIFF photos, camera RAW photos (…) and MP4,
    /// MOV, … videos".
    public var accepted: String {
        let parts = openers.map(\.formatsDescription)
        guard let last = parts.last else { return "nothing" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }
}
