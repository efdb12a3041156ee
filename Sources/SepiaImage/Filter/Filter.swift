/// A Core Image–style filter: a value with typed parameters that turns an input image into an output recipe.
///
/// Every filter has a ``FilterDescriptor`` with its Core Image name and the attributes of each parameter
/// (default, minimum, maximum, slider range, identity), is `Codable` with the parameter keys as coding keys,
/// and builds its output lazily: applying a filter records steps; nothing is computed until a render.
///
/// Programmatic initialisers clamp parameters into their valid ranges. Values decoded from data (edit
/// recipes, the command line) are validated by ``FilterRegistry`` and rejected when out of range.
public protocol Filter: Sendable, Hashable, Codable {
    /// Name, Core Image name and parameter attributes.
    static var descriptor: FilterDescriptor { get }
    /// The output recipe for `image`.
    func apply(to image: Image) -> Image
    /// Checks constraints between parameters that the descriptor's ranges cannot express (a colour cube's data
    /// must match its dimension). Called by ``FilterRegistry`` on filters made from data.
    func validate() throws(FilterError)
}

extension Filter {
    /// No constraints beyond the descriptor's by default.
    public func validate() throws(FilterError) {}
}

/// A filter that changes each pixel independently of its neighbours (a Core Image colour kernel).
///
/// Consecutive point filters are fused into one pass over the pixels, and filters that are affine in colour
/// (``colorMatrix`` not nil) are multiplied into a single matrix.
public protocol PointFilter: Filter {
    /// Transforms one pixel: unpremultiplied RGBA in linear light (sRGB primaries).
    func apply(to pixel: SIMD4<Float>) -> SIMD4<Float>
    /// The filter as a colour matrix, when it is one.
    var colorMatrix: ColorMatrix? { get }
    /// Whether output alpha always equals input alpha.
    var preservesAlpha: Bool { get }
}

extension PointFilter {
    /// No matrix by default.
    public var colorMatrix: ColorMatrix? { nil }
    /// Alpha is preserved by default.
    public var preservesAlpha: Bool { true }

    /// Appends the per-pixel function to the image's recipe.
    public func apply(to image: Image) -> Image {
        if let matrix = colorMatrix {
            return image.applyingColorMatrix(matrix)
        }
        return image.applyingPointKernel(FilterPointKernel(filter: self))
    }
}

extension Image {
    /// The image with `filter` applied.
    public func applying(_ filter: some Filter) -> Image {
        filter.apply(to: self)
    }

    /// The image with each filter applied in turn.
    public func applying(_ filters: [any Filter]) -> Image {
        filters.reduce(self) { image, filter in filter.apply(to: image) }
    }
}

/// A filter that changes each pixel from its own value and its position (vignettes). Fused with
/// neighbouring point filters like any other.
public protocol PositionalPointFilter: Filter {
    /// Transforms one unpremultiplied linear-light pixel whose centre is at (`x`, `y`) (pixel centres are at
    /// half-integers: the top-left pixel's centre is (0.5, 0.5)).
    func apply(to pixel: SIMD4<Float>, x: Float, y: Float) -> SIMD4<Float>
}

extension PositionalPointFilter {
    /// Appends the per-pixel function to the image's recipe.
    public func apply(to image: Image) -> Image {
        image.applyingPointKernel(PositionalPointKernel(filter: self))
    }
}
