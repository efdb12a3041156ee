/// An image recipe: where pixels come from and what to do to them, with no pixels computed yet.
///
/// `Image` is Sepia's `CIImage`. Building `image.oriented(.right).resized(to: size).applying(filter)` is
/// cheap: it records steps. Pixels exist only when a ``RenderContext`` renders the image, which plans the
/// whole chain at once: consecutive per-pixel filters run as one pass, decoders shrink on load when the result
/// is smaller, and tiles are computed in parallel.
///
/// Images are immutable values and may be shared freely between threads. Outside its ``extent`` an image is
/// transparent black.
///
/// ```swift
/// let photo = Image(source: try ImageDecoding.source(for: bytes))
/// let thumb = photo.oriented(source.orientation).thumbnail(size: IntSize(width: 256, height: 256))
/// let bitmap = try await RenderContext.shared.renderBitmap(thumb)
/// ```
public struct Image: Sendable {
    let recipe: any RecipeNode

    init(recipe: any RecipeNode) {
        self.recipe = recipe
    }

    /// Where the image's pixels are; ``IntRect/infinite`` for generated or clamped images.
    public var extent: IntRect { recipe.extent }

    /// Whether every pixel inside the extent is known to be opaque.
    public var isOpaque: Bool { recipe.isOpaque }

    /// An image whose pixels a codec decodes when rendered. The image is as stored: apply the source's
    /// orientation with ``oriented(_:)``.
    public init(source: some ImageSource) {
        self.init(recipe: SourceRecipe(source: source))
    }

    /// An image of pixels already in the working space.
    public init(pixels: PixelBuffer) {
        self.init(recipe: MemoryRecipe(buffer: pixels))
    }

    /// An image of 8-bit sRGB samples.
    public init(bitmap: Bitmap) {
        self.init(source: BitmapSource(bitmap: bitmap))
    }

    /// An infinite image of one colour, given in the working space (linear light, premultiplied alpha).
    public init(color: SIMD4<Float>) {
        self.init(recipe: ColorRecipe(color: color))
    }

    /// The empty image: transparent everywhere, with an empty extent.
    public static let empty = Image(color: .zero)
}
