/// A rectangle in an image's normalised coordinates: origin at the top left, x to the right, y down, the
/// image's width and height both 1. Faces are located this way in the asset as it is shown: its current version,
/// upright (the EXIF orientation and the edit's crop and rotation applied; an edit that changes them has the asset
/// indexed again), so a box stays right whatever size the image is shown at.
public struct FaceBox: Sendable, Hashable, Codable {
    /// The left edge, from 0 (the image's left) to 1.
    public var x: Double
    /// The top edge, from 0 (the image's top) to 1.
    public var y: Double
    /// The width, as a fraction of the image's width.
    public var width: Double
    /// The height, as a fraction of the image's height.
    public var height: Double

    /// A rectangle clamped to the image: edges outside 0...1 are moved onto it (a face cut by the frame keeps
    /// the part inside), and a value that is not a number counts as 0.
    public init(x: Double, y: Double, width: Double, height: Double) {
        func clamped(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }
        let left = clamped(x)
        let top = clamped(y)
        let right = clamped(x + (width.isNaN ? 0 : max(0, width)))
        let bottom = clamped(y + (height.isNaN ? 0 : max(0, height)))
        self.x = left
        self.y = top
        self.width = max(0, right - left)
        self.height = max(0, bottom - top)
    }

    /// The area, as a fraction of the image's.
    public var area: Double { width * height }

    /// The area both rectangles cover divided by the area either covers (0 when they do not overlap, 1 when
    /// they are the same): how faces found again (by a newer algorithm, after an edit) are matched to the faces
    /// found before.
    public func intersectionOverUnion(_ other: FaceBox) -> Double {
        let overlapWidth = min(x + width, other.x + other.width) - max(x, other.x)
        let overlapHeight = min(y + height, other.y + other.height) - max(y, other.y)
        guard overlapWidth > 0, overlapHeight > 0 else { return 0 }
        let overlap = overlapWidth * overlapHeight
        let union = area + other.area - overlap
        return union > 0 ? overlap / union : 0
    }
}
