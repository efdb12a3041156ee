/// The LetsEat Photo Filter screen's strip: one photo shown through every catalog entry, as thumbnails.
///
/// The photo is decoded once, shrinking on load, and resized to the thumbnail size in one render; every filter
/// then runs on that small image. Spatial filters (blur radii, pixel sizes) therefore act at thumbnail scale,
/// which is what a strip of previews shows.
public enum FilterStrip {
    /// One rendered entry.
    public struct Thumbnail: Sendable {
        /// The catalog entry.
        public let item: FilterItem
        /// The filtered thumbnail.
        public let bitmap: Bitmap
    }

    /// Renders `image` (usually an upright source) through each item at `size` with `mode`.
    public static func render(
        _ image: Image, items: [FilterItem], size: IntSize, mode: ContentMode = .aspectFit, context: RenderContext
    ) async throws -> [Thumbnail] {
        let base = try await context.render(image.thumbnail(size: size, mode: mode))
        let small = Image(pixels: base)
        var thumbnails: [Thumbnail] = []
        for item in items {
            let filtered = try item.apply(to: small)
            let bitmap = try await context.renderBitmap(filtered, region: base.extent)
            thumbnails.append(Thumbnail(item: item, bitmap: bitmap))
        }
        return thumbnails
    }
}
