import Foundation
import SepiaTestSupport
import Testing

/// exiftool, the independent reference the tests write sidecars with and read Sepia's back with.
enum ExifTool {
    /// Runs exiftool with `arguments`; its standard output.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let result = try ExternalProgram.run("/usr/bin/exiftool", arguments)
        #expect(result.status == 0, "exiftool \(arguments): \(result.errors)")
        return result.output
    }

    /// A new sidecar at `path` with the tag assignments `-GROUP:TAG=VALUE`.
    static func makeSidecar(_ path: String, _ assignments: [String]) throws {
        try? FileManager.default.removeItem(atPath: path)
        try run(["-q", "-o", path] + assignments)
    }

    /// Every tag of `path`, grouped by XMP namespace (`XMP-dc:Subject`), values as numbers where exiftool has them.
    static func tags(_ path: String) throws -> [String: Any] {
        let json = try run(["-j", "-G1", "-n", "-struct", path])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return parsed?.first ?? [:]
    }

    /// A tag's value as a list of strings (exiftool gives a single item as a scalar).
    static func list(_ value: Any?) -> [String] {
        switch value {
        case let items as [Any]: return items.map { "\($0)" }
        case let item?: return ["\(item)"]
        case nil: return []
        }
    }
}

/// A temporary folder removed at the end of the test.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "sepia-xmp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}
