import SepiaCodecs

extension PhotoLibrary {
    /// A path on this machine from which to read an asset's original file. Read it; never write it. With
    /// object storage it is a local copy, downloaded on first use.
    public func originalPath(of asset: Asset) async throws(LibraryError) -> String {
        try await blobs.localPath(of: StoredFile(kind: .original, hash: asset.contentHash, format: asset.originalFormat))
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
