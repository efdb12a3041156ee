/// How an image is fitted into a target size, after UIKit's `UIView.ContentMode` and PhotoKit's
/// `PHImageContentMode`.
public enum ContentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Scale to fit inside the size, keeping the aspect ratio (`scaleAspectFit`). Never upscales.
    case aspectFit = "fit"
    /// Scale to cover the size, keeping the aspect ratio, and crop the overflow around the centre
    /// (`scaleAspectFill` with clipping). Never upscales: a small image is cropped to the target's aspect ratio.
    case aspectFill = "fill"
    /// Scale each axis independently to exactly the size (`scaleToFill`).
    case scaleToFill = "stretch"

    /// The size an image of `source` size is resized to before any crop, for a `target` size.
    public func scaledSize(of source: IntSize, toFit target: IntSize) -> IntSize {
        guard source.width > 0, source.height > 0, target.width > 0, target.height > 0 else { return .init(width: 0, height: 0) }
        let sx = Double(target.width) / Double(source.width)
        let sy = Double(target.height) / Double(source.height)
        switch self {
        case .scaleToFill:
            return target
        case .aspectFit:
            let s = min(1, min(sx, sy))
            return IntSize(
                width: max(1, Int((Double(source.width) * s).rounded())),
                height: max(1, Int((Double(source.height) * s).rounded())))
        case .aspectFill:
            let s = min(1, max(sx, sy))
            return IntSize(
                width: max(1, Int((Double(source.width) * s).rounded())),
                height: max(1, Int((Double(source.height) * s).rounded())))
        }
    }

    /// The final size of a thumbnail of `source` for `target`.
    public func outputSize(of source: IntSize, for target: IntSize) -> IntSize {
        let scaled = scaledSize(of: source, toFit: target)
        switch self {
        case .aspectFill:
            if scaled.width >= target.width && scaled.height >= target.height { return target }
            // The source is smaller than the target: keep the target's aspect ratio at the largest size that fits.
            let aspect = Double(target.width) / Double(target.height)
            var w = scaled.width
            var h = Int((Double(w) / aspect).rounded())
            if h > scaled.height {
                h = scaled.height
                w = Int((Double(h) * aspect).rounded())
            }
            return IntSize(width: max(1, min(w, scaled.width)), height: max(1, min(h, scaled.height)))
        default:
            return scaled
        }
    }
}
