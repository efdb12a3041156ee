import Foundation
import SepiaCodecs

extension PhotoLibrary {
    /// Runs a change block and applies its requests in one transaction (PhotoKit's `performChanges`): all of
    /// them happen, or — if any fails — none does, and files written for them are removed.
    ///
    /// Files are prepared first, outside the transaction: new originals are checked, hashed, rendered and
    /// stored durably, and edits' renders are moved into place. Only then does the transaction record the rows
    /// that name them, so a process killed at any moment leaves a consistent library (at worst, files no row
    /// names, removed the next time the library opens alone).
    @discardableResult
    public func performChanges(_ block: (ChangeRequests) throws -> Void) async throws(LibraryError) -> ChangeOutcome {
        let requests = ChangeRequests()
        do {
            try block(requests)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.invalidRequest, "the change block failed: \(error)")
        }
        return try await apply(requests.requests)
    }

    func apply(_ requests: [ChangeRequests.Request]) async throws(LibraryError) -> ChangeOutcome {
        var outcome = ChangeOutcome()
        let sweep = try store.latestSweep()
        var changes: [StoredChange] = []
        var prepared: [PreparedAsset] = []
        var written: [StoredFile] = []
        var newVersions: [(assetID: String, version: String)] = []
        do throws(LibraryError) {
            for request in requests {
                switch request {
                case .createFromFile(let id, let path):
                    let bytes: EncodedBytes
                    do {
                        bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: configuration.decodeOptions.maximumFileBytes)
                    } catch {
                        throw error.code == .fileSystem
                            ? LibraryError(.fileSystem, error.reason, subject: path) : LibraryError.unreadable(error, file: path)
                    }
                    var info = stat()
                    let date = stat(path, &info) == 0 ? Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)) : Date()
                    let asset = try await prepare(
                        bytes, filename: (path as NSString).lastPathComponent, fileDate: date, origin: .file(path),
                        displayName: path, id: id)
                    prepared.append(asset)
                case .createFromData(let id, let data, let filename):
                    let bytes = EncodedBytes(data: data)
                    let asset = try await prepare(
                        bytes, filename: Self.safeFilename(filename), fileDate: Date(), origin: .bytes(bytes), displayName: filename,
                        id: id)
                    prepared.append(asset)
                case .createPrepared(let asset):
                    prepared.append(asset)
                case .stored(let change):
                    changes.append(change)
                    if case .createAlbum(let id, _) = change { outcome.createdAlbumIDs.append(id) }
                    continue
                case .trash(let ids):
                    changes.append(.trashAssets(ids, date: configuration.clock()))
                    continue
                case .contentEditing(let assetID, let output):
                    let adjustment = try await prepareEdit(output, assetID: assetID)
                    written.append(StoredFile(kind: .render, hash: adjustment.renderedContentHash, format: .jpeg))
                    newVersions.append((assetID, adjustment.id))
                    changes.append(.setAdjustment(assetID: assetID, adjustment))
                    continue
                }
                let asset = prepared[prepared.count - 1]
                written.append(asset.file)
                outcome.createdAssetIDs.append(asset.localIdentifier)
                var new = NewAsset(asset: asset.asset, resources: [asset.resource])
                new.mayPair = asset.mayJoinPartner
                changes.append(.createAsset(new))
            }
        } catch {
            discard(written: written, assets: prepared.map(\.localIdentifier), versions: newVersions)
            throw error
        }

        var attempt = 0
        while true {
            do {
                // Originals prepared earlier were stored after their own sweep; renders after this one.
                let sweeps = Dictionary(prepared.map { ($0.file, $0.sweep) }, uniquingKeysWith: min)
                let result = try store.commit(changes, files: blobs.fileCheck(sweeps: { sweeps[$0] ?? sweep }))
                outcome.generation = result.generation
                // A Live Photo's part that joined its partner is reported as that asset.
                outcome.createdAssetIDs = outcome.createdAssetIDs.map { result.pairedAssets[$0] ?? $0 }
                outcome.pairedAssetIDs = Set(result.pairedAssets.values)
                didCommit(result)
                return outcome
            } catch let error where error.vanishedFile != nil && attempt < 3 {
                // A concurrent clean-up removed a file this commit needs (same content, released by another
                // change): write it again and retry.
                attempt += 1
                if let asset = prepared.first(where: { $0.file == error.vanishedFile }) {
                    do {
                        let restored = try store.latestSweep()
                        try await restoreOriginal(of: asset)
                        for index in prepared.indices where prepared[index].file == asset.file { prepared[index].sweep = restored }
                    } catch {
                        discard(written: written, assets: prepared.map(\.localIdentifier), versions: newVersions)
                        throw error
                    }
                } else {
                    discard(written: written, assets: prepared.map(\.localIdentifier), versions: newVersions)
                    throw LibraryError(.fileSystem, "a rendered edit was removed while it was saved; save the edit again")
                }
            } catch {
                discard(written: written, assets: prepared.map(\.localIdentifier), versions: newVersions)
                throw error
            }
        }
    }

    /// Follows up on a commit: tells observers, removes files no row names any more, drops cached images of
    /// deleted assets and of superseded versions.
    func didCommit(_ result: CommitResult) {
        monitor.didChange(generation: result.generation)
        removeUnreferenced(result.releasedFiles)
        for id in result.deletedAssetIDs { imageStore.removeImages(forAsset: id) }
        if !result.reversionedAssetIDs.isEmpty, let assets = try? store.assets(ids: result.reversionedAssetIDs) {
            for asset in assets { imageStore.removeImages(forAsset: asset.id, keepingVersions: [asset.originalVersion, asset.contentVersion]) }
        }
    }

    /// Removes the files of a change that did not commit, unless some row names them (the same content may
    /// belong to another asset or process).
    func discard(written: [StoredFile], assets: [String], versions: [(assetID: String, version: String)]) {
        removeUnreferenced(written)
        for id in assets { imageStore.removeImages(forAsset: id) }
        for (assetID, version) in versions {
            guard let asset = try? store.assets(ids: [assetID]).first else { continue }
            if asset.contentVersion != version {
                imageStore.removeImages(forAsset: assetID, keepingVersions: [asset.originalVersion, asset.contentVersion])
            }
        }
    }

    /// Removes files no row names, when the storage removes released files at once (a library folder;
    /// shared storage leaves them to ``sweepStorage(olderThan:)``).
    func removeUnreferenced(_ files: [StoredFile]) {
        guard !files.isEmpty, blobs.removesReleasedFiles else { return }
        let blobs = self.blobs
        try? store.withUnreferencedFiles(files, recordingSweep: false) { (unreferenced) throws(LibraryError) in
            try blobs.remove(unreferenced)
        }
    }
}
