/// Why an XMP packet or sidecar could not be read or written: what is wrong, and in which file.
///
/// ``description`` is a sentence for people, e.g.
/// `IMG_0001.jpg.xmp: XMP: refused: a DOCTYPE (document type declaration) at line 1, column 1; XMP packets never
/// have one, and Sepia does not read them (they can define entities that expand or read files)`.
public struct XMPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// Exempi or expat could not be loaded.
        case libraryUnavailable
        /// The packet is larger than ``XMPLimits/maximumBytes``.
        case tooLarge
        /// The packet is not well-formed XML, or not XMP Exempi can parse.
        case malformed
        /// The packet is well-formed but refused: a DOCTYPE or entity declaration, or past one of
        /// ``XMPLimits``: elements nested too deep, too many namespaces, a node with too many members, too many
        /// nodes, too much work for Exempi.
        case refused
        /// A value to write cannot be written (a control character in a title, a recipe that is not JSON, …).
        case invalidValue
        /// Reading or writing a file failed.
        case fileSystem
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, in words.
    public var reason: String
    /// The file involved, when known.
    public var file: String?

    /// Creates an error.
    public init(_ code: Code, _ reason: String, file: String? = nil) {
        self.code = code
        self.reason = reason
        self.file = file
    }

    /// `file: XMP: reason`.
    public var description: String {
        if let file { return "\(file): XMP: \(reason)" }
        return "XMP: \(reason)"
    }

    func inFile(_ file: String) -> XMPError {
        var copy = self
        copy.file = file
        return copy
    }
}

/// A property the reader found but ignored, because its value is not valid (a rating of `abc` or 99, a latitude
/// of 200°, a crop outside the image): the rest of the packet is still read.
public struct XMPWarning: Sendable, Hashable, CustomStringConvertible {
    /// The property, with its usual prefix: `xmp:Rating`.
    public var property: String
    /// The value found, shortened to 80 characters.
    public var value: String
    /// Why it was ignored.
    public var reason: String

    /// Creates a warning.
    public init(property: String, value: String, reason: String) {
        self.property = property
        self.value = value.count > 80 ? String(value.prefix(79)) + "…" : value
        self.reason = reason
    }

    /// `xmp:Rating "99" ignored: a rating is -1 (rejected), 0 (unrated) or 1 to 5 stars`.
    public var description: String {
        "\(property) \"\(value)\" ignored: \(reason)"
    }
}

/// What reading a packet gave: the metadata, and the properties that were ignored.
public struct XMPReading: Sendable, Hashable {
    /// The valid values found.
    public var metadata: XMPMetadata
    /// The properties found but ignored, in the order read.
    public var warnings: [XMPWarning]
    /// The sidecar read, when the packet came from a file.
    public var file: String?

    /// Creates a reading.
    public init(metadata: XMPMetadata, warnings: [XMPWarning] = [], file: String? = nil) {
        self.metadata = metadata
        self.warnings = warnings
        self.file = file
    }
}
