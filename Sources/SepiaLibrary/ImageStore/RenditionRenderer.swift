import SepiaCodecs
import SepiaImage

/// Makes renditions: an upright image resized for a target size and mode, encoded as JPEG.
///
/// A rendition's bytes are a function of the version's image and the rendition's key alone — never of which
/// renditions happened to be stored when it was made — so that every process of a deployment that makes the
/// same rendition makes the same bytes, and a URL's strong ETag holds on every server behind a load balancer.
/// The standard renditions are each rendered from the full image; other renditions are derived as
/// ``ImageManager`` decides from the plan alone.
struct RenditionRenderer: Sendable {
    let context: RenderContext
    let quality: Int

    /// The renditions made for every asset when it is imported or edited, as Immich does: a preview that fits
    /// 1440 × 1440 and a thumbnail that fits 256 × 256. Requests for smaller sizes are served from them.
    static let preview = IntSize(width: 1440, height: 1440)
    static let thumbnail = IntSize(width: 256, height: 256)

    /// Renders `image` for `size` and `mode`, encoded as `format` (JPEG or WebP).
    func render(_ image: Image, size: IntSize, mode: ContentMode, format: ImageFormat = .jpeg) async throws -> Rendition {
        let bitmap = try await context.renderBitmap(image.thumbnail(size: size, mode: mode), layout: .rgb)
        // Nobody waits for a rendition whose render was cancelled as it ended: it is not encoded either.
        try Task.checkCancellation()
        return try encode(bitmap, as: format)
    }

    func encode(_ bitmap: Bitmap, as format: ImageFormat = .jpeg) throws -> Rendition {
        let format: ImageFormat = format == .webp ? .webp : .jpeg
        return Rendition(
            data: try ImageEncoding.encode(bitmap, as: format, options: EncodeOptions(quality: quality)), pixelSize: bitmap.size,
            format: format)
    }

    /// Renders and stores the standard renditions of one version of an asset on disk (and in the bucket of a
    /// library on object storage); with `missingOnly`, only those no tier has yet.
    func storeStandardRenditions(
        of image: Image, assetID: String, version: String, in store: ImageStore, missingOnly: Bool = false
    ) async throws {
        for size in [Self.preview, Self.thumbnail] {
            let key = RenditionKey(assetID: assetID, version: version, size: size, mode: .aspectFit)
            if missingOnly, await store.anyRendition(for: key) != nil { continue }
            try await store.storeDurably(try await render(image, size: size, mode: .aspectFit), for: key)
        }
    }

    /// Renders and stores only the thumbnail of one version of an asset, straight from `image` (a decoder that
    /// can shrink while it decodes does most of the work); the preview is left for later.
    func storeThumbnail(of image: Image, assetID: String, version: String, in store: ImageStore) async throws {
        let thumbnail = try await render(image, size: Self.thumbnail, mode: .aspectFit)
        try await store.storeDurably(
            thumbnail, for: RenditionKey(assetID: assetID, version: version, size: Self.thumbnail, mode: .aspectFit))
    }
}
