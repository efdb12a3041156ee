import Foundation
import Hummingbird
import NIOCore
import SepiaLibrary

extension AssetController {
    /// What `PUT /assets/{id}/sidecar` answers: the photo as it now is, and what of the sidecar was left out.
    struct SidecarResponse: ResponseEncodable {
        var asset: AssetResponse
        var warnings: [String]
    }

    /// The largest sidecar taken: 4 MiB, as the importer's (XMP sidecars are a few kilobytes).
    static let maximumSidecarBytes = 4 << 20

    /// `PUT /assets/{id}/sidecar`: gives the photo what an XMP sidecar uploaded with it says (its rating, title,
    /// caption and keywords, its date and place as edits, its crop or Sepia recipe as its edit when it has none), as
    /// `sepia import` does with a sidecar beside a photo. The body is the sidecar's bytes; `filename` names it in
    /// messages. `422` when the sidecar is refused (malformed, a DOCTYPE, not XMP), `413` past 4 MiB.
    @Sendable func sidecar(_ request: Request, context: AppRequestContext) async throws -> SidecarResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let name = PhotoLibrary.safeSidecarName(try Query(request: request).string("filename", maximumLength: 255) ?? "sidecar.xmp")
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maximumSidecarBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("the sidecar is larger than the limit of 4 MiB; XMP sidecars are a few kilobytes")
        }
        guard body.readableBytes > 0 else { throw APIError.badRequest("the request needs the sidecar's bytes as its body") }
        let library = identity.photoLibrary
        let result: (asset: Asset, warnings: [String])
        do {
            result = try await library.applySidecar(Array(body.readableBytesView), named: name, to: asset)
        } catch {
            // The sidecar itself was refused: the request was well-formed, its content not.
            if error.code == .invalidRequest { throw APIError.unprocessable(error.reason) }
            throw error
        }
        let (updated, warnings) = result
        if updated.hasAdjustments != asset.hasAdjustments { identity.library.previews.forget(assetID: asset.id) }
        return SidecarResponse(asset: AssetResponse(updated, in: library), warnings: warnings)
    }
}
