import Foundation
import SepiaCodecs
public import SepiaImage
import SepiaRAW

extension PhotoLibrary {
    /// The input for editing `asset` (PhotoKit's `requestContentEditingInput`). `canHandle` says whether the
    /// editor understands an adjustment's data; by default, Sepia's edit recipes.
    public func contentEditingInput(
        for asset: Asset, canHandle: (AdjustmentData) -> Bool = { $0.isEditRecipe }
    ) async throws(LibraryError) -> ContentEditingInput {
        let asset = try self.asset(asset.id)
        // Refused before any decoding: the commit would refuse the edit anyway.
        if asset.isRecentlyDeleted { throw LibraryError.inRecentlyDeleted(asset: asset.id) }
        guard asset.mediaType == .image else {
            throw LibraryError(
                .invalidRequest, "videos cannot be edited yet; a Live Photo's still can, and keeps its motion", subject: asset.id)
        }
        var renderHash: String?
        var handled: AdjustmentData?
        var unhandled: AdjustmentData?
        var base: String?
        if let current = try currentAdjustment(of: asset) {
            if canHandle(current.data) {
                handled = current.data
                base = current.baseAdjustmentID
            } else {
                unhandled = current.data
                base = current.id
            }
            if let base {
                guard let hash = try store.adjustment(id: base)?.renderedContentHash else {
                    throw LibraryError(.notFound, "the render this edit builds on is missing; run `sepia check`", subject: asset.id)
                }
                renderHash = hash
            }
        }
        let path: String
        if let renderHash {
            path = try await renderPath(hash: renderHash)
        } else {
            path = try await originalPath(of: asset)
        }
        let file: any EncodedImage
        do {
            file = try PhotoDecoding.open(path: path, options: DecodeOptions())
        } catch {
            throw LibraryError(.fileSystem, "cannot open the asset's image: \(error.reason)", subject: asset.id)
        }
        return ContentEditingInput(
            asset: asset, path: path, file: file, adjustmentData: handled, unhandled: unhandled, baseAdjustmentID: base,
            temporaryFolder: folder.temporary)
    }

    /// Applies `recipe` to `asset` and saves the result as its current edit: the whole non-destructive edit in
    /// one call. The recipe replaces the current edit (it applies to the original), unless the current edit is
    /// in a format Sepia cannot read, in which case it applies on top of that edit's render.
    ///
    /// - Throws: ``RecipeCostError`` before anything is rendered when the render would cost more than
    ///   ``LibraryConfiguration/renderCostLimit`` allows.
    @discardableResult
    public func edit(_ asset: Asset, recipe: EditRecipe) async throws -> Asset {
        let input = try await contentEditingInput(for: asset)
        var output = ContentEditingOutput(contentEditingInput: input)
        try await output.render(recipe, context: renderContext, quality: configuration.editQuality, costLimit: configuration.renderCostLimit)
        let finished = output
        try await performChanges { changes in
            changes.setContentEditingOutput(finished, for: asset.id)
        }
        return try self.asset(asset.id)
    }

    /// Makes the original `asset`'s current version again; the edit history is kept.
    @discardableResult
    public func revert(_ asset: Asset) async throws(LibraryError) -> Asset {
        try await performChanges { changes in changes.revertToOriginal(asset.id) }
        return try self.asset(asset.id)
    }

    /// Checks a content-editing output and moves its render into the library.
    func prepareEdit(_ output: ContentEditingOutput, assetID: String) async throws(LibraryError) -> NewAdjustment {
        defer { DurableFile.remove(output.renderedContentPath) }
        guard output.assetID == assetID else {
            throw LibraryError(.invalidEditingOutput, "the output was made for asset \(output.assetID)", subject: assetID)
        }
        guard let data = output.adjustmentData else {
            throw LibraryError(.invalidEditingOutput, "the output has no adjustment data: set it before saving", subject: assetID)
        }
        let bytes: EncodedBytes
        let file: any EncodedImage
        do {
            bytes = try EncodedBytes.read(contentsOf: output.renderedContentPath, maximumBytes: configuration.decodeOptions.maximumFileBytes)
            file = try ImageDecoding.open(bytes, options: configuration.decodeOptions)
        } catch {
            throw LibraryError(
                .invalidEditingOutput, "the rendered image cannot be read (\(error.reason)); write a JPEG to renderedContentPath",
                subject: assetID)
        }
        guard file.format == .jpeg else {
            throw LibraryError(.invalidEditingOutput, "the rendered image is \(file.format), not JPEG", subject: assetID)
        }
        guard file.orientation == .up else {
            throw LibraryError(
                .invalidEditingOutput, "the rendered image declares EXIF orientation \(file.orientation.rawValue); bake the rotation into the pixels",
                subject: assetID)
        }
        let id = ChangeRequests.newIdentifier()
        do {
            try await renderer.storeStandardRenditions(of: file.image, assetID: assetID, version: id, in: imageStore)
        } catch {
            let assets = try store.assets(ids: [assetID])
            imageStore.removeImages(forAsset: assetID, keepingVersions: Set(assets.map(\.contentVersion) + assets.map(\.originalVersion)))
            throw LibraryError(.invalidEditingOutput, "the rendered image does not decode: \(error)", subject: assetID)
        }
        let hash = ContentHash.of(bytes)
        let render = StoredFile(kind: .render, hash: hash, format: .jpeg)
        try await blobs.store(movingFileAt: output.renderedContentPath, as: render)
        return NewAdjustment(
            id: id, data: data, renderedContentHash: hash, renderedWidth: file.displaySize.width,
            renderedHeight: file.displaySize.height, creationDate: Date(), baseAdjustmentID: output.baseAdjustmentID)
    }
}
