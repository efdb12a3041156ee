import SepiaCodecs

/// Where a library keeps the files its rows name: originals and the renders of edits, content-addressed and
/// never rewritten. ``FolderBlobStore`` keeps them in the library folder; ``ObjectBlobStore`` in an S3 bucket
/// that several servers share, with a copy on local disk of the files this machine reads.
///
/// The durability rule holds for both: a file is stored (and durable) before the row that names it commits;
/// a file no row names is removed only inside a write transaction that makes sure none does.
protocol BlobStore: Sendable {
    /// Where the files are, for messages: the folder, or the bucket's location.
    var location: String { get }

    /// Stores `bytes` as `file`, durably, unless it is already stored.
    func store(_ bytes: EncodedBytes, as file: StoredFile) async throws(LibraryError)
    /// Stores the complete file at `path` (in the library's `tmp/`) as `file`; the file at `path` is moved or
    /// removed.
    func store(movingFileAt path: String, as file: StoredFile) async throws(LibraryError)
    /// A path on this machine to read `file` from (for object storage, a local copy made on first use).
    func localPath(of file: StoredFile) async throws(LibraryError) -> String
    /// Whether `file` is stored, and its content when `reading` (for the library's check).
    func inspect(_ file: StoredFile, reading: Bool) async throws(LibraryError) -> BlobInspection

    /// How a commit makes sure the files its rows name are in place, given the number of the latest sweep
    /// before each was stored.
    func fileCheck(sweeps: @escaping (StoredFile) -> Int64) -> FileCheck
    /// Whether files that changes release are removed as soon as no row names them (a folder, which one
    /// process at a time cleans), rather than by ``sweep(olderThan:in:)`` (shared storage).
    var removesReleasedFiles: Bool { get }
    /// Removes `files`, which no row names; called inside a write transaction. Returns those removed.
    func remove(_ files: [StoredFile]) throws(LibraryError) -> [StoredFile]
    /// Every stored file, with when it was stored (seconds since 1970).
    func storedFiles() async throws(LibraryError) -> [(file: StoredFile, date: Double)]
}

/// What ``BlobStore/inspect(_:reading:)`` found.
enum BlobInspection: Sendable {
    case missing
    /// Stored; `hash` is the SHA-256 of its content when it was read.
    case stored(bytes: Int, hash: String?)
}

extension StoredFile {
    /// The file's key in a store: `originals/ab/<sha256>.<ext>` or `renders/ab/<sha256>.jpg`.
    var key: String {
        kind == .original
            ? "originals/" + hash.prefix(2) + "/" + hash + "." + format.fileExtension : "renders/" + hash.prefix(2) + "/" + hash + ".jpg"
    }

    /// The stored file a key names, or nil for a key that is not one (a stray object, a temporary file).
    init?(key: String) {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let dot = parts[2].firstIndex(of: ".") else { return nil }
        let hash = String(parts[2][..<dot])
        let ext = String(parts[2][parts[2].index(after: dot)...])
        guard ContentHash.isValid(hash), parts[1] == hash.prefix(2) else { return nil }
        switch parts[0] {
        case "originals":
            guard let format = ImageFormat.allCases.first(where: { $0.fileExtension == ext }) else { return nil }
            self.init(kind: .original, hash: hash, format: format)
        case "renders":
            guard ext == "jpg" else { return nil }
            self.init(kind: .render, hash: hash, format: .jpeg)
        default:
            return nil
        }
    }
}
