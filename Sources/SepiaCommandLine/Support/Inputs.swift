import Foundation
package import SepiaCodecs
import SepiaMedia
import SepiaRAW
import SepiaVideo

/// An input opened for a command: an image, or a video's poster frame as an image, with what `info` adds for a
/// video.
package struct OpenedInput: Sendable {
    /// The image the command works on.
    package var file: any EncodedImage
    /// Lines `info` prints after the image's: label and value.
    package var details: [ReportLine]
    /// What `info --json` adds under `video`.
    package var json: EncodableValue?

    package init(file: any EncodedImage, details: [ReportLine] = [], json: EncodableValue? = nil) {
        self.file = file
        self.details = details
        self.json = json
    }
}

/// One labelled line of a report for people.
package struct ReportLine: Sendable {
    package var label: String
    package var value: String

    package init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

/// A value encoded as itself, for a report's optional parts whose type this module does not know.
package struct EncodableValue: Encodable, Sendable {
    package let value: any Encodable & Sendable

    package init(_ value: any Encodable & Sendable) {
        self.value = value
    }

    package func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// How the commands open their input files.
///
/// Formats are recognised by their bytes: a video is opened by SepiaVideo (its poster frame is the image, and
/// `info` reports its streams), anything else by the still-image decoders. FFmpeg's libraries are loaded only
/// when the first video is opened, so the commands start as fast for photos as before videos were read.
package enum Inputs {
    /// Opens `path`: a video through SepiaVideo, anything else through the still-image decoders.
    package static func open(path: String, options: DecodeOptions) throws -> OpenedInput {
        let (first, size) = head(of: path) ?? ([], 0)
        // A movie's opener reads it where it is (SepiaMedia's list says which kind a format makes); what `info`
        // says of a video is what its opener found.
        if let format = ImageFormat.sniff(first), MediaOpeners.standard.kind(of: format)?.isMovie == true {
            let file = MediaFile(path: path, format: format, head: first, byteCount: size)
            let video = try VideoOpener(options: VideoOptions(frameLimitsOf: options)).open(file)
            return OpenedInput(
                file: video.still, details: video.facts.map { ReportLine($0.label, $0.value) }, json: video.report.map(EncodableValue.init))
        }
        let file: any EncodedImage
        do {
            file = try PhotoDecoding.open(path: path, options: options)
        } catch {
            guard error.code == .unrecognizedFormat else { throw error }
            // The commands take videos too: say so.
            let signature = first.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw CodecError(
                .unrecognizedFormat,
                "not a photo or video Sepia recognises (first bytes: \(signature)); it reads JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW photos "
                    + "and MP4, MOV, 3GP, MKV, WebM, AVI and MPEG-TS videos", file: error.file ?? path)
        }
        return OpenedInput(file: file)
    }

    /// The first bytes of a regular file and its size, nil when `path` is not one or cannot be read.
    static func head(of path: String) -> (bytes: [UInt8], size: Int)? {
        let fd = openForReading(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return (Array(buffer.prefix(count)), Int(status.st_size))
    }
}

/// `open(2)` for reading, outside ``Inputs`` whose own `open` would shadow it.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
