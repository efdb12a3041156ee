import Crypto
import Foundation
import Synchronization

/// The version of the web app's modules and style sheets: 32 hexadecimal digits of a hash of their paths and bytes.
///
/// The app's page names its modules and style sheets under `/v/{version}/`, where they are cached for good
/// (`immutable`): a browser that has loaded the app once loads it again without asking the server about each of its
/// modules. A change to any file is a new version of all of them, so a module of one version never imports one of another; and two servers with the
/// same files name the same version (scale-out). The hash is made again only when a file's size or modification time
/// has changed (`--web-root`, while working on the front end), which a listing of the folders, at most once a second,
/// tells.
final class WebAppVersion: Sendable {
    /// The folders whose files the version covers: those the page names.
    static let folders = ["app", "styles"]

    let root: String
    private let state = Mutex<State?>(nil)

    private struct State {
        var listing: [String]
        var version: String
        var checked: ContinuousClock.Instant
    }

    init(root: String) {
        self.root = root
    }

    /// The version of the files as they are now (at most a second ago).
    func current() -> String {
        let now = ContinuousClock.now
        if let state = state.withLock({ $0 }), now - state.checked < .seconds(1) { return state.version }
        let listing = Self.listing(root)
        if let state = state.withLock({ $0 }), state.listing == listing {
            self.state.withLock { $0?.checked = now }
            return state.version
        }
        let version = Self.hash(root, listing)
        state.withLock { $0 = State(listing: listing, version: version, checked: now) }
        return version
    }

    /// Each file's path, size and modification time, one line each, in order of path.
    private static func listing(_ root: String) -> [String] {
        var lines: [String] = []
        for folder in folders {
            let base = root + "/" + folder
            for relative in (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? []
            where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: base + "/" + relative),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                let size = attributes[.size] as? Int ?? 0
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                lines.append("\(folder)/\(relative)\t\(size)\t\(Int64(modified * 1000))")
            }
        }
        return lines.sorted()
    }

    /// The hash of the listed files' paths and bytes.
    private static func hash(_ root: String, _ listing: [String]) -> String {
        var hasher = SHA256()
        for line in listing {
            let path = String(line.prefix { $0 != "\t" })
            hasher.update(data: Data(path.utf8))
            hasher.update(data: Data([0]))
            if let bytes = FileManager.default.contents(atPath: root + "/" + path) {
                hasher.update(data: Data(String(bytes.count).utf8))
                hasher.update(data: Data([0]))
                hasher.update(data: bytes)
            }
        }
        return hasher.finalize().hexPrefix()
    }
}
