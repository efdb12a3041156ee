/// How stored pixels must be turned to appear upright: the eight values of the EXIF/TIFF `Orientation` tag.
///
/// The raw values are EXIF's. Core Image's `CGImagePropertyOrientation` uses the same numbering.
/// ``transformsSize`` is true for the four orientations that exchange width and height.
public enum Orientation: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored and rotated 90° counter-clockwise).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to display.
    case right = 6
    /// 7: transversed (mirrored and rotated 90° clockwise).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to display.
    case left = 8

    /// Interprets an EXIF value; anything outside 1...8 (0 is common) means `.up`.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// Whether displaying the image exchanges its width and height.
    public var transformsSize: Bool { rawValue >= 5 }

    /// Whether the transform only mirrors left to right, so rows can still be produced top to bottom.
    var preservesRowOrder: Bool { self == .up || self == .upMirrored }

    /// The displayed size of an image stored at `size`.
    public func displaySize(forStored size: IntSize) -> IntSize {
        transformsSize ? size.transposed : size
    }

    /// The orientation that undoes this one.
    public var inverse: Orientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self
        }
    }

    /// Maps a displayed pixel to the stored pixel it shows, for an image stored at `size`.
    @inline(__always)
    func storedPixel(x: Int, y: Int, storedSize size: IntSize) -> (x: Int, y: Int) {
        let w = size.width
        let h = size.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// The stored rectangle holding the pixels a displayed rectangle shows.
    func storedRect(forDisplayed rect: IntRect, storedSize size: IntSize) -> IntRect {
        if rect.isEmpty { return .zero }
        let a = storedPixel(x: rect.minX, y: rect.minY, storedSize: size)
        let b = storedPixel(x: rect.maxX - 1, y: rect.maxY - 1, storedSize: size)
        return IntRect(
            minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x) + 1, maxY: max(a.y, b.y) + 1)
    }

    /// "1 (up)" and so on.
    public var description: String {
        let names = ["up", "up-mirrored", "down", "down-mirrored", "left-mirrored", "right", "right-mirrored", "left"]
        return "\(rawValue) (\(names[rawValue - 1]))"
    }
}
