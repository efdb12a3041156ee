/// Why a face request failed, in words a person can act on.
public struct VisionError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Code: Sendable, Hashable {
        /// The face models are not installed where Sepia looks for them.
        case modelsMissing
        /// A model file is not the one Sepia was built for (damaged, truncated or replaced).
        case modelDamaged
        /// The face engine library (libSepiaFaceEngine.so, or dlib under it) could not be loaded.
        case engineUnavailable
        /// The image could not be decoded or rendered for the search.
        case imageFailed
        /// The engine failed on an image (out of memory, …).
        case engineFailed
        /// The request was cancelled.
        case cancelled
    }

    /// What kind of failure it was.
    public var code: Code
    /// What failed and what to do.
    public var message: String

    /// A failure of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
