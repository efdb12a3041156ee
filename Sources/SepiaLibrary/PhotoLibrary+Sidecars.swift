import Foundation
import SepiaCodecs
import SepiaPlaces
public import SepiaXMP

extension PhotoLibrary {
    /// What an exported asset's XMP sidecar (`NAME.ext.xmp`) says about it: its title, caption, keywords and
    /// rating, its capture date in the zone it was taken in and its location (as edited in the library) — named, as
    /// city, state and country, when the user set it — and its
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
        // A place found for a location the user set is theirs to share by name; one found for a camera's GPS
        // position is left to the coordinates, as other tools name places their own way.
        if asset.isLocationEdited, let place = try place(of: asset) {
            metadata.placeNames = XMPPlaceNames(city: place.city, state: place.region, country: place.country, countryCode: place.countryCode)
        }
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

extension PhotoLibrary {
    /// Gives `asset` what the XMP sidecar `bytes` says, as an import gives a photo its sidecar (see
    /// ``AssetImporter``): the rating, title, caption and keywords it has (the others keep their values), its
    /// capture date and place as edits beside the file's own, and its edit (Sepia's recipe, else Camera Raw's crop)
    /// when the photo has none yet. What an uploader does with a sidecar that came with a photo.
    ///
    /// - Parameters:
    ///   - bytes: The sidecar's contents, at most 4 MiB.
    ///   - name: The sidecar's file name, for messages.
    /// - Returns: The asset as it now is, and what was left out of the sidecar, and why.
    /// - Throws: ``LibraryError`` `invalidRequest` when the sidecar is refused (not XMP, malformed, a DOCTYPE, too
    ///   large or deep), naming it; `inRecentlyDeleted`; or when the library cannot be changed.
    public func applySidecar(
        _ bytes: [UInt8], named name: String, to asset: Asset
    ) async throws(LibraryError) -> (
        asset: Asset, warnings: [String]
    ) {
        let asset = try self.asset(asset.id)
        if asset.isRecentlyDeleted { throw LibraryError.inRecentlyDeleted(asset: asset.id) }
        let reading: XMPReading
        do throws(XMPError) {
            reading = try XMPPacket.read(bytes)
        } catch {
            throw LibraryError(.invalidRequest, "the sidecar \(name) was not read: \(error.reason)", subject: asset.id)
        }
        var sidecar = ImportedSidecar(file: name, metadata: reading.metadata, warnings: reading.warnings.map { "\(name): \($0)" })
        let read = sidecar.userMetadata()
        var user = asset.userMetadata
        if reading.metadata.title != nil { user.title = read.title ?? user.title }
        if reading.metadata.caption != nil { user.caption = read.caption ?? user.caption }
        if !read.keywords.isEmpty { user.keywords = read.keywords }
        if reading.metadata.rating != nil { user.rating = read.rating }
        // The date and place as an import takes them: on a copy, whose values are then set as edits.
        var dated = asset
        sidecar.applyDateAndPlace(to: &dated)
        let newDate = dated.creationDate != asset.creationDate || dated.creationDateOffset != asset.creationDateOffset
        let newPlace = reading.metadata.location != nil && dated.location != asset.location
        if user != asset.userMetadata || newDate || newPlace {
            try await performChanges { changes in
                if user != asset.userMetadata { changes.setUserMetadata(user, for: asset.id) }
                if newDate { changes.setCreationDate(dated.creationDate, offset: dated.creationDateOffset, for: asset.id) }
                if newPlace { changes.setLocation(dated.location, for: asset.id) }
            }
        }
        if !asset.hasAdjustments, asset.mediaType == .image,
            let recipe = sidecar.edit(width: asset.pixelWidth, height: asset.pixelHeight, orientation: asset.originalOrientation)
        {
            do {
                try await edit(try self.asset(asset.id), recipe: recipe)
            } catch {
                sidecar.warnings.append("its edit was not applied (\(error)); the photo is unedited")
            }
        }
        return (try self.asset(asset.id), sidecar.warnings)
    }
}

extension PhotoLibrary {
    /// A sidecar's name safe to show in messages: its last path component, without control characters.
    public static func safeSidecarName(_ name: String) -> String {
        safeFilename(name)
    }
}
