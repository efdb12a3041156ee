import Foundation
import SepiaImage
import Testing

@testable import SepiaLibrary

@Suite struct ImageStoreTests {
    @Test("the LRU cache evicts the least recently used entry, counts reads as use, and respects the byte cost")
    func lru() {
        // Linux NSCache with countLimit 2 and equal costs keeps keys 0 and 1 and drops the newest; a true LRU
        // keeps the two most recent.
        let cache = LRUCache<Int, String>(costLimit: 8)
        for key in 0..<4 { cache.insert("v\(key)", for: key, cost: 4) }
        #expect(cache.keysByRecency == [3, 2])
        #expect(cache.value(for: 2) == "v2")  // a read is a use
        cache.insert("v4", for: 4, cost: 4)
        #expect(cache.keysByRecency == [4, 2])
        #expect(cache.value(for: 3) == nil)
        cache.insert("big", for: 5, cost: 9)  // costlier than the whole limit: not kept, nothing evicted
        #expect(cache.keysByRecency == [4, 2])
        cache.insert("v2'", for: 2, cost: 8)  // replacing an entry updates its cost
        #expect(cache.keysByRecency == [2] && cache.totalCost == 8)
        cache.costLimit = 4
        #expect(cache.count == 0)
    }

    @Test("the LRU cache stays consistent under concurrent use")
    func lruConcurrent() async {
        let cache = LRUCache<Int, Int>(costLimit: 1000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<5000 {
                        let key = (i * 7 + worker) % 300
                        if i % 3 == 0 { _ = cache.value(for: key) } else { cache.insert(i, for: key, cost: 1 + key % 10) }
                        if i % 997 == 0 { cache.removeAll { $0 % 2 == 0 } }
                    }
                }
            }
        }
        #expect(cache.totalCost <= 1000)
        #expect(cache.keysByRecency.count == cache.count)
    }

    @Test("memory pressure read from PSI and cgroup files sheds the memory cache")
    func pressure() async throws {
        let folder = TestLibrary.temporaryFolder("psi")
        let psi = folder + "/memory.pressure"
        let usage = folder + "/memory.current"
        let limit = folder + "/memory.max"
        func write(some: Double, full: Double, used: Int, max: String) throws {
            try "some avg10=\(some) avg60=0.00 avg300=0.00 total=1\nfull avg10=\(full) avg60=0.00 avg300=0.00 total=1\n"
                .write(toFile: psi, atomically: true, encoding: .utf8)
            try "\(used)\n".write(toFile: usage, atomically: true, encoding: .utf8)
            try "\(max)\n".write(toFile: limit, atomically: true, encoding: .utf8)
        }
        let sources = MemoryPressure.Sources(pressureFile: psi, usageFile: usage, limitFile: limit)
        try write(some: 0.5, full: 0, used: 100, max: "max")
        #expect(MemoryPressure.read(sources).level == .normal)
        try write(some: 12, full: 0, used: 100, max: "max")
        #expect(MemoryPressure.read(sources).level == .warning)
        try write(some: 0, full: 0, used: 96, max: "100")
        #expect(MemoryPressure.read(sources).level == .critical)
        // The real kernel file parses too, where the kernel reports PSI (with `psi=0` the file exists but
        // reading it fails, and the reading falls back to the cgroup's usage and limit).
        if let text = try? String(contentsOfFile: "/proc/pressure/memory", encoding: .utf8), text.hasPrefix("some ") {
            #expect(
                MemoryPressure.read(MemoryPressure.Sources(pressureFile: "/proc/pressure/memory", usageFile: nil, limitFile: nil))
                    .someAverage10 != nil)
        }

        let library = try TestLibrary.open()
        let store = library.imageStore
        for i in 0..<10 {
            store.store(
                Rendition(data: [UInt8](repeating: 1, count: 1000), pixelSize: IntSize(width: 1, height: 1)),
                for: RenditionKey(assetID: "a\(i)", version: "original", size: IntSize(width: i + 1, height: 1), mode: .aspectFit), diskToo: false)
        }
        #expect(store.memoryCount == 10)
        try write(some: 12, full: 0, used: 100, max: "max")
        store.watchMemoryPressure(sources: sources, interval: .milliseconds(20))
        try await waitUntil { store.memoryCount <= 5 }
        try write(some: 50, full: 20, used: 100, max: "max")
        try await waitUntil { store.memoryCount == 0 }
        store.stopWatchingMemoryPressure()
    }

    @Test("image requests: opportunistic gives a quick degraded image first, high quality one exact result, and deleting an asset deletes its images")
    func requests() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        // A 3648x2736 photo: ImageMagick's `-thumbnail` fits it to 256x192 in 256 px and to 2000x1500 in 2000 px.
        let id = try await library.performChanges { $0.createAsset(fromFile: TestLibrary.fixture("photos/fujifilm-w3.jpg")) }
            .createdAssetIDs[0]
        let asset = try library.asset(id)
        let manager = ImageManager(library: library)

        // A small grid cell is served from the stored thumbnail, in one result.
        var results: [ImageResult] = []
        for try await result in manager.requestImage(for: asset, targetSize: IntSize(width: 200, height: 200)) { results.append(result) }
        #expect(results.count == 1 && !results[0].isDegraded)
        #expect(results[0].rendition.pixelSize == IntSize(width: 256, height: 192))

        // A 2000 px view with opportunistic delivery: the thumbnail at once (degraded), then the real thing.
        results = []
        for try await result in manager.requestImage(for: asset, targetSize: IntSize(width: 2000, height: 2000)) { results.append(result) }
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results[1].rendition.pixelSize == IntSize(width: 2000, height: 1500))
        #expect(results[1].origin == .rendered)
        // Asked again: from memory, one result.
        results = []
        for try await result in manager.requestImage(for: asset, targetSize: IntSize(width: 2000, height: 2000)) { results.append(result) }
        #expect(results.count == 1 && results[0].origin == .memory)

        // Exact fill: exactly the target, cropped.
        let exact = try await manager.image(
            for: asset, targetSize: IntSize(width: 300, height: 300), contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact))
        #expect(exact.rendition.pixelSize == IntSize(width: 300, height: 300))
        let decoded = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(try exact.rendition.image())
        #expect(decoded.size == IntSize(width: 300, height: 300))

        // Fast delivery never renders when something is stored, even if smaller.
        let fast = try await manager.image(
            for: asset, targetSize: IntSize(width: 1900, height: 1900), options: ImageRequestOptions(deliveryMode: .fastFormat))
        #expect(fast.isDegraded && fast.rendition.pixelSize.width == 1440)

        // The disk cache is derived: delete it and requests rebuild it.
        try FileManager.default.removeItem(atPath: folder + "/cache")
        library.imageStore.removeAllFromMemory()
        let rebuilt = try await manager.image(for: asset, targetSize: IntSize(width: 100, height: 100))
        #expect(rebuilt.rendition.pixelSize == IntSize(width: 256, height: 192))

        // Deleting the asset for good deletes its images, in memory and on disk (Homepwner's rule).
        try await library.performChanges { $0.deleteAssetsPermanently([id]) }
        #expect(library.imageStore.memoryCount == 0)
        #expect(!FileManager.default.fileExists(atPath: library.folder.cacheFolder(assetID: id)))
    }

    @Test("a rendition's bytes depend on its key alone, not on which renditions were stored when it was made")
    func renditionsAreDeterministic() async throws {
        let photo = TestLibrary.uniqueJPEG(77, width: 1700, height: 1100)
        let requests: [(IntSize, ContentMode)] = [
            (IntSize(width: 256, height: 256), .aspectFit), (IntSize(width: 64, height: 64), .aspectFit),
            (IntSize(width: 128, height: 96), .aspectFill), (IntSize(width: 512, height: 512), .aspectFit),
            (IntSize(width: 1440, height: 1440), .aspectFit), (IntSize(width: 2048, height: 2048), .aspectFit),
            (IntSize(width: 300, height: 300), .scaleToFill),
        ]
        /// The renditions of one import: its thumbnail alone or both standard renditions made at import, the
        /// job's work done first or half-way, the caches emptied or not, the requests in either order.
        func renditions(deferringPreview: Bool, runJobFirst: Bool, clearCaches: Bool, reversed: Bool) async throws -> [[UInt8]] {
            let folder = TestLibrary.temporaryFolder()
            let library = try TestLibrary.open(at: folder)
            defer { library.close() }
            let file = folder + "-p.jpg"
            try photo.write(to: URL(fileURLWithPath: file))
            let prepared = try await library.prepareAsset(fileAt: file, deferringPreview: deferringPreview)
            try await library.performChanges { $0.createAsset(from: prepared) }
            let asset = try library.asset(prepared.localIdentifier)
            if runJobFirst { try await library.prepareStandardRenditions(ofAsset: asset.id) }
            if clearCaches {
                library.imageStore.removeAllFromMemory()
                try? FileManager.default.removeItem(atPath: folder + "/cache")
            }
            let manager = ImageManager(library: library)
            var results: [Int: [UInt8]] = [:]
            for index in reversed ? Array(requests.indices.reversed()) : Array(requests.indices) {
                let (size, mode) = requests[index]
                let result = try await manager.image(
                    for: asset, targetSize: size, contentMode: mode,
                    options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact))
                results[index] = result.rendition.data
                if index == 3, !runJobFirst { try await library.prepareStandardRenditions(ofAsset: asset.id) }
            }
            return requests.indices.map { results[$0]! }
        }
        let reference = try await renditions(deferringPreview: false, runJobFirst: false, clearCaches: false, reversed: false)
        for (deferring, job, clear, reversed) in [
            (true, false, false, false), (true, true, false, true), (false, false, true, true), (true, false, true, false),
        ] {
            let other = try await renditions(deferringPreview: deferring, runJobFirst: job, clearCaches: clear, reversed: reversed)
            for index in requests.indices {
                #expect(
                    other[index] == reference[index],
                    "\(requests[index]) differs (deferring preview \(deferring), job first \(job), caches cleared \(clear), reversed \(reversed))")
            }
        }
    }

    @Test("a rendition asked for while it is being made for another request is that rendition, never an empty placeholder")
    func concurrentStandardRendition() async throws {
        let folder = TestLibrary.temporaryFolder()
        let library = try TestLibrary.open(at: folder)
        defer { library.close() }
        let manager = ImageManager(library: library)
        let exact = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        for seed in 0..<6 {
            let file = folder + "-\(seed).jpg"
            try TestLibrary.uniqueJPEG(300 + seed, width: 1700, height: 1100).write(to: URL(fileURLWithPath: file))
            // As an upload: the preview is left to later, so the first request that needs it makes it.
            let prepared = try await library.prepareAsset(fileAt: file, deferringPreview: true)
            try await library.performChanges { $0.createAsset(from: prepared) }
            let asset = try library.asset(prepared.localIdentifier)
            // A size made from the preview (which makes the preview first), and the preview itself, at once.
            async let derived = manager.image(for: asset, targetSize: IntSize(width: 700, height: 700), contentMode: .aspectFit, options: exact)
            async let preview = manager.image(for: asset, targetSize: IntSize(width: 1440, height: 1440), contentMode: .aspectFit, options: exact)
            let (a, b) = try await (derived, preview)
            #expect(!a.rendition.data.isEmpty && a.rendition.pixelSize.width > 0, "seed \(seed)")
            #expect(!b.rendition.data.isEmpty && b.rendition.pixelSize == IntSize(width: 1440, height: 932), "seed \(seed): \(b.rendition.pixelSize)")
        }
    }

    @Test("the caching manager prepares images ahead and can be stopped")
    func caching() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(6, to: library)
        let assets = try library.assets(ids)
        let caching = CachingImageManager(library: library)
        let size = IntSize(width: 20, height: 20)
        caching.startCaching(
            for: assets, targetSize: size, contentMode: .aspectFill,
            options: ImageRequestOptions(resizeMode: .exact))
        caching.stopCaching(
            for: Array(assets.suffix(2)), targetSize: size, contentMode: .aspectFill,
            options: ImageRequestOptions(resizeMode: .exact))
        try await waitUntil { caching.pendingCount == 0 }
        let key = { (asset: Asset) in RenditionKey(assetID: asset.id, version: "original", size: size, mode: .aspectFill) }
        #expect(assets.prefix(3).allSatisfy { library.imageStore.memoryRendition(for: key($0)) != nil })
        #expect(library.imageStore.memoryRendition(for: key(assets[5])) == nil)
    }
}

/// Waits for `condition`, for up to five minutes: a deadline for failing, not a timing target (a suite run in
/// parallel on two busy cores can hold background work back for a minute).
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(300)
    while !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("timed out waiting")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
