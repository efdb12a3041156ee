import Foundation
import SepiaCodecs

/// The embedded default: originals and renders in the library folder (`originals/`, `renders/`), written to
/// a temporary file, flushed and renamed into place.
struct FolderBlobStore: BlobStore {
    let folder: LibraryFolder

    var location: String { folder.root }

    func path(of file: StoredFile) -> String {
        folder.root + "/" + file.key
    }

    func store(_ bytes: EncodedBytes, as file: StoredFile) async throws(LibraryError) {
        let destination = path(of: file)
        if DurableFile.size(of: destination) == bytes.count { return }
        try bytes.withUnsafeBytes { (raw) throws(LibraryError) in
            try DurableFile.write(raw, to: destination, via: folder.temporaryFile(suffix: "." + file.kind.rawValue))
        }
    }

    func store(movingFileAt source: String, as file: StoredFile) async throws(LibraryError) {
        let destination = path(of: file)
        if let size = DurableFile.size(of: source), DurableFile.size(of: destination) == size {
            DurableFile.remove(source)
            return
        }
        try DurableFile.flush(source)
        try DurableFile.moveIntoPlace(source, destination)
    }

    func localPath(of file: StoredFile) async throws(LibraryError) -> String {
        path(of: file)
    }

    func inspect(_ file: StoredFile, reading: Bool) async throws(LibraryError) -> BlobInspection {
        let path = path(of: file)
        guard let size = DurableFile.size(of: path) else { return .missing }
        return .stored(bytes: size, hash: reading ? try ContentHash.ofFile(path) : nil)
    }

    func fileCheck(sweeps: @escaping (StoredFile) -> Int64) -> FileCheck {
        .exists { [self] file in DurableFile.size(of: path(of: file)) != nil }
    }

    var removesReleasedFiles: Bool { true }

    func remove(_ files: [StoredFile]) throws(LibraryError) -> [StoredFile] {
        for file in files { DurableFile.remove(path(of: file)) }
        if !files.isEmpty {
            DurableFile.flushFolder(folder.originals)
            DurableFile.flushFolder(folder.renders)
        }
        return files
    }

    func storedFiles() async throws(LibraryError) -> [(file: StoredFile, date: Double)] {
        var found: [(StoredFile, Double)] = []
        for top in [folder.originals, folder.renders] {
            for path in LibraryCleaner.files(under: top) {
                guard let file = StoredFile(key: String(path.dropFirst(folder.root.count + 1))) else { continue }
                var info = stat()
                let date = stat(path, &info) == 0 ? Double(info.st_mtim.tv_sec) : 0
                found.append((file, date))
            }
        }
        return found
    }
}
