import Foundation
import Testing

/// Photos with faces for the server's tests: dlib's examples from Debian's libdlib19.1 (`johns/`: five people,
/// eleven aligned faces each) and face_recognition's test photos from the corpus (`faces/`, scripts/testdata).
enum FacePhotos {
    static let johns = "/usr/share/doc/libdlib19.1/examples/johns"

    /// The test corpus (`SEPIA_TESTDATA`, else the repository's `.build/testdata`).
    static let corpus: String = {
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty { return override }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/testdata").path
    }()

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The first `count` photos of one of johns/'s people (`John_Salley`, `John_Savage`, …).
    static func john(_ person: String, count: Int) throws -> [String] {
        let folder = johns + "/" + person
        guard FileManager.default.fileExists(atPath: folder) else {
            Issue.record("\(folder) is missing: run scripts/setup (Debian's libdlib19.1)")
            throw Missing(description: "missing " + folder)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        return names.prefix(count).map { folder + "/" + $0 }
    }

    /// A photo of the corpus's `faces/` (`obama.jpg`, `biden.jpg`, …).
    static func corpusPhoto(_ name: String) throws -> String {
        let path = corpus + "/faces/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("\(path) is missing: run scripts/testdata")
            throw Missing(description: "missing " + path)
        }
        return path
    }
}
