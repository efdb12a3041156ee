public import Foundation
import SepiaCodecs
import SepiaImage
import SepiaXMP

/// Imports files and folders into a library: finds the images (recursively, skipping hidden files), prepares
/// several at once, and commits them in batches, so a large import uses every core and a killed import loses
/// at most the batch in flight. Duplicates (same SHA-256) are reported, not added; a file whose photo is in
/// Recently Deleted recovers that photo; files that are not decodable images are skipped with the reason; a
/// file imported before from the same path, unchanged since (size, modification time and inode), is not read
/// again (and so a photo deleted since stays deleted).
///
/// A photo's XMP sidecar (`NAME.ext.xmp`, else `NAME.xmp`), or the XMP embedded in it, gives the asset its
/// rating, title, caption and keywords, the sidecar its capture date and place (as edits beside the file's own),
/// and its edit: Sepia's recipe, or Camera Raw's crop (see ``ImportItemResult/sidecar``). Sidecars are read with
/// their photos, not imported as files of their own; one that cannot be read is left out with a warning
/// (``ImportItemResult/warnings``) and its photo imported all the same.
///
/// Each file in flight is rendered on a lane of its own, a render context with its share of the library's
/// threads: PNG, WebP and HEIF decode a whole frame on one thread, and files sharing the threads would queue
/// on one another's decodes.
public final class AssetImporter: Sendable {
    /// The library imported into.
    public let library: PhotoLibrary
    /// An album every imported (or already present) asset is added to, created if needed.
    public let albumTitle: String?
    /// How many files are prepared at once.
    public let concurrency: Int
    /// How many prepared files one transaction commits at most.
    public let batchSize: Int

    /// An importer.
    public init(
        library: PhotoLibrary, albumTitle: String? = nil, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        batchSize: Int = 16
    ) {
        self.library = library
        self.albumTitle = albumTitle
        self.concurrency = max(1, concurrency)
        self.batchSize = max(1, batchSize)
    }

    /// The regular files under `paths` (files as given, folders recursively, hidden entries left out), sorted,
    /// and a failure for every path that does not exist.
    public static func candidates(in paths: [String]) -> (files: [String], missing: [ImportItemResult]) {
        var files: [String] = []
        var missing: [ImportItemResult] = []
        for raw in paths {
            let path = URL(fileURLWithPath: raw).standardizedFileURL.path
            var info = stat()
            guard stat(path, &info) == 0 else {
                missing.append(ImportItemResult(path: raw, status: .failed, reason: String(cString: strerror(errno))))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var found: [String] = []
                if let enumerator = FileManager.default.enumerator(
                    at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
                {
                    for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                        found.append(url.standardizedFileURL.path)
                    }
                }
                files += found.sorted()
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                files.append(path)
            } else {
                missing.append(ImportItemResult(path: raw, status: .skipped, reason: "not a regular file"))
            }
        }
        var seen = Set<String>()
        return (files.filter { seen.insert($0).inserted }, missing)
    }

    /// What one worker made of one file.
    private enum Prepared: Sendable {
        case ready(PreparedAsset, ImportSource, SidecarOutcome)
        case known(ImportItemResult, ImportSource?)
        case done(ImportItemResult)
    }

    /// What a file's XMP left to do once its asset is in the library.
    private struct SidecarOutcome: Sendable {
        var sidecar: ImportedSidecar?
        /// The rating, title, caption and keywords it gave the asset.
        var user = UserMetadata()
        var warnings: [String] = []
        var isEmpty: Bool { sidecar == nil && warnings.isEmpty }
    }

    /// The files of `files` that are photos or videos, and the XMP sidecars among them that no photo or video
    /// of `files` claims (see ``XMPSidecar/candidatePaths(forPhotoAt:)``): those are reported as skipped; the
    /// others are read with their photos.
    static func separatingSidecars(_ files: [String]) -> (media: [String], orphans: [String]) {
        let isSidecar = { (path: String) in (path as NSString).pathExtension.lowercased() == "xmp" }
        let media = files.filter { !isSidecar($0) }
        let claimed = Set(media.flatMap(XMPSidecar.candidatePaths(forPhotoAt:)))
        return (media, files.filter { isSidecar($0) && !claimed.contains($0) })
    }

    /// Imports `paths`, calling `onResult` for every file as its outcome is final (imported files once their
    /// batch has committed).
    public func importFiles(
        _ paths: [String], onResult: @escaping @Sendable (ImportItemResult, ImportProgress) -> Void = { _, _ in }
    ) async throws(LibraryError) -> ImportSummary {
        let start = Date()
        let (found, missing) = Self.candidates(in: paths)
        let (files, orphans) = Self.separatingSidecars(found)
        let total = files.count + orphans.count + missing.count
        var summary = ImportSummary()
        var completed = 0
        func report(_ result: ImportItemResult) {
            summary.count(result.status)
            completed += 1
            onResult(result, ImportProgress(completed: completed, total: total))
        }
        missing.forEach(report)
        for orphan in orphans {
            report(
                ImportItemResult(
                    path: orphan, status: .skipped,
                    reason:
                        "an XMP sidecar with no photo beside it: Sepia reads a sidecar with its photo, NAME.ext beside NAME.ext.xmp or NAME.xmp"
                ))
        }

        var albumID: String?
        var createAlbum = false
        if let albumTitle {
            if let existing = try? library.album(albumTitle), existing.isEditable {
                albumID = existing.id
            } else {
                albumID = ChangeRequests.newIdentifier()
                createAlbum = true
            }
        }

        var batch: [(PreparedAsset, ImportSource)] = []
        var sidecars: [String: SidecarOutcome] = [:]
        var pendingSources: [ImportSource] = []
        var pendingMembers: [(ImportItemResult)] = []
        var lastCommit = Date()

        func commit() async {
            guard !batch.isEmpty || !pendingSources.isEmpty || !pendingMembers.isEmpty else { return }
            let items = batch
            let sources = pendingSources
            let members = pendingMembers
            batch = []
            pendingSources = []
            pendingMembers = []
            lastCommit = Date()
            let outcome = await commitBatch(
                items, sources: sources, members: members.compactMap(\.assetID),
                recovering: members.filter { $0.status == .recovered }.compactMap(\.assetID), albumID: albumID, createAlbum: createAlbum)
            if outcome.albumCreated { createAlbum = false }
            for result in members { report(result) }
            for var result in outcome.results {
                if let sidecar = sidecars.removeValue(forKey: result.path) { await finish(&result, with: sidecar) }
                report(result)
            }
        }

        let lanes = RenderLanes(count: min(concurrency, max(1, files.count)), sharing: library.renderContext)
        await withTaskGroup(of: Prepared.self) { group in
            var next = 0
            func launch() {
                guard next < files.count else { return }
                let path = files[next]
                next += 1
                group.addTask { await lanes.withLane { await self.prepare(path, context: $0) } }
            }
            for _ in 0..<lanes.count { launch() }
            while let prepared = await group.next() {
                launch()
                switch prepared {
                case .ready(let asset, let source, let sidecar):
                    batch.append((asset, source))
                    if !sidecar.isEmpty { sidecars[source.path] = sidecar }
                case .known(let result, let source):
                    if let source { pendingSources.append(source) }
                    if albumID != nil || result.status == .recovered { pendingMembers.append(result) } else { report(result) }
                case .done(let result):
                    report(result)
                }
                if batch.count >= batchSize || Date().timeIntervalSince(lastCommit) > 2 {
                    await commit()
                }
            }
        }
        await commit()
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Prepares one file.
    private func prepare(_ path: String, context: RenderContext) async -> Prepared {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .done(ImportItemResult(path: path, status: .failed, reason: String(cString: strerror(errno))))
        }
        let source = ImportSource(
            path: path, byteCount: Int(info.st_size),
            modificationTime: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9, inode: UInt64(info.st_ino),
            contentHash: "")
        if let known = try? library.store.importSource(path: path), known.byteCount == source.byteCount,
            known.modificationTime == source.modificationTime, known.inode == source.inode,
            let asset = try? library.store.asset(contentHash: known.contentHash)
        {
            return .known(ImportItemResult(path: path, status: .alreadyImported, assetID: asset.id), nil)
        }
        // Sniffed once: what it is decides whether it is skipped, and which opener reads it.
        let sniffed = Result { () throws(CodecError) in try MediaFile.sniff(path: path) }
        if let reason = Self.unsupportedReason(sniffed, openers: library.mediaOpeners) {
            return .done(ImportItemResult(path: path, status: .skipped, reason: reason))
        }
        do {
            var prepared = try await library.prepareAsset(sniffed: try? sniffed.get(), fileAt: path, renderingWith: context)
            var recorded = source
            recorded.contentHash = prepared.asset.contentHash
            var (sidecar, refusals) = ImportedSidecar.read(forPhotoAt: path, embedded: prepared.embeddedXMP)
            sidecar?.apply(to: &prepared.asset)
            return .ready(prepared, recorded, SidecarOutcome(sidecar: sidecar, user: prepared.asset.userMetadata, warnings: refusals))
        } catch {
            switch error.code {
            case .duplicate:
                var recorded = source
                let existing = error.relatedID.flatMap { try? library.asset($0) }
                if let existing { recorded.contentHash = existing.contentHash }
                // Adding a photo that is in Recently Deleted brings it back: left there, it would be purged while
                // the import said it was in the library.
                let result =
                    existing?.isRecentlyDeleted == true
                    ? ImportItemResult(
                        path: path, status: .recovered, assetID: error.relatedID,
                        reason: "it was in Recently Deleted: recovered, back in its albums")
                    : ImportItemResult(path: path, status: .duplicate, assetID: error.relatedID, reason: error.reason)
                return .known(result, recorded.contentHash.isEmpty ? nil : recorded)
            case .unreadableImage:
                return .done(ImportItemResult(path: path, status: .skipped, reason: error.reason))
            default:
                return .done(ImportItemResult(path: path, status: .failed, reason: error.description))
            }
        }
    }

    /// Why a file is not worth reading, judged from its first bytes (`sniffed`); nil when it may be a photo or a
    /// video (one of `openers` reads its format), or when it could not be sniffed (reading it says why).
    static func unsupportedReason(_ sniffed: Result<MediaFile, CodecError>, openers: MediaOpeners) -> String? {
        let file: MediaFile
        switch sniffed {
        case .success(let sniffed): file = sniffed
        case .failure(let error): return error.code == .emptyInput ? "the file is empty" : nil
        }
        guard let format = file.format else { return "not a photo or video Sepia recognises; it reads \(supportedFormats)" }
        if openers.kind(of: format) == nil { return "\(format) is not supported; Sepia reads \(supportedFormats)" }
        return nil
    }

    /// What the importer takes, in words.
    static let supportedFormats =
        "JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW (DNG, CR2, CR3, CRW, NEF, ARW, RAF, ORF, RW2, PEF, …) photos, and MOV, MP4, M4V, 3GP, MKV, WebM, AVI and MTS videos"

    /// Completes what a file's XMP gives once its asset is in the library: the edit (a recipe or a crop) of a new
    /// asset, and the rating, title, caption and keywords of an asset it joined (a RAW+JPEG pair's other half)
    /// when that asset has none; notes the sidecar and the warnings on the file's result.
    private func finish(_ result: inout ImportItemResult, with outcome: SidecarOutcome) async {
        var warnings = outcome.warnings
        if var sidecar = outcome.sidecar, let id = result.assetID, let asset = try? library.asset(id) {
            if result.status == .paired {
                let user = outcome.user
                if asset.userMetadata == UserMetadata() && user != UserMetadata() {
                    do {
                        try await library.performChanges { $0.setUserMetadata(user, for: id) }
                    } catch {
                        warnings.append("its rating, title and keywords were not set: \(error.reason)")
                    }
                }
            } else if result.status == .imported, asset.mediaType == .image,
                let recipe = sidecar.edit(width: asset.pixelWidth, height: asset.pixelHeight, orientation: asset.originalOrientation)
            {
                do {
                    try await library.edit(asset, recipe: recipe)
                } catch {
                    warnings.append("its edit was not applied (\(error)); the photo is imported unedited")
                }
            }
            result.sidecar = sidecar.file
            warnings += sidecar.warnings
        }
        if !warnings.isEmpty { result.warnings = warnings }
    }

    private struct BatchOutcome {
        var results: [ImportItemResult] = []
        var albumCreated = false
    }

    /// Commits prepared assets with their import records, the recovery of photos found in Recently Deleted and
    /// album memberships in one transaction; if that fails because another process imported one of them
    /// meanwhile, commits them one by one.
    private func commitBatch(
        _ items: [(PreparedAsset, ImportSource)], sources: [ImportSource], members: [String], recovering: [String], albumID: String?,
        createAlbum: Bool
    ) async -> BatchOutcome {
        func requests(
            _ items: [(PreparedAsset, ImportSource)], sources: [ImportSource], members: [String], create: Bool
        )
            -> [ChangeRequests.Request]
        {
            var requests: [ChangeRequests.Request] = []
            if create, let albumID, let albumTitle { requests.append(.stored(.createAlbum(id: albumID, title: albumTitle))) }
            for (prepared, _) in items { requests.append(.createPrepared(prepared)) }
            for source in sources + items.map(\.1) { requests.append(.stored(.recordImportSource(source))) }
            let recovered = recovering.filter(members.contains)
            if !recovered.isEmpty { requests.append(.stored(.recoverAssets(recovered))) }
            if let albumID {
                let ids = items.map(\.0.localIdentifier) + members
                if !ids.isEmpty { requests.append(.stored(.addAssets(albumID: albumID, assetIDs: ids))) }
            }
            return requests
        }
        /// Each item's result: imported as a new asset, or joined to the one it completes.
        func results(_ items: [(PreparedAsset, ImportSource)], _ applied: ChangeOutcome) -> [ImportItemResult] {
            zip(items, applied.createdAssetIDs).map { item, id in
                ImportItemResult(path: item.1.path, status: id == item.0.localIdentifier ? .imported : .paired, assetID: id)
            }
        }
        var outcome = BatchOutcome()
        do {
            let applied = try await library.apply(requests(items, sources: sources, members: members, create: createAlbum))
            outcome.albumCreated = createAlbum
            outcome.results = results(items, applied)
            return outcome
        } catch  where items.count > 1 || error.code == .duplicate {
            // One at a time, so one duplicate or failure does not take the others with it.
            var create = createAlbum
            var first = true
            for item in items {
                do {
                    let applied = try await library.apply(
                        requests([item], sources: first ? sources : [], members: first ? members : [], create: create))
                    if create { outcome.albumCreated = true }
                    create = false
                    first = false
                    outcome.results += results([item], applied)
                } catch {
                    let existing: Asset? = error.code == .duplicate ? (try? library.asset(contentHash: item.0.asset.contentHash)) ?? nil : nil
                    // A duplicate found only now (another file of this import had the same content and committed
                    // first) is recorded like one found earlier, so a re-run does not read it again.
                    if existing != nil { _ = try? await library.apply([.stored(.recordImportSource(item.1))]) }
                    outcome.results.append(
                        ImportItemResult(
                            path: item.1.path, status: existing != nil ? .duplicate : .failed, assetID: existing?.id,
                            reason: error.description))
                }
            }
            return outcome
        } catch {
            outcome.results = items.map { ImportItemResult(path: $0.1.path, status: .failed, reason: error.description) }
            return outcome
        }
    }
}
