import Foundation
import Hummingbird
import NIOCore
import SepiaImage
import SepiaLibrary

extension EditController {
    /// `GET /assets/{id}/preset-strip?size=N`: the photo through each of the caller's presets, one square tile
    /// per preset side by side in one JPEG, in the order `X-Sepia-Strip-Presets` names them (the order of
    /// `GET /presets` when it was made). Each preset applies after the photo's own geometry and RAW
    /// development, as it would when chosen.
    @Sendable func presetStrip(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let tile = try Query(request: request).int("size", in: 32...512) ?? 160
        let presets = try identity.photoLibrary.presets()
        let start = ContinuousClock.now
        let previews = identity.library.previews
        let rendition = try await services.renders.render(for: identity.user.id, context: context) {
            try await previews.strip(of: asset, recipes: presets.map(\.recipe), names: presets.map(\.name), tile: tile)
        }
        services.metrics.recordRender("strip", duration: ContinuousClock.now - start)
        var headers: HTTPFields = [
            .eTag: "\"" + rendition.contentTag + "\"", .cacheControl: "private, no-cache",
            .xSepiaStripPresets: presets.map(\.id).joined(separator: ","),
        ]
        if RenditionController.matches(request, etag: rendition.contentTag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/jpeg"
        headers[.contentLength] = String(rendition.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: rendition.data)))
    }
}
