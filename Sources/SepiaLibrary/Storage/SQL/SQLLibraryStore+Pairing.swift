import Foundation
import SepiaCodecs

/// How a Live Photo's two parts become one asset, whichever is imported first (DESIGN §11): a still and a
/// movie pair when they carry the same Apple content identifier (the still's maker note, the movie's
/// `com.apple.quicktime.content.identifier`), whatever their names; without identifiers, only when they have
/// the same base name *and* capture times that agree to the second. A part never pairs with an asset that is
/// already a Live Photo, nor with one of its own kind.
///
/// Pairing happens inside the commit's transaction, so two imports of the two parts at once still make one
/// asset, and the change log reports one change to it.
enum LivePhotoPairing {
    /// How close two capture times must be for parts without identifiers to pair.
    static let captureTimeTolerance: Double = 1

    /// The asset already in the library that `new` completes as a Live Photo, if any.
    static func partner(of new: Asset, db: any SQLSession) throws -> Asset? {
        guard new.mediaType == .image || new.mediaType == .video else { return nil }
        let wanted: MediaType = new.mediaType == .image ? .video : .image
        let live = MediaSubtypes.photoLive.rawValue
        if let identifier = new.contentIdentifier {
            let row = try db.fetchOne(
                """
                SELECT \(SQLLibraryStore.assetColumns) FROM asset a
                WHERE a.contentIdentifier = ? AND a.mediaType = ? AND (a.mediaSubtypes & \(live)) = 0 AND a.trashedDate IS NULL
                ORDER BY a.rowID LIMIT 1
                """, [identifier, wanted.rawValue])
            return row.map(SQLLibraryStore.asset(from:))
        }
        // No identifier: the same base name and the same capture time, to the second. Capture dates that come
        // from the file's modification time do not count: copying a folder gives every file the same one.
        guard new.creationDateSource != .file else { return nil }
        let base = baseName(new.originalFilename)
        let t = new.creationDate.timeIntervalSince1970
        for row in try db.fetch(
            """
            SELECT \(SQLLibraryStore.assetColumns) FROM asset a
            WHERE a.mediaType = ? AND a.contentIdentifier IS NULL AND (a.mediaSubtypes & \(live)) = 0 AND a.trashedDate IS NULL
              AND a.creationDate BETWEEN ? AND ? AND a.creationDateSource <> 'file'
            ORDER BY a.rowID LIMIT 50
            """, [wanted.rawValue, t - captureTimeTolerance, t + captureTimeTolerance])
        {
            let candidate = SQLLibraryStore.asset(from: row)
            if baseName(candidate.originalFilename) == base { return candidate }
        }
        return nil
    }

    /// A file name without its extension, compared without regard to case (`IMG_0042.HEIC`, `img_0042.mov`).
    static func baseName(_ filename: String) -> String {
        ((filename as NSString).deletingPathExtension).lowercased()
    }
}

extension SQLLibraryStore {
    /// Makes `existing` a Live Photo with the part `new` brings: a movie becomes its paired video; a still
    /// becomes its photo (the asset takes the still's size, dates, place and camera, its movie becomes the
    /// paired video, and its original version gets a new name, so that renditions of the movie's poster are not
    /// taken for the still's). One update of `existing` in the change log.
    static func pair(_ new: NewAsset, with existing: Asset, db: any SQLSession, now: Double) throws {
        let live = MediaSubtypes.photoLive.rawValue
        guard let part = new.resources.first else { return }
        if new.asset.mediaType == .video {
            try insertResource(part, type: .pairedVideo, assetRowID: existing.rowID, db: db)
            try db.execute(
                "UPDATE asset SET mediaSubtypes = mediaSubtypes | \(live), revision = revision + 1, modificationDate = ? WHERE rowID = ?",
                [now, existing.rowID])
        } else {
            let a = new.asset
            try db.execute(
                "UPDATE resource SET type = ? WHERE assetRowID = ? AND type = ?",
                [
                    AssetResourceType.pairedVideo.rawValue, existing.rowID, AssetResourceType.video.rawValue,
                ])
            try insertResource(part, type: .photo, assetRowID: existing.rowID, db: db)
            let (year, month) = localYearMonth(a.creationDate, offset: a.creationDateOffset)
            try db.execute(
                """
                UPDATE asset SET mediaType = ?, mediaSubtypes = (mediaSubtypes | ?) | \(live), duration = 0, pixelWidth = ?, pixelHeight = ?,
                  creationDate = ?, creationDateOffset = ?, creationDateSource = ?, localYear = ?, localMonth = ?,
                  latitude = coalesce(?, latitude), longitude = coalesce(?, longitude), altitude = coalesce(?, altitude),
                  originalFilename = ?, contentHash = ?, originalFormat = ?, originalByteCount = ?, originalOrientation = ?,
                  originalWidth = ?, originalHeight = ?, cameraMake = coalesce(?, cameraMake), cameraModel = coalesce(?, cameraModel),
                  originalVersion = ?, revision = revision + 1, modificationDate = ?
                WHERE rowID = ?
                """,
                [
                    MediaType.image.rawValue, a.mediaSubtypes.rawValue, a.pixelWidth, a.pixelHeight, a.creationDate.timeIntervalSince1970,
                    a.creationDateOffset, a.creationDateSource.rawValue, year, month, a.location?.latitude, a.location?.longitude,
                    a.location?.altitude, a.originalFilename, a.contentHash, a.originalFormat.rawValue, a.originalByteCount,
                    a.originalOrientation, a.originalWidth, a.originalHeight, a.cameraMake, a.cameraModel,
                    "original-" + a.contentHash.prefix(16), now, existing.rowID,
                ])
            // The still is the primary file now: its date and place are the file's values.
            try db.execute(
                """
                UPDATE asset SET fileCreationDate = creationDate, fileCreationDateOffset = creationDateOffset,
                  fileCreationDateSource = creationDateSource, fileLatitude = latitude, fileLongitude = longitude, fileAltitude = altitude
                WHERE rowID = ?
                """, [existing.rowID])
        }
        try log(db, entity: "asset", rowID: existing.rowID, identifier: existing.id, operation: "update")
    }

    static func insertResource(_ resource: AssetResource, type: AssetResourceType? = nil, assetRowID: Int64, db: any SQLSession) throws {
        try db.execute(
            """
            INSERT INTO resource (
              assetRowID, type, originalFilename, contentHash, format, byteCount, pixelWidth, pixelHeight, duration, needsPlayableVersion,
              decodedPixels)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                assetRowID, (type ?? resource.type).rawValue, resource.originalFilename, resource.contentHash, resource.format.rawValue,
                resource.byteCount, resource.pixelWidth, resource.pixelHeight, resource.duration, resource.needsPlayableVersion,
                resource.decodedPixels,
            ])
    }
}
