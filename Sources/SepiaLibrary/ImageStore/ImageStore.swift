import Foundation
import SepiaCodecs
import SepiaImage
import Synchronization

/// Thumbnails and previews of the library's assets, kept apart from the records (Homepwner's `ImageStore`):
/// a memory cache with a byte-cost limit and least-recently-used eviction, in front of the on-disk cache in
/// the library's `cache/` folder. The memory cache sheds entries when the process comes under memory
/// pressure; the disk cache is derived data and may be deleted at any time. An asset's images go when the
/// asset goes.
///
/// A library on object storage has a third tier shared by every server: the standard renditions (and the
/// others that go to disk) are stored in the bucket too, and a server that lacks one on its own disk
/// downloads it before it thinks of rendering.
public final class ImageStore: Sendable {
    let folder: LibraryFolder
    let memory: LRUCache<RenditionKey, Rendition>
    /// The disk cache's byte budget and use order; nil when the disk cache is unbounded.
    let diskIndex: DiskCacheIndex?
    /// The renditions in the bucket, for a library on object storage.
    let shared: SharedRenditions?
    private let pressureMonitor: Mutex<PollingThread?> = Mutex(nil)

    init(folder: LibraryFolder, memoryCostLimit: Int, diskCostLimit: Int?, shared: SharedRenditions? = nil) {
        self.folder = folder
        memory = LRUCache(costLimit: memoryCostLimit)
        diskIndex = diskCostLimit.map { DiskCacheIndex(root: folder.cache, limit: $0) }
        self.shared = shared
    }

    /// Whether renditions are shared with other servers through object storage.
    public var sharesRenditions: Bool { shared != nil }

    /// The disk cache's budget in bytes, if it has one.
    public var diskCostLimit: Int? { diskIndex?.limit }

    /// The bytes the disk cache holds, as far as this process knows (nil when it is unbounded and not
    /// tracked).
    public var diskCost: Int? { diskIndex?.totalBytes }

    /// The memory cache's limit in bytes of encoded image data.
    public var memoryCostLimit: Int {
        get { memory.costLimit }
        set { memory.costLimit = newValue }
    }

    /// The bytes the memory cache holds now.
    public var memoryCost: Int { memory.totalCost }

    /// The number of renditions in memory.
    public var memoryCount: Int { memory.count }

    /// The rendition for `key`: from memory, else from disk (then kept in memory too).
    public func rendition(for key: RenditionKey) -> Rendition? {
        if let hit = memoryRendition(for: key) { return hit }
        guard let fromDisk = diskRendition(for: key) else { return nil }
        memory.insert(fromDisk, for: key, cost: fromDisk.cost)
        return fromDisk
    }

    /// The rendition for `key` if it is in memory.
    public func memoryRendition(for key: RenditionKey) -> Rendition? {
        guard let hit = memory.value(for: key) else { return nil }
        diskIndex?.didUse(diskPath(for: key))
        return hit
    }

    /// The rendition for `key` from any tier: memory, this machine's disk, else the bucket (then kept on
    /// disk and in memory here too).
    public func anyRendition(for key: RenditionKey) async -> Rendition? {
        if let local = rendition(for: key) { return local }
        return await sharedRendition(for: key)
    }

    /// The rendition for `key` from the bucket, kept on disk and in memory once downloaded; nil without
    /// object storage or when the bucket has none.
    func sharedRendition(for key: RenditionKey) async -> Rendition? {
        guard let shared, let data = await shared.data(for: key),
            let file = try? ImageDecoding.open(EncodedBytes(data))
        else { return nil }
        let rendition = Rendition(data: data, pixelSize: file.displaySize, format: key.format)
        memory.insert(rendition, for: key, cost: rendition.cost)
        try? writeToDisk(rendition, for: key)
        return rendition
    }

    /// Keeps `rendition` in memory and, unless `diskToo` is false, on disk and in the bucket (uploaded in the
    /// background: the caller has its answer already).
    public func store(_ rendition: Rendition, for key: RenditionKey, diskToo: Bool = true) {
        memory.insert(rendition, for: key, cost: rendition.cost)
        guard diskToo else { return }
        try? writeToDisk(rendition, for: key)
        if let shared { Task { await shared.store(rendition, for: key) } }
    }

    /// Keeps `rendition` on disk and waits until the bucket has it too.
    func storeDurably(_ rendition: Rendition, for key: RenditionKey) async throws(LibraryError) {
        try writeToDisk(rendition, for: key)
        await shared?.store(rendition, for: key)
    }

    /// Removes every image of an asset from memory and disk, except the versions in `keeping`.
    public func removeImages(forAsset assetID: String, keepingVersions keeping: Set<String> = []) {
        memory.removeAll { $0.assetID == assetID && !keeping.contains($0.version) }
        shared?.scheduleRemoval(assetID: assetID, keepingVersions: keeping)
        let cacheFolder = folder.cacheFolder(assetID: assetID)
        if keeping.isEmpty {
            try? FileManager.default.removeItem(atPath: cacheFolder)
            diskIndex?.didRemove(folder: cacheFolder)
            return
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? [] {
            if let key = RenditionKey(assetID: assetID, fileName: name), keeping.contains(key.version) { continue }
            DurableFile.remove(cacheFolder + "/" + name)
            diskIndex?.didRemove(file: cacheFolder + "/" + name)
        }
    }

    /// Empties the memory cache (the disk cache stays).
    public func removeAllFromMemory() {
        memory.trim(toCost: 0)
    }

    /// Sheds memory for `pressure`: half the cache on a warning, all of it when critical.
    public func handle(_ pressure: MemoryPressure) {
        switch pressure {
        case .normal: break
        case .warning: memory.trim(toCost: memory.totalCost / 2)
        case .critical: memory.trim(toCost: 0)
        }
    }

    /// Starts watching memory pressure (polling every `interval`) and shedding accordingly.
    public func watchMemoryPressure(sources: MemoryPressure.Sources = .system, interval: Duration = .seconds(2)) {
        let monitor = PollingThread(name: "sepia.memory-pressure", interval: interval) { [weak self] in
            let level = MemoryPressure.read(sources).level
            if level > .normal { self?.handle(level) }
        }
        pressureMonitor.withLock { previous in
            previous?.stop()
            previous = monitor
        }
    }

    /// Stops watching memory pressure.
    public func stopWatchingMemoryPressure() {
        pressureMonitor.withLock { monitor in
            monitor?.stop()
            monitor = nil
        }
    }

    // MARK: - Disk

    /// The renditions of one version of an asset that are on disk.
    func diskKeys(assetID: String, version: String) -> [RenditionKey] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.cacheFolder(assetID: assetID))) ?? []
        return names.compactMap { RenditionKey(assetID: assetID, fileName: $0) }.filter { $0.version == version }
    }

    func diskPath(for key: RenditionKey) -> String {
        folder.cacheFolder(assetID: key.assetID) + "/" + key.fileName
    }

    func diskRendition(for key: RenditionKey) -> Rendition? {
        let path = diskPath(for: key)
        guard let bytes = try? EncodedBytes.read(contentsOf: path, maximumBytes: 64 << 20),
            let file = try? ImageDecoding.open(bytes)
        else { return nil }
        diskIndex?.didUse(path)
        let data = bytes.withUnsafeBytes { Array($0) }
        return Rendition(data: data, pixelSize: file.displaySize, format: key.format)
    }

    func writeToDisk(_ rendition: Rendition, for key: RenditionKey) throws(LibraryError) {
        let destination = diskPath(for: key)
        let folderPath = folder.cacheFolder(assetID: key.assetID)
        if !FileManager.default.fileExists(atPath: folderPath) {
            do {
                try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
            } catch {
                throw LibraryError(.fileSystem, "cannot create the cache folder: \(error.localizedDescription)", subject: folderPath)
            }
        }
        // Derived data: written atomically (no reader sees half a file) but not flushed to disk.
        try DurableFile.write(rendition.data, to: destination, via: folder.temporaryFile(suffix: ".rendition"), sync: false)
        diskIndex?.didWrite(destination, size: rendition.data.count)
    }
}
