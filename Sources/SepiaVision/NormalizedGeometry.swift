/// A point in normalised coordinates, as Vision gives them: 0…1 across the image (or a region of it), origin at the
/// lower left, y up.
public struct NormalizedPoint: Sendable, Hashable, Codable {
    /// Across, 0 at the left.
    public var x: Double
    /// Up, 0 at the bottom.
    public var y: Double

    /// The point at `x`, `y`.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle in normalised coordinates, as Vision gives them: 0…1 across the image, origin at the lower left, y up.
public struct NormalizedRect: Sendable, Hashable, Codable {
    /// The left edge, 0…1.
    public var x: Double
    /// The bottom edge, 0…1 (the top edge in ``topLeftOrigin``).
    public var y: Double
    /// The width, a fraction of the image's.
    public var width: Double
    /// The height, a fraction of the image's.
    public var height: Double

    /// The rectangle at `x`, `y` of `width` × `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle of pixels `(x, y, width, height)` of an image of `imageWidth` × `imageHeight` whose origin is at
    /// the top left, y down (a bitmap's rows), clamped to the image.
    public init(pixelX: Double, pixelY: Double, width: Double, height: Double, imageWidth: Double, imageHeight: Double) {
        let left = min(max(pixelX, 0), imageWidth)
        let right = min(max(pixelX + width, 0), imageWidth)
        let top = min(max(pixelY, 0), imageHeight)
        let bottom = min(max(pixelY + height, 0), imageHeight)
        self.init(
            x: left / imageWidth, y: 1 - bottom / imageHeight, width: (right - left) / imageWidth,
            height: (bottom - top) / imageHeight)
    }

    /// The same rectangle with its origin at the top left, y down, as a web page or a bitmap places it.
    public var topLeftOrigin: NormalizedRect { NormalizedRect(x: x, y: 1 - y - height, width: width, height: height) }
}
