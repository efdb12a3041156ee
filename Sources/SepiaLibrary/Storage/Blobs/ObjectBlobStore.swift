import Foundation
import SepiaCodecs
import SepiaObjectStore
import Synchronization

/// Originals and renders in an S3 bucket shared by several servers, with a copy on this machine of every
/// file it reads or writes (`objects/` in the library folder, kept to a byte budget, deletable at any time).
///
/// Objects are content-addressed, so a local copy is checked against its key's SHA-256 when it is
/// downloaded and is right forever after. Files that changes release are not removed at once: another
/// server may be about to name the same content. ``PhotoLibrary/sweepStorage(olderThan:)`` removes objects
/// no row names once they are older than a grace period.
final class ObjectBlobStore: BlobStore {
    let client: S3Client
    let copies: String
    let temporary: String
    let copyIndex: DiskCacheIndex?
    private let downloads = Mutex<[StoredFile: Task<String, any Error>]>([:])

    init(client: S3Client, folder: LibraryFolder, copyLimit: Int?) {
        self.client = client
        copies = folder.root + "/objects"
        temporary = folder.temporary
        copyIndex = copyLimit.map { DiskCacheIndex(root: folder.root + "/objects", limit: $0) }
    }

    var location: String { client.location.description }

    /// Where the local copy of `file` is, its folder created.
    func copyPath(of file: StoredFile) -> String {
        let path = copies + "/" + file.key
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return path
    }

    func store(_ bytes: EncodedBytes, as file: StoredFile) async throws(LibraryError) {
        let data = bytes.withUnsafeBytes { Data($0) }
        if try await existing(file, size: bytes.count) == nil {
            do {
                try await client.put(data, key: file.key, contentType: file.contentType)
            } catch {
                throw LibraryError(storing: file, error)
            }
        }
        // The copy is a cache: failing to write it loses nothing.
        let copy = copyPath(of: file)
        if DurableFile.size(of: copy) != bytes.count {
            let written: Bool = bytes.withUnsafeBytes { raw in
                (try? DurableFile.write(raw, to: copy, via: temporary + "/" + UUID().uuidString + ".copy", sync: false)) != nil
            }
            if written { copyIndex?.didWrite(copy, size: bytes.count) }
        }
    }

    func store(movingFileAt path: String, as file: StoredFile) async throws(LibraryError) {
        guard let size = DurableFile.size(of: path) else {
            throw LibraryError(.fileSystem, "the file to store is missing", subject: path)
        }
        if try await existing(file, size: size) == nil {
            do {
                try await client.upload(fileAt: path, key: file.key, contentType: file.contentType)
            } catch {
                DurableFile.remove(path)
                throw LibraryError(storing: file, error)
            }
        }
        let copy = copyPath(of: file)
        do {
            try DurableFile.moveIntoPlace(path, copy, sync: false)
            copyIndex?.didWrite(copy, size: size)
        } catch {
            DurableFile.remove(path)
        }
    }

    /// What the store has under `file`'s key when its size is `size`; nil when it must be stored.
    private func existing(_ file: StoredFile, size: Int) async throws(LibraryError) -> S3ObjectInfo? {
        do {
            guard let info = try await client.head(key: file.key), info.size == size else { return nil }
            return info
        } catch {
            throw LibraryError(storing: file, error)
        }
    }

    func localPath(of file: StoredFile) async throws(LibraryError) -> String {
        let copy = copyPath(of: file)
        if DurableFile.size(of: copy) != nil {
            copyIndex?.didUse(copy)
            return copy
        }
        let task = downloads.withLock { running -> Task<String, any Error> in
            if let task = running[file] { return task }
            let task = Task { try await self.download(file) }
            running[file] = task
            return task
        }
        defer { _ = downloads.withLock { $0.removeValue(forKey: file) } }
        do {
            return try await task.value
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.fileSystem, "cannot read the file from object storage: \(error)", subject: file.key)
        }
    }

    private func download(_ file: StoredFile) async throws(LibraryError) -> String {
        let copy = copyPath(of: file)
        let partial = temporary + "/" + UUID().uuidString + ".download"
        do {
            try await client.download(key: file.key, to: partial)
        } catch {
            if error.kind == .notFound {
                throw LibraryError(.notFound, "the \(file.kind.rawValue) is missing from object storage; run `sepia check`", subject: file.key)
            }
            throw LibraryError(.storageUnavailable, "cannot read the \(file.kind.rawValue) from object storage: \(error)", subject: file.key)
        }
        guard (try? ContentHash.ofFile(partial)) == file.hash else {
            DurableFile.remove(partial)
            throw LibraryError(.fileSystem, "the \(file.kind.rawValue) in object storage does not match its SHA-256 (damaged)", subject: file.key)
        }
        try DurableFile.moveIntoPlace(partial, copy, sync: false)
        copyIndex?.didWrite(copy, size: DurableFile.size(of: copy) ?? 0)
        return copy
    }

    func inspect(_ file: StoredFile, reading: Bool) async throws(LibraryError) -> BlobInspection {
        do {
            guard reading else {
                return try await client.head(key: file.key).map { .stored(bytes: $0.size, hash: nil) } ?? .missing
            }
            let partial = temporary + "/" + UUID().uuidString + ".check"
            defer { DurableFile.remove(partial) }
            let info = try await client.download(key: file.key, to: partial)
            return .stored(bytes: info.size, hash: try ContentHash.ofFile(partial))
        } catch let error as S3Error where error.kind == .notFound {
            return .missing
        } catch let error as S3Error {
            throw LibraryError(.storageUnavailable, "cannot check the file in object storage: \(error)", subject: file.key)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.fileSystem, "cannot check the file in object storage: \(error)", subject: file.key)
        }
    }

    func fileCheck(sweeps: @escaping (StoredFile) -> Int64) -> FileCheck {
        .notSweptAfter(sweeps)
    }

    var removesReleasedFiles: Bool { false }

    /// Deletes the objects, waiting for the store: the caller holds a write transaction and runs on a thread
    /// of its own (``PhotoLibrary/sweepStorage(olderThan:)``), never on one of the threads Swift's concurrency
    /// shares. Every object a delete was sent for counts as removed, even when the answer was lost.
    func remove(_ files: [StoredFile]) throws(LibraryError) -> [StoredFile] {
        let client = self.client
        let done = DispatchSemaphore(value: 0)
        Task {
            // An object whose delete failed is still recorded as swept: a commit naming it stores it again,
            // which costs an upload, never a file. The next sweep removes it.
            for file in files { try? await client.delete(key: file.key) }
            done.signal()
        }
        done.wait()
        for file in files {
            DurableFile.remove(copyPath(of: file))
        }
        return files
    }

    func storedFiles() async throws(LibraryError) -> [(file: StoredFile, date: Double)] {
        var found: [(StoredFile, Double)] = []
        do {
            for prefix in ["originals/", "renders/"] {
                for try await object in client.listAll(prefix: prefix) {
                    guard let file = StoredFile(key: object.key) else { continue }
                    found.append((file, object.lastModified?.timeIntervalSince1970 ?? 0))
                }
            }
        } catch {
            throw LibraryError(.storageUnavailable, "cannot list object storage: \(error)", subject: location)
        }
        return found
    }
}

extension StoredFile {
    var contentType: String {
        kind == .render ? "image/jpeg" : format.mimeType
    }
}

extension LibraryError {
    /// A failed write to object storage.
    init(storing file: StoredFile, _ error: S3Error) {
        self.init(.storageUnavailable, "cannot store the \(file.kind.rawValue) in object storage: \(error)", subject: file.key)
    }
}
