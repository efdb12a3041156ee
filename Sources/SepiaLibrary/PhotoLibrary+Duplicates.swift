import Foundation
import SepiaCodecs
import SepiaImage

/// Near-duplicates: a perceptual hash of every photo and video (its poster) from the thumbnail made at import
/// (``PerceptualHash``), and groups of near-identical items with the one to keep proposed
/// (``duplicateGroups(threshold:matching:)``). The hashes are made after import by ``hashWaitingAssets(limit:)``
/// (a server does it in the background; `sepia duplicates` before it answers). Exact copies never arrive: an
/// import refuses a file whose bytes the library has.
extension PhotoLibrary {
    /// The default largest distance, in bits, between the hashes of two duplicates: chosen on a generated set
    /// of 50 photos with six kinds of copies each and 50 unrelated photos (`scripts/bench-duplicates`), where
    /// it groups every copy but the cropped ones that drift furthest and joins no two different photos.
    public static let defaultDuplicateThreshold = 10

    /// The groups of near-identical visible photos and videos `predicate` matches (all by default), whose
    /// perceptual hashes differ in at most `threshold` bits (0 … 32), each with the item to keep first; groups
    /// ordered by their newest item, newest first. Pairs the user said are not duplicates are not joined
    /// (``setNotDuplicates(_:_:)``). Items not hashed yet are left out (``duplicatesStatus()``).
    public func duplicateGroups(
        threshold: Int = PhotoLibrary.defaultDuplicateThreshold, matching predicate: AssetPredicate? = nil
    ) throws(LibraryError) -> [DuplicateGroup] {
        let threshold = max(0, min(32, threshold))
        return try duplicateGroupsCache.groups { () throws(LibraryError) in
            DuplicateGroupsCache.Key(threshold: threshold, predicate: predicate, state: try store.duplicatesState())
        } compute: { key throws(LibraryError) in
            try findDuplicateGroups(threshold: key.threshold, matching: key.predicate)
        }
    }

    private func findDuplicateGroups(threshold: Int, matching predicate: AssetPredicate?) throws(LibraryError) -> [DuplicateGroup] {
        let hashed = try store.hashedAssets(algorithm: PerceptualHash.algorithm, matching: predicate)
        guard hashed.count > 1 else { return [] }
        var indexByRow: [Int64: Int] = [:]
        for (index, item) in hashed.enumerated() { indexByRow[item.rowID] = index }
        var dismissed = Set<IndexPair>()
        for (first, second) in try store.duplicateDismissals() {
            if let a = indexByRow[first], let b = indexByRow[second] { dismissed.insert(IndexPair(a, b)) }
        }
        let hashes = hashed.map(\.hash)
        let found = DuplicateFinder(threshold: threshold).groups(hashes, dismissed: dismissed)
        guard !found.isEmpty else { return [] }
        let grouped = found.flatMap { $0 }
        let assets = try store.assets(ids: grouped.map { hashed[$0].id })
        let byID = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // The hashes of the grouped items only: most of a library is in no group.
        let hashByID = Dictionary(grouped.map { (hashed[$0].id, PerceptualHash(value: hashed[$0].hash)) }, uniquingKeysWith: { a, _ in a })
        var groups: [DuplicateGroup] = []
        for members in found {
            let items = members.compactMap { byID[hashed[$0].id] }
            guard items.count > 1 else { continue }
            let (ranked, reason) = KeepChoice.rank(items)
            let keepHash = hashByID[ranked[0].id]!
            var distances: [String: Int] = [:]
            for item in ranked { distances[item.id] = hashByID[item.id]!.distance(to: keepHash) }
            let others = ranked.dropFirst().sorted { (distances[$0.id]!, $0.creationDate) < (distances[$1.id]!, $1.creationDate) }
            groups.append(DuplicateGroup(assets: [ranked[0]] + others, distances: distances, keepReason: reason))
        }
        let newest = { (group: DuplicateGroup) in group.assets.map(\.creationDate).max() ?? .distantPast }
        return groups.sorted { (newest($0), $0.id) > (newest($1), $1.id) }
    }

    /// Records that no two of the assets named are duplicates (`true`: "Keep all" on a group, so it is not
    /// proposed again), or forgets it (`false`: undo). Unknown identifiers are ignored; returns how many assets
    /// it concerned.
    @discardableResult
    public func setNotDuplicates(_ assetIDs: [String], _ notDuplicates: Bool = true) throws(LibraryError) -> Int {
        let ids = Array(Set(assetIDs))
        guard ids.count > 1 else { return ids.count }
        return try store.setDuplicateDismissal(ids, dismissed: notDuplicates)
    }

    /// How many photos and videos are hashed, wait for a hash, or could not be read.
    public func duplicatesStatus() throws(LibraryError) -> DuplicatesStatus {
        try store.duplicatesStatus(algorithm: PerceptualHash.algorithm)
    }

    /// Hashes up to `limit` of the photos and videos waiting for a hash, from their thumbnails (rendered first
    /// when missing), and records them in one transaction; returns how many it looked at (fewer than `limit`
    /// when no more wait). A picture that cannot be read is recorded as such and not tried again; one whose file
    /// or store cannot be reached just now is left for the next pass.
    @discardableResult
    public func hashWaitingAssets(limit: Int = 200) async throws -> Int {
        var done = 0
        var last: Int64 = 0
        while done < limit {
            try Task.checkCancellation()
            let batch = try store.assetsWaitingForHash(
                algorithm: PerceptualHash.algorithm, afterRowID: last, limit: min(50, limit - done))
            guard let end = batch.last else { break }
            last = end.rowID
            var hashes: [(rowID: Int64, hash: UInt64?)] = []
            for asset in batch {
                try Task.checkCancellation()
                do {
                    hashes.append((asset.rowID, try await perceptualHash(of: asset)?.value))
                } catch is LibraryError {
                    // Its file or store cannot be reached now: it waits for the next pass, and the others go on.
                    continue
                }
            }
            try store.recordHashes(hashes, algorithm: PerceptualHash.algorithm)
            done += batch.count
        }
        return done
    }

    /// Hashes every photo and video waiting for a hash; returns how many.
    @discardableResult
    public func hashAllWaitingAssets() async throws -> Int {
        var total = 0
        while true {
            let done = try await hashWaitingAssets(limit: 500)
            total += done
            if done < 500 { return total }
        }
    }

    /// Whether `error` says the picture's file is damaged (so trying again will not help), rather than out of reach.
    static func isDamaged(_ error: LibraryError) -> Bool {
        if error.code == .unreadableImage || error.code == .invalidEditingOutput { return true }
        guard let codec = error.codecCode else { return false }
        return codec != .fileSystem && codec != .timedOut && codec != .limitExceeded
    }

    /// The perceptual hash of `asset`'s original picture (a video's poster, a Live Photo's still, a RAW file's
    /// rendering), from its thumbnail; nil when the picture cannot be read. Edits are left out: a copy is of
    /// the file.
    ///
    /// - Throws: ``LibraryError`` when the file or its storage cannot be reached (the asset waits for the next
    ///   pass), `CancellationError` when the task is cancelled.
    public func perceptualHash(of asset: Asset) async throws -> PerceptualHash? {
        var options = ImageRequestOptions(deliveryMode: .highQualityFormat)
        options.version = .original
        let thumbnail: ImageResult
        do {
            thumbnail = try await ImageManager(library: self).image(
                for: asset, targetSize: RenditionRenderer.thumbnail, contentMode: .aspectFit, options: options)
        } catch let error as LibraryError where !Self.isDamaged(error) {
            // A store or database that fails now may answer later: the asset waits for the next pass.
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
        do {
            let image = try ImageDecoding.open(EncodedBytes(thumbnail.rendition.data))
            let bitmap = try await renderContext.renderBitmap(image.image, layout: .rgb)
            return PerceptualHash(pixels: bitmap.bytes, width: bitmap.width, height: bitmap.height, channels: 3)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
    }
}
