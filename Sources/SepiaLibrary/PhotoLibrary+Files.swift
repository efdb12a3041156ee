import Foundation
import SepiaCodecs

extension PhotoLibrary {
    /// A path on this machine from which to read an asset's original file. Read it; never write it. With
    /// object storage it is a local copy, downloaded on first use.
    public func originalPath(of asset: Asset) async throws(LibraryError) -> String {
        try await blobs.localPath(of: StoredFile(kind: .original, hash: asset.contentHash, format: asset.originalFormat))
    }

    /// The files an asset is made of (PhotoKit's `PHAssetResource.assetResources(for:)`): its original photo or
    /// video, a Live Photo's paired video, and, when it is edited, the edit's full-size render and its recipe.
    public func resources(for asset: Asset) throws(LibraryError) -> [AssetResource] {
        var resources = try store.resources(assetIDs: [asset.id])
        if let adjustment = try currentAdjustment(of: asset), let hash = adjustment.renderedContentHash {
            let stem = (asset.originalFilename as NSString).deletingPathExtension
            resources.append(
                AssetResource(
                    assetLocalIdentifier: asset.id, type: .fullSizePhoto, originalFilename: (stem.isEmpty ? "photo" : stem) + ".jpg",
                    contentHash: hash, format: .jpeg, byteCount: 0, pixelWidth: adjustment.renderedWidth,
                    pixelHeight: adjustment.renderedHeight))
        }
        return resources
    }

    /// The stored files of many assets at once, by asset identifier, each asset's in the order of their types:
    /// its originals and playable versions as ``resources(for:)`` lists them, without an edit's render (which
    /// ``currentAdjustment(of:)`` names). One read, where ``resources(for:)`` makes two per asset.
    /// - Complexity: O(n) in the number of assets and their files.
    public func storedResources(of assets: [Asset]) throws(LibraryError) -> [String: [AssetResource]] {
        Dictionary(grouping: try store.resources(assetIDs: assets.map(\.id)), by: \.assetLocalIdentifier)
    }

    /// A path on this machine from which to read a stored resource (``resources(for:)``).
    public func path(of resource: AssetResource) async throws(LibraryError) -> String {
        if resource.type == .fullSizePhoto { return try await renderPath(hash: resource.contentHash) }
        return try await blobs.localPath(of: resource.storedFile)
    }

    /// A path on this machine from which to read the file showing an asset's current version: its edit's
    /// rendered JPEG, else its original.
    public func currentPath(of asset: Asset) async throws(LibraryError) -> String {
        guard let adjustment = try currentAdjustment(of: asset) else { return try await originalPath(of: asset) }
        guard let hash = adjustment.renderedContentHash else {
            throw LibraryError(.notFound, "the current edit has no render; run `sepia check`", subject: asset.id)
        }
        return try await renderPath(hash: hash)
    }

    /// A path on this machine from which to read the render with `hash`.
    func renderPath(hash: String) async throws(LibraryError) -> String {
        try await blobs.localPath(of: StoredFile(kind: .render, hash: hash, format: .jpeg))
    }

    /// Where the library keeps originals and renders: its folder, or an `s3://` location.
    public var storageLocation: String { blobs.location }
}
