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

    /// Adds `count` assets with rows but no files, as ``insertRowsWithoutFiles(count:start:interval:)`` does, with
    /// the metadata a family's library has, drawn from a seeded generator: dates over fifteen years, titles,
    /// captions and keywords from short word lists (some with accents), eight cameras, and seven in ten located
    /// near one of `places` (within about 20 km), which the commits place as they would an import's. For the
    /// search and map benchmarks. Commits `batch` assets at a time.
    @_spi(Benchmarks)
    public func insertVariedRowsWithoutFiles(
        count: Int, seed: UInt64, places: [(latitude: Double, longitude: Double)], batch: Int = 2_000
    ) throws(LibraryError) -> [String] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        let subjects = ["Beach", "Dinner", "Birthday", "Hike", "Sunset", "Museum", "Picnic", "Wedding", "Market", "Concert", "Garden", "Harbour"]
        let people = ["Julià", "Ana", "Zoë", "Mateo", "Léa", "Noah", "Søren", "Aisha", "Ivan", "Mia"]
        let words = ["family", "holiday", "friends", "snow", "summer", "food", "dog", "cat", "mountains", "city", "night", "café"]
        let cameras = [
            ("Apple", "iPhone 13"), ("Apple", "iPhone 15 Pro"), ("Canon", "EOS R6"), ("Nikon", "Z 6II"), ("Sony", "ILCE-7M3"),
            ("Fujifilm", "X-T4"), ("Google", "Pixel 8"), ("Samsung", "SM-S911B"),
        ]
        let start = Date(timeIntervalSince1970: 1_262_304_000)  // 2010-01-01
        var ids: [String] = []
        let now = Date()
        var offset = 0
        while offset < count {
            var changes: [StoredChange] = []
            for i in offset..<min(count, offset + batch) {
                let id = ChangeRequests.newIdentifier()
                ids.append(id)
                let hash = id.replacingOccurrences(of: "-", with: "") + String(repeating: "0", count: 32)
                let camera = pick(cameras)
                var location: GPSLocation?
                if !places.isEmpty && next() % 10 < 7 {
                    let place = pick(places)
                    location = GPSLocation(
                        latitude: max(-90, min(90, place.latitude + (unit() - 0.5) * 0.36)),
                        longitude: place.longitude + (unit() - 0.5) * 0.36)
                }
                var asset = Asset(
                    id: id, mediaType: .image, pixelWidth: 4000, pixelHeight: 3000,
                    creationDate: start.addingTimeInterval(unit() * 15 * 365.25 * 86_400), creationDateOffset: 3600,
                    creationDateSource: .capture, modificationDate: now, addedDate: now, location: location, isFavorite: next() % 12 == 0,
                    isHidden: false, originalFilename: "IMG_\(i).jpg", contentHash: hash, originalFormat: .jpeg, originalByteCount: 3_000_000,
                    originalOrientation: 1, originalWidth: 4000, originalHeight: 3000, cameraMake: camera.0, cameraModel: camera.1,
                    currentAdjustmentID: nil, revision: 1, rowID: 0)
                if next() % 3 == 0 { asset.title = "\(pick(subjects)) with \(pick(people))" }
                if next() % 5 == 0 { asset.caption = "\(pick(subjects)) in the \(pick(words)), \(pick(people)) and \(pick(people))" }
                asset.keywords = Array(Set((0..<Int(next() % 4)).map { _ in pick(words) })).sorted()
                let resource = AssetResource(
                    assetLocalIdentifier: id, type: .photo, originalFilename: asset.originalFilename, contentHash: hash, format: .jpeg,
                    byteCount: asset.originalByteCount, pixelWidth: 4000, pixelHeight: 3000)
                changes.append(.createAsset(NewAsset(asset: asset, resources: [resource])))
            }
            let result = try store.commit(changes, files: .exists { _ in true })
            monitor.didChange(generation: result.generation)
            offset += batch
        }
        return ids
    }

    /// Forgets the keywords suggestions counted (``SQLLibraryStore/keywordCounts()``), so that the next suggestions
    /// count them again, as after a change: for the benchmark of that count.
    @_spi(Benchmarks)
    public func forgetCountedKeywords() {
        (store as? SQLLibraryStore)?.forgetKeywordCounts()
    }

    /// Gives every asset without a perceptual hash a random one, and one in `copyShare` of them a copy of an
    /// earlier asset's hash a few bits away (0 to 6), as a library's near-duplicates are; returns the hashes
    /// recorded. For the duplicates benchmark, on rows without files.
    @_spi(Benchmarks)
    public func insertRandomHashes(seed: UInt64, copyShare: Double = 0.05) throws(LibraryError) -> Int {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var recorded = 0
        var earlier: [UInt64] = []
        var after: Int64 = 0
        while true {
            let batch = try store.assetsWaitingForHash(algorithm: PerceptualHash.algorithm, afterRowID: after, limit: 2_000)
            guard let last = batch.last else { return recorded }
            after = last.rowID
            var hashes: [(rowID: Int64, hash: UInt64?)] = []
            for asset in batch {
                var hash = next()
                if !earlier.isEmpty && Double(next() % 10_000) < copyShare * 10_000 {
                    hash = earlier[Int(next() % UInt64(earlier.count))]
                    for _ in 0..<Int(next() % 7) { hash ^= 1 << (next() % 64) }
                }
                earlier.append(hash)
                hashes.append((asset.rowID, hash))
            }
            try store.recordHashes(hashes, algorithm: PerceptualHash.algorithm)
            recorded += hashes.count
        }
    }
}
