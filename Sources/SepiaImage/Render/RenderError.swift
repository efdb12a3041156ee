/// Errors of the rendering engine itself (decoders and filters report their own error types).
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image has no bounds, so a region must be given.
    case infiniteExtent
    /// The requested region holds no pixels.
    case emptyRegion(IntRect)
    /// The output would exceed the pixel limit.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A decoder delivered fewer rows than its header promised.
    case sourceEndedEarly(expectedRows: Int, scale: Int)
    /// The render was cancelled.
    case cancelled
    /// A broken internal invariant; please report it.
    case internalInconsistency(String)

    /// A sentence naming what failed.
    public var description: String {
        switch self {
        case .infiniteExtent:
            return "cannot render an image with an infinite extent: crop it or pass a region"
        case .emptyRegion(let rect):
            return "the region to render (\(rect)) contains no pixels"
        case .tooManyPixels(let w, let h, let limit):
            return "the output would be \(w)x\(h) pixels, more than the limit of \(limit)"
        case .sourceEndedEarly(let rows, let scale):
            return "the decoder stopped before the \(rows) rows its header promised (scale 1/\(scale))"
        case .cancelled:
            return "the render was cancelled"
        case .internalInconsistency(let what):
            return "internal error in the renderer: \(what)"
        }
    }
}
