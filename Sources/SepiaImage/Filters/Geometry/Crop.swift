/// Crops to a rectangle: Core Image's `CICrop`.
///
/// `rectangle` is `[x, y, width, height]` in Sepia's coordinates (origin top-left); the default is Core
/// Image's "infinite" rectangle, which crops nothing. Fractional edges are rounded outwards to whole pixels.
public struct Crop: Filter {
    /// Core Image's infinite rectangle.
    public static let infiniteRectangle: SIMD4<Double> = [-8.98847e307, -8.98847e307, 1.79769e308, 1.79769e308]

    /// Core Image name `CICrop`.
    public static let descriptor = FilterDescriptor(
        name: "Crop", coreImageName: "CICrop", displayName: "Crop",
        categories: [.geometryAdjustment, .stillImage, .builtIn],
        summary: "Applies a crop to an image.",
        parameters: [
            FilterParameter(
                key: "rectangle", kind: .rectangle, summary: "x, y, width, height.",
                defaultValue: .vector(infiniteRectangle.indices.map { infiniteRectangle[$0] }),
                identity: .vector(infiniteRectangle.indices.map { infiniteRectangle[$0] }))
        ])

    /// `[x, y, width, height]`.
    public var rectangle: SIMD4<Double>

    /// Creates the filter.
    public init(rectangle: SIMD4<Double> = Crop.infiniteRectangle) {
        self.rectangle = rectangle
    }

    /// Creates the filter from a pixel rectangle.
    public init(rect: IntRect) {
        self.init(rectangle: [Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height)])
    }

    /// The rectangle in whole pixels.
    public var pixelRect: IntRect {
        let limit = Double(1 << 40)
        let x0 = max(-limit, rectangle[0]), y0 = max(-limit, rectangle[1])
        let x1 = min(limit, rectangle[0] + rectangle[2]), y1 = min(limit, rectangle[1] + rectangle[3])
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x1 > x0, y1 > y0 else {
            return rectangle[2] > 1e300 ? .infinite : .zero
        }
        return IntRect(minX: Int(x0.rounded(.down)), minY: Int(y0.rounded(.down)), maxX: Int(x1.rounded(.up)), maxY: Int(y1.rounded(.up)))
    }

    /// The image cropped to ``pixelRect``.
    public func apply(to image: Image) -> Image {
        image.cropped(to: pixelRect)
    }
}
