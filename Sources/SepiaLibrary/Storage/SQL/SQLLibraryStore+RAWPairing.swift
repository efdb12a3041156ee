import Foundation
import SepiaCodecs

/// How a camera's RAW file and its JPEG (or HEIC) of the same shot become one asset, whichever is imported first
/// (DESIGN §11): a RAW photo and a photo that is not RAW pair when they have the same base name
/// (`DSC_0042.NEF`, `DSC_0042.JPG`) and capture times that agree to the second on the camera's clock. The asset
/// shows the JPEG, as Photos does, and keeps the RAW as its ``AssetResourceType/alternatePhoto``.
///
/// Capture times are compared as the camera's local time, because RAW files rarely record the offset their
/// JPEG does. Dates taken from the files' modification times never pair (copying a folder gives every file the
/// same one), nor does an asset that is already a pair or a Live Photo.
enum RAWPairing {
    /// The asset already in the library that `new` completes as a RAW+JPEG pair, if any.
    static func partner(of new: Asset, db: any SQLSession) throws -> Asset? {
        guard new.mediaType == .image, new.creationDateSource != .file, new.mediaSubtypes.isDisjoint(with: [.photoLive, .photoRAWPair])
        else { return nil }
        let excluded = MediaSubtypes.photoLive.rawValue | MediaSubtypes.photoRAWPair.rawValue
        let newIsRAW = new.originalFormat == .cameraRAW
        let local = new.creationDate.timeIntervalSince1970 + Double(new.creationDateOffset ?? 0)
        // Offsets span at most ±18 h: the window is wide, the base name and local time narrow it.
        for row in try db.fetch(
            """
            SELECT \(SQLLibraryStore.assetColumns) FROM asset a
            WHERE a.mediaType = ? AND (a.mediaSubtypes & \(excluded)) = 0 AND a.creationDateSource <> 'file' AND a.trashedDate IS NULL
              AND a.creationDate BETWEEN ? AND ? AND \(newIsRAW ? "a.originalFormat <> ?" : "a.originalFormat = ?")
            ORDER BY a.rowID LIMIT 200
            """,
            [MediaType.image.rawValue, local - 18 * 3600 - 1, local + 18 * 3600 + 1, ImageFormat.cameraRAW.rawValue])
        {
            let candidate = SQLLibraryStore.asset(from: row)
            let candidateLocal = candidate.creationDate.timeIntervalSince1970 + Double(candidate.creationDateOffset ?? 0)
            if abs(candidateLocal - local) <= LivePhotoPairing.captureTimeTolerance,
                LivePhotoPairing.baseName(candidate.originalFilename) == LivePhotoPairing.baseName(new.originalFilename)
            {
                return candidate
            }
        }
        return nil
    }
}

extension SQLLibraryStore {
    /// Makes `existing` a RAW+JPEG pair with the file `new` brings. A RAW file becomes its alternate photo. A
    /// JPEG becomes its photo and the RAW already there its alternate: the asset takes the JPEG's size, file and
    /// camera, and its original version gets a new name, so that renditions of the RAW are not taken for the
    /// JPEG's; unless the RAW is edited, when the JPEG becomes the alternate and the edited RAW still shows. One update of `existing` in the change log. Returns whether the original version changed.
    @discardableResult
    static func pairRAW(_ new: NewAsset, with existing: Asset, db: any SQLSession, now: Double) throws -> Bool {
        let pairBit = MediaSubtypes.photoRAWPair.rawValue
        guard let part = new.resources.first else { return false }
        // An edited RAW keeps showing: its edit was made on it (Lightroom's crop in the RAW's sidecar, say), and a
        // JPEG shown under that edit would not match it. The JPEG becomes the alternate, as a RAW joining does.
        if new.asset.originalFormat == .cameraRAW || existing.currentAdjustmentID != nil {
            try insertResource(part, type: .alternatePhoto, assetRowID: existing.rowID, db: db)
            try db.execute(
                "UPDATE asset SET mediaSubtypes = mediaSubtypes | \(pairBit), revision = revision + 1, modificationDate = ? WHERE rowID = ?",
                [now, existing.rowID])
            try log(db, entity: "asset", rowID: existing.rowID, identifier: existing.id, operation: "update")
            return false
        }
        let a = new.asset
        try db.execute(
            "UPDATE resource SET type = ? WHERE assetRowID = ? AND type = ?",
            [AssetResourceType.alternatePhoto.rawValue, existing.rowID, AssetResourceType.photo.rawValue])
        try insertResource(part, type: .photo, assetRowID: existing.rowID, db: db)
        try useAsOriginal(a, assetRowID: existing.rowID, subtypes: pairBit, db: db, now: now)
        try log(db, entity: "asset", rowID: existing.rowID, identifier: existing.id, operation: "update")
        return true
    }

    /// Makes the pair `assetID` show its RAW file (`raw`) or its other file: the two resources trade types and the
    /// asset takes the shown file's size, name and format under a new original version. Returns whether anything
    /// changed.
    static func showRAW(_ raw: Bool, assetID: String, db: any SQLSession, now: Double) throws -> Bool {
        guard let row = try db.fetchOne("SELECT \(assetColumns) FROM asset a WHERE a.localIdentifier = ?", [assetID])
        else { throw LibraryError.notFound(asset: assetID) }
        let asset = Self.asset(from: row)
        if asset.isRecentlyDeleted { throw LibraryError.inRecentlyDeleted(asset: assetID) }
        guard asset.mediaSubtypes.contains(.photoRAWPair) else {
            throw LibraryError(.invalidRequest, "the photo is not a RAW+JPEG pair: it has no other file to show", subject: assetID)
        }
        guard (asset.originalFormat == .cameraRAW) != raw else { return false }
        guard asset.currentAdjustmentID == nil else {
            throw LibraryError(
                .invalidRequest, "the photo is edited, and the edit was made on the file it shows; revert the edit first", subject: assetID)
        }
        guard
            let other = try db.fetchOne(
                "SELECT \(resourceColumns) FROM resource r JOIN asset a ON a.rowID = r.assetRowID WHERE r.assetRowID = ? AND r.type = ?",
                [asset.rowID, AssetResourceType.alternatePhoto.rawValue]
            ).flatMap(Self.resource(from:))
        else { throw LibraryError(.database, "the pair's other file is missing from the library; run `sepia check`", subject: assetID) }
        // In three steps: a resource's type is unique per asset, checked row by row.
        let (photo, alternate, swapping) = (AssetResourceType.photo.rawValue, AssetResourceType.alternatePhoto.rawValue, 0)
        for (from, to) in [(photo, swapping), (alternate, photo), (swapping, alternate)] {
            try db.execute("UPDATE resource SET type = ? WHERE assetRowID = ? AND type = ?", [to, asset.rowID, from])
        }
        var shown = asset
        shown.pixelWidth = other.pixelWidth
        shown.pixelHeight = other.pixelHeight
        shown.originalWidth = other.pixelWidth
        shown.originalHeight = other.pixelHeight
        shown.originalFilename = other.originalFilename
        shown.contentHash = other.contentHash
        shown.originalFormat = other.format
        shown.originalByteCount = other.byteCount
        shown.originalOrientation = 1
        shown.location = nil
        (shown.cameraMake, shown.cameraModel) = (nil, nil)
        try useAsOriginal(shown, assetRowID: asset.rowID, subtypes: 0, db: db, now: now)
        try log(db, entity: "asset", rowID: asset.rowID, identifier: asset.id, operation: "update")
        return true
    }

    /// Points the asset's columns at the file `a` describes (its size, name, hash, format, orientation, camera),
    /// and gives its original version a new name.
    static func useAsOriginal(_ a: Asset, assetRowID: Int64, subtypes: Int, db: any SQLSession, now: Double) throws {
        try db.execute(
            """
            UPDATE asset SET mediaSubtypes = mediaSubtypes | ?, pixelWidth = ?, pixelHeight = ?,
              latitude = coalesce(latitude, ?), longitude = coalesce(longitude, ?), altitude = coalesce(altitude, ?),
              originalFilename = ?, contentHash = ?, originalFormat = ?, originalByteCount = ?, originalOrientation = ?,
              originalWidth = ?, originalHeight = ?, cameraMake = coalesce(?, cameraMake), cameraModel = coalesce(?, cameraModel),
              originalVersion = ?, revision = revision + 1, modificationDate = ?
            WHERE rowID = ?
            """,
            [
                subtypes, a.pixelWidth, a.pixelHeight, a.location?.latitude, a.location?.longitude, a.location?.altitude,
                a.originalFilename, a.contentHash, a.originalFormat.rawValue, a.originalByteCount, a.originalOrientation,
                a.originalWidth, a.originalHeight, a.cameraMake, a.cameraModel, "original-" + a.contentHash.prefix(16), now, assetRowID,
            ])
    }
}
