import Foundation
import Synchronization

/// The on-disk rendition cache's bookkeeping: every file in `cache/` with its size and when it was last used,
/// so that the cache keeps to a byte budget by removing the least recently used files.
///
/// The index starts from a scan of the folder (files last used when they were last written, the best record
/// of use a previous process left), made on a thread of its own when this process first writes to the cache
/// (a process that only reads never scans), and is kept up to date by this process's writes, reads and
/// removals. Files other processes write (`sepia import` beside a server) join it at the next
/// scan, every `rescanInterval`. Eviction removes files down to 90% of the budget, so it runs once per tenth
/// of the budget written, not on every write.
final class DiskCacheIndex: Sendable {
    private struct Entry {
        var size: Int
        /// Seconds since 1970: the file's modification time until this process uses it.
        var lastUse: Double
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalBytes = 0
        var scanned = false
        var scanStarted = false
        var evictions = 0
        var evictedBytes = 0
    }

    let root: String
    let limit: Int
    let rescanInterval: Duration
    private let state = Mutex(State())
    private let rescanner = Mutex<PollingThread?>(nil)

    /// An index of the cache folder `root` that keeps it to `limit` bytes.
    init(root: String, limit: Int, rescanInterval: Duration = .seconds(900)) {
        self.root = root
        self.limit = max(0, limit)
        self.rescanInterval = rescanInterval
    }

    /// Starts the first scan and the periodic ones.
    private func startScanning() {
        let thread = Thread { [weak self] in self?.scan() }
        thread.name = "sepia.cache-scan"
        thread.start()
        let poller = PollingThread(name: "sepia.cache-rescan", interval: rescanInterval) { [weak self] in self?.scan() }
        rescanner.withLock { $0 = poller }
    }

    func stop() {
        rescanner.withLock {
            $0?.stop()
            $0 = nil
        }
    }

    deinit { stop() }

    /// The bytes the cache holds, as far as the index knows.
    var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// How many files eviction removed so far, and their bytes.
    var evicted: (files: Int, bytes: Int) { state.withLock { ($0.evictions, $0.evictedBytes) } }

    /// Records a file written (or rewritten) at `path`, then evicts if the cache is over its budget.
    func didWrite(_ path: String, size: Int) {
        var first = false
        let victims = state.withLock { state -> [String] in
            first = !state.scanStarted
            state.scanStarted = true
            let previous = state.entries.updateValue(Entry(size: size, lastUse: Date().timeIntervalSince1970), forKey: path)
            state.totalBytes += size - (previous?.size ?? 0)
            return Self.victims(&state, limit: limit)
        }
        remove(victims)
        if first { startScanning() }
    }

    /// Records a use of the file at `path`.
    func didUse(_ path: String) {
        let now = Date().timeIntervalSince1970
        state.withLock { state in
            guard state.entries[path] != nil else { return }
            state.entries[path]?.lastUse = now
        }
    }

    /// Forgets the files under `folder` (removed by their owner).
    func didRemove(folder: String) {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        state.withLock { state in
            for (path, entry) in state.entries where path.hasPrefix(prefix) {
                state.entries[path] = nil
                state.totalBytes -= entry.size
            }
        }
    }

    /// Forgets one file.
    func didRemove(file path: String) {
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: path) { state.totalBytes -= entry.size }
        }
    }

    /// Reads the folder: files the index does not know join it, last used when they were last written;
    /// files gone from disk leave it.
    func scan() {
        var found: [(path: String, size: Int, modified: Double)] = []
        let manager = FileManager.default
        for shard in (try? manager.contentsOfDirectory(atPath: root)) ?? [] {
            let shardPath = root + "/" + shard
            for asset in (try? manager.contentsOfDirectory(atPath: shardPath)) ?? [] {
                let assetPath = shardPath + "/" + asset
                for name in (try? manager.contentsOfDirectory(atPath: assetPath)) ?? [] {
                    let path = assetPath + "/" + name
                    var info = stat()
                    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    found.append((path, Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) * 1e-9))
                }
            }
        }
        let onDisk = Set(found.map(\.path))
        let victims = state.withLock { state -> [String] in
            let known = state.entries
            for file in found where known[file.path] == nil {
                state.entries[file.path] = Entry(size: file.size, lastUse: file.modified)
                state.totalBytes += file.size
            }
            for (path, entry) in known where !onDisk.contains(path) {
                state.entries[path] = nil
                state.totalBytes -= entry.size
            }
            state.scanned = true
            return Self.victims(&state, limit: limit)
        }
        remove(victims)
    }

    /// The least recently used files to remove so the cache falls to 90% of `limit`, taken out of the index.
    private static func victims(_ state: inout State, limit: Int) -> [String] {
        guard state.scanned, state.totalBytes > limit else { return [] }
        let target = limit / 10 * 9
        var victims: [String] = []
        for (path, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard state.totalBytes > target else { break }
            state.entries[path] = nil
            state.totalBytes -= entry.size
            state.evictions += 1
            state.evictedBytes += entry.size
            victims.append(path)
        }
        return victims
    }

    private func remove(_ paths: [String]) {
        for path in paths { unlink(path) }
    }
}
