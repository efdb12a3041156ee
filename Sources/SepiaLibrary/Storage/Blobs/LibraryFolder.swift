import Foundation
import SepiaCodecs

/// The layout of a library folder:
///
/// ```
/// library.sqlite        the database (WAL mode: also library.sqlite-wal, library.sqlite-shm)
/// library.lock          held shared by every process that has the library open
/// originals/ab/<sha256>.<ext>   original files, content-addressed, never rewritten
/// renders/ab/<sha256>.jpg       the rendered JPEG of each current edit
/// cache/ab/<asset id>/<version>-<size>.jpg   thumbnails and previews: derived, deletable at any time
/// tmp/                  files being written; emptied when the library opens alone
/// ```
struct LibraryFolder: Sendable, Hashable {
    let root: String

    init(_ root: String) {
        self.root = (root as NSString).standardizingPath
    }

    var database: String { root + "/library.sqlite" }
    var lockFile: String { root + "/library.lock" }
    var originals: String { root + "/originals" }
    var renders: String { root + "/renders" }
    var cache: String { root + "/cache" }
    var temporary: String { root + "/tmp" }

    /// Where the original with `hash` and `format` is stored.
    func original(hash: String, format: ImageFormat) -> String {
        originals + "/" + hash.prefix(2) + "/" + hash + "." + format.fileExtension
    }

    /// Where the render with `hash` is stored.
    func render(hash: String) -> String {
        renders + "/" + hash.prefix(2) + "/" + hash + ".jpg"
    }

    /// The cache folder of one asset.
    func cacheFolder(assetID: String) -> String {
        cache + "/" + assetID.prefix(2) + "/" + assetID
    }

    /// A new, unique temporary file name.
    func temporaryFile(suffix: String) -> String {
        temporary + "/" + UUID().uuidString + suffix
    }

    /// Creates the folders that must exist.
    func createFolders() throws(LibraryError) {
        for folder in [root, originals, renders, cache, temporary] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw LibraryError(.cannotOpen, "cannot create the library folder: \(error.localizedDescription)", subject: folder)
            }
        }
    }
}
