public import SepiaImage
import Synchronization

/// A decodable image file, its header read and its metadata parsed, ready to be decoded by a render.
///
/// ```swift
/// let file = try ImageDecoding.open(path: "IMG_0001.jpg")
/// print(file.format, file.displaySize, file.metadata.captureDate ?? "no date")
/// let upright = file.image          // oriented, not yet decoded
/// ```
public protocol EncodedImage: ImageSource {
    /// The format, as sniffed from the bytes.
    var format: ImageFormat { get }
    /// Metadata: capture date, camera, location, colour profile.
    var metadata: ImageMetadata { get }
    /// The orientation that turns the decoded pixels upright: EXIF's for JPEG, PNG and WebP; `.up` for HEIF
    /// and AVIF, whose decoder already applies the container's rotation and mirroring.
    var orientation: Orientation { get }
    /// The colour space the pixels are converted from ("sRGB", an ICC profile's name, …).
    var colorSpace: String { get }
    /// Format-specific facts for people: "progressive", "16-bit", "animated: first frame", …
    var details: [String] { get }
    /// Problems met while decoding so far (lenient mode); empty when the data was clean.
    var decodeWarnings: DecodeWarnings { get }
    /// The file the image was read from, if any; decoding errors name it.
    var file: String? { get }
}

extension EncodedImage {
    /// The image turned upright: what a viewer shows.
    public var image: Image { Image(source: self).oriented(orientation) }

    /// The size as displayed, after orientation.
    public var displaySize: IntSize { orientation.displaySize(forStored: pixelSize) }
}

extension CodecError {
    /// The error naming `file`, unless it already names one.
    func naming(_ file: String?) -> CodecError {
        guard self.file == nil, let file else { return self }
        return inFile(file)
    }
}

/// Warnings a decoder reported while decoding (corrupt data it repaired in lenient mode). Thread-safe.
public final class DecodeWarnings: Sendable {
    private let messages = Mutex<[String]>([])

    /// Creates an empty list.
    public init() {}

    /// Adds a warning (duplicates are kept once).
    package func add(_ message: String) {
        messages.withLock { list in
            if !list.contains(message) { list.append(message) }
        }
    }

    /// The warnings so far.
    public var all: [String] { messages.withLock { $0 } }
}
