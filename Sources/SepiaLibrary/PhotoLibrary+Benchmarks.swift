public import Foundation
import SepiaCodecs

extension PhotoLibrary {
    /// Adds `count` assets that have rows but no files (one JPEG-sized original each, never written), for
    /// benchmarks of the database alone. Dates are `interval` seconds apart from `start`. Not for libraries
    /// anyone uses: `check` reports their files as missing.
    @_spi(Benchmarks)
    public func insertRowsWithoutFiles(
        count: Int, start: Date = Date(timeIntervalSince1970: 1_500_000_000), interval: Double = 60
    )
        throws(LibraryError) -> [String]
    {
        var changes: [StoredChange] = []
        var ids: [String] = []
        let now = Date()
        for i in 0..<count {
            let id = ChangeRequests.newIdentifier()
            ids.append(id)
            let hash = id.replacingOccurrences(of: "-", with: "") + String(repeating: "0", count: 32)
            let asset = Asset(
                id: id, mediaType: .image, pixelWidth: 4000, pixelHeight: 3000,
                creationDate: start.addingTimeInterval(Double(i) * interval), creationDateOffset: 3600, creationDateSource: .capture,
                modificationDate: now, addedDate: now, location: nil, isFavorite: i % 10 == 0, isHidden: false,
                originalFilename: "IMG_\(i).jpg", contentHash: hash, originalFormat: .jpeg, originalByteCount: 3_000_000,
                originalOrientation: 1, originalWidth: 4000, originalHeight: 3000, cameraMake: "Sepia", cameraModel: "Bench",
                currentAdjustmentID: nil, revision: 1, rowID: 0)
            let resource = AssetResource(
                assetLocalIdentifier: id, type: .photo, originalFilename: asset.originalFilename, contentHash: hash, format: .jpeg,
                byteCount: asset.originalByteCount, pixelWidth: 4000, pixelHeight: 3000)
            changes.append(.createAsset(NewAsset(asset: asset, resources: [resource])))
        }
        let result = try store.commit(changes, files: .exists { _ in true })
        monitor.didChange(generation: result.generation)
        return ids
    }
}
