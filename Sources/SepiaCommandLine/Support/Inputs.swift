import Foundation
package import SepiaCodecs
import Synchronization

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
/// Formats are recognised by their bytes. `sepia` links only the still-image codecs, and hands a command whose
/// inputs include a video to `sepia-library` (``isVideo(path:)``); `sepia-library` links SepiaVideo and installs
/// a video opener before it runs a command, so the same commands read a video's poster frame.
package enum Inputs {
    /// Opens a video file as an image (its poster).
    package typealias VideoOpener = @Sendable (_ path: String, _ options: DecodeOptions) throws -> OpenedInput

    private static let videoOpener = Mutex<VideoOpener?>(nil)

    /// Installs the opener of videos; `sepia-library` does, at start.
    package static func installVideoOpener(_ opener: @escaping VideoOpener) {
        videoOpener.withLock { $0 = opener }
    }

    /// Opens `path`: a video through the installed opener, anything else through the still-image decoders
    /// (which refuse a video, naming SepiaVideo, when no opener is installed).
    package static func open(path: String, options: DecodeOptions) throws -> OpenedInput {
        if let opener = videoOpener.withLock({ $0 }), let head = head(of: path), ImageFormat.sniff(head)?.isVideo == true {
            return try opener(path, options)
        }
        return OpenedInput(file: try ImageDecoding.open(path: path, options: options))
    }

    /// Whether `path` names a readable file whose first bytes are a video container's.
    package static func isVideo(path: String) -> Bool {
        guard let head = head(of: path) else { return false }
        return ImageFormat.sniff(head)?.isVideo == true
    }

    /// The first bytes of a regular file, nil when `path` is not one or cannot be read.
    static func head(of path: String) -> [UInt8]? {
        let fd = openForReading(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Array(buffer.prefix(count))
    }
}

/// `open(2)` for reading, outside ``Inputs`` whose own `open` would shadow it.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
