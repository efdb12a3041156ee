/// A rectangle of whole pixels: `x`/`y` is the top-left corner, `y` grows downwards.
///
/// Sepia's engine works on integral pixel grids, so every extent and region of interest is an `IntRect`.
/// An image with no bounds (a solid colour, or an image clamped to its extent) has the ``infinite`` extent.
/// `maxX`/`maxY` are exclusive.
public struct IntRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width in pixels; never negative.
    public var width: Int
    /// The height in pixels; never negative.
    public var height: Int

    /// Creates a rectangle; negative sizes are treated as empty.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Creates a rectangle at the origin with the given size.
    public init(size: IntSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Creates the rectangle spanning `minX..<maxX` × `minY..<maxY`.
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    private static let infiniteOrigin = -(1 << 40)
    private static let infiniteSize = 1 << 41

    /// The unbounded rectangle: the extent of generated images and of images clamped to their extent.
    public static let infinite = IntRect(x: infiniteOrigin, y: infiniteOrigin, width: infiniteSize, height: infiniteSize)

    /// The empty rectangle at the origin.
    public static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)

    /// Whether this rectangle is (at least as large as) the infinite rectangle.
    public var isInfinite: Bool { width >= Self.infiniteSize || height >= Self.infiniteSize }

    /// Whether the rectangle contains no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The left edge.
    public var minX: Int { x }
    /// The top edge.
    public var minY: Int { y }
    /// One past the right edge.
    public var maxX: Int { x + width }
    /// One past the bottom edge.
    public var maxY: Int { y + height }
    /// The size of the rectangle.
    public var size: IntSize { IntSize(width: width, height: height) }
    /// The number of pixels inside.
    public var area: Int { width * height }

    /// The pixels both rectangles contain; empty when they do not overlap.
    public func intersection(_ other: IntRect) -> IntRect {
        let x0 = Swift.max(minX, other.minX)
        let y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX)
        let y1 = Swift.min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    /// The smallest rectangle containing both; an empty rectangle contributes nothing.
    public func union(_ other: IntRect) -> IntRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return IntRect(
            minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// Grows (negative values) or shrinks (positive values) the rectangle on every side.
    /// The infinite rectangle stays infinite.
    public func insetBy(dx: Int, dy: Int) -> IntRect {
        if isInfinite { return self }
        return IntRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The rectangle moved by the given offsets. The infinite rectangle stays infinite.
    public func offsetBy(dx: Int, dy: Int) -> IntRect {
        if isInfinite { return self }
        return IntRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// Whether every pixel of `other` is inside this rectangle.
    public func contains(_ other: IntRect) -> Bool {
        other.isEmpty || (other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// Whether the pixel at (`x`, `y`) is inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= minX && px < maxX && py >= minY && py < maxY
    }

    /// "x,y WxH", or "infinite".
    public var description: String {
        isInfinite ? "infinite" : "\(x),\(y) \(width)x\(height)"
    }
}

/// A size in whole pixels.
public struct IntSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size; negative values become zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The number of pixels.
    public var area: Int { width * height }

    /// The size with width and height exchanged.
    public var transposed: IntSize { IntSize(width: height, height: width) }

    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}
