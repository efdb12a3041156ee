import Foundation
import SepiaCodecs
public import SepiaXMP

extension PhotoLibrary {
    /// What an exported asset's XMP sidecar (`NAME.ext.xmp`) says about it: its title, caption, keywords and
    /// rating, its capture date in the zone it was taken in and its location (as edited in the library), and its
    /// current edit as Sepia's recipe (`sepia:EditRecipe`), so that the edit survives a trip through other tools
    /// and can be applied again.
    ///
    /// With `rendered`, the sidecar goes beside the edit's render rather than the original, and says so
    /// (``XMPMetadata/editRecipeApplied``): an importer then keeps the recipe as a record and does not apply it a
    /// second time.
    public func sidecarMetadata(for asset: Asset, rendered: Bool = false) throws(LibraryError) -> XMPMetadata {
        var metadata = XMPMetadata()
        metadata.title = asset.title
        metadata.caption = asset.caption
        metadata.keywords = asset.keywords.map { XMPKeyword($0.split(separator: "|").map(String.init)) }
        metadata.rating = asset.rating > 0 ? .stars(asset.rating) : nil
        let local = asset.localCreationDate
        if let year = local.year, let month = local.month, let day = local.day {
            metadata.captureDate = CaptureDate(
                year: year, month: month, day: day, hour: local.hour ?? 0, minute: local.minute ?? 0, second: local.second ?? 0,
                utcOffsetSeconds: asset.creationDateOffset, origin: .xmp)
        }
        metadata.location = asset.location
        if let adjustment = try currentAdjustment(of: asset), adjustment.data.isEditRecipe {
            metadata.editRecipe = String(decoding: adjustment.data.data, as: UTF8.self)
            metadata.editRecipeApplied = rendered
        }
        return metadata
    }

    /// ``sidecarMetadata(for:)`` as the bytes of an XMP sidecar file; nil when the asset has nothing to say (no
    /// title, caption, keywords, rating, date, location or edit recipe).
    /// - Throws: ``LibraryError`` when the library cannot be read or the packet cannot be written.
    public func sidecarPacket(for asset: Asset, rendered: Bool = false) throws(LibraryError) -> [UInt8]? {
        let metadata = try sidecarMetadata(for: asset, rendered: rendered)
        guard !metadata.isEmpty else { return nil }
        do throws(XMPError) {
            return try XMPPacket.serialize(metadata)
        } catch {
            throw LibraryError(.invalidRequest, "cannot write the XMP sidecar: \(error.reason)", subject: asset.id)
        }
    }
}
