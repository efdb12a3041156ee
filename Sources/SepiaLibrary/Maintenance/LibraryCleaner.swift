import Foundation

/// Finds and removes what an interrupted process leaves in a library folder: temporary files, stored files
/// that no row names (written before a commit that never happened), and cache folders of deleted assets.
/// Only safe while no other process has the library open.
struct LibraryCleaner {
    let folder: LibraryFolder
    let store: any LibraryStore

    /// Files under `originals/` and `renders/` that no row names, relative to the library folder.
    func orphans() throws(LibraryError) -> [String] {
        let referenced = Set(try store.allFileReferences().map { folder.root + "/" + $0.key })
        var orphans: [String] = []
        for top in [folder.originals, folder.renders] {
            for file in Self.files(under: top) where !referenced.contains(file) {
                orphans.append(String(file.dropFirst(folder.root.count + 1)))
            }
        }
        return orphans.sorted()
    }

    /// Files in `tmp/`.
    func temporaryFiles() -> [String] {
        Self.files(under: folder.temporary)
    }

    /// Cache folders of assets that are not in the library. Asks the database about the folders there are,
    /// a thousand at a time, so the cost follows the cache, not the library (a million rows need not be read
    /// to open a library whose cache is empty).
    func staleCacheFolders() throws(LibraryError) -> [String] {
        var folders: [(id: String, path: String)] = []
        for fan in (try? FileManager.default.contentsOfDirectory(atPath: folder.cache)) ?? [] {
            let fanPath = folder.cache + "/" + fan
            for id in (try? FileManager.default.contentsOfDirectory(atPath: fanPath)) ?? [] {
                folders.append((id, fanPath + "/" + id))
            }
        }
        var stale: [String] = []
        for start in stride(from: 0, to: folders.count, by: 1000) {
            let batch = folders[start..<min(start + 1000, folders.count)]
            let present = Set(try store.assets(ids: batch.map(\.id)).map(\.id))
            stale += batch.filter { !present.contains($0.id) }.map(\.path)
        }
        return stale
    }

    /// Removes orphans (when the library folder holds the stored files), temporary files and stale cache
    /// folders.
    func removeLeftovers(storedFilesToo: Bool) throws(LibraryError) -> PhotoLibrary.OpeningReport {
        let orphans = storedFilesToo ? try orphans() : []
        for orphan in orphans { DurableFile.remove(folder.root + "/" + orphan) }
        let temporary = temporaryFiles()
        for file in temporary { DurableFile.remove(file) }
        let stale = try staleCacheFolders()
        for path in stale { try? FileManager.default.removeItem(atPath: path) }
        if !orphans.isEmpty {
            DurableFile.flushFolder(folder.originals)
            DurableFile.flushFolder(folder.renders)
        }
        return PhotoLibrary.OpeningReport(
            cleanedUp: true, removedOrphans: orphans, removedTemporaryFiles: temporary.count, removedCacheFolders: stale.count)
    }

    /// Every regular file below `root`.
    static func files(under root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { files.append(path) }
        }
        return files
    }
}
