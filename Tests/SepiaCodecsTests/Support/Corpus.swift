import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// The test corpus: the vendored public files in `Tests/Fixtures/testdata` (or another corpus of the same
/// layout named by `SEPIA_TESTDATA`), described by `MANIFEST.json`.
enum Corpus {
    static let fixtures = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return fixtures.appendingPathComponent("testdata")
    }()

    /// A JSON value of the manifest's free-form `exif` object.
    enum Value: Decodable, Sendable, Hashable {
        case string(String), number(Double), list([Value]), other

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let l = try? c.decode([Value].self) {
                self = .list(l)
            } else {
                self = .other
            }
        }

        var string: String? { if case .string(let s) = self { return s } else { return nil } }
        var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    }

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let category: String
        let expected: String
        let display_size: [Int]?
        let stored_size: [Int]?
        let exif: [String: Value]?
        let note: String?

        var testDescription: String { "\(file) (\(expected))" }
        var path: String { Corpus.root.appendingPathComponent(file).path }
        var displaySize: IntSize? { display_size.map { IntSize(width: $0[0], height: $0[1]) } }
        var storedSize: IntSize? { stored_size.map { IntSize(width: $0[0], height: $0[1]) } }
    }

    static let entries: [Entry] = {
        let url = root.appendingPathComponent("MANIFEST.json")
        guard let data = try? Data(contentsOf: url), let entries = try? JSONDecoder().decode([Entry].self, from: data) else {
            return []
        }
        return entries.filter { $0.expected != "doc" }
    }()

    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Mean absolute difference per channel (0–255 scale) of two RGB bitmaps of equal size.
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size)
        var total = 0.0
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                for c in 0..<3 {
                    total += abs(Double(p[c]) - Double(q[c]))
                    count += 1
                }
            }
        }
        return total / Double(max(1, count))
    }
}
