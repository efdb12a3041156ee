extension PhotoLibrary {
    /// The path of an asset's original file inside the library. Read it; never write it.
    public func originalPath(of asset: Asset) -> String {
        folder.original(hash: asset.contentHash, format: asset.originalFormat)
    }

    /// The path of the file showing an asset's current version: its edit's rendered JPEG, else its original.
    public func currentPath(of asset: Asset) throws(LibraryError) -> String {
        guard let adjustment = try currentAdjustment(of: asset) else { return originalPath(of: asset) }
        guard let hash = adjustment.renderedContentHash else {
            throw LibraryError(.notFound, "the current edit has no render; run `sepia check`", subject: asset.id)
        }
        return folder.render(hash: hash)
    }
}
