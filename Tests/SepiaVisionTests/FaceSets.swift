import Foundation
import SepiaVision
import Testing

/// The face photos the tests search: dlib's examples from Debian's libdlib19.1 (`johns/`: five people, eleven
/// aligned faces each; `faces/bald_guys.jpg`: four people, six faces each) and face_recognition's test photos from
/// the corpus (`faces/`, scripts/testdata).
enum FaceSets {
    static let dlibExamples = "/usr/share/doc/libdlib19.1/examples"

    /// The test corpus (`SEPIA_TESTDATA`, else the repository's `.build/testdata`).
    static let corpus: String = {
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty { return override }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/testdata").path
    }()

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// A file that must be there, recorded as a failure with what installs it when it is not.
    static func require(_ path: String, installedBy command: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("\(path) is missing: run \(command)")
            throw Missing(description: "missing " + path)
        }
        return path
    }

    /// The faces of `johns/`: each person's folder name and the paths of their eleven photos.
    static func johns() throws -> [(person: String, photos: [String])] {
        let folder = try require(dlibExamples + "/johns", installedBy: "scripts/setup (Debian's libdlib19.1)")
        let people = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return try people.map { person in
            let photos = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + person).filter { $0.hasSuffix(".jpg") }
                .sorted().map { folder + "/" + person + "/" + $0 }
            return (person, photos)
        }
    }

    static func baldGuys() throws -> String {
        try require(dlibExamples + "/faces/bald_guys.jpg", installedBy: "scripts/setup (Debian's libdlib19.1)")
    }

    static func corpusPhoto(_ name: String) throws -> String {
        try require(corpus + "/faces/" + name, installedBy: "scripts/testdata")
    }

    /// Groups prints as dlib's face clustering example does: faces closer than `threshold` are joined, and each
    /// connected group is one person. Returns the groups' sizes, largest first, and each print's group.
    static func groups(_ prints: [[Float]], threshold: Float = FacePrintObservation.sameIdentityDistance) -> [Int] {
        var parent = Array(prints.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for i in prints.indices {
            for j in prints.indices where j > i && FacePrintObservation.distance(prints[i], prints[j]) < threshold {
                parent[root(i)] = root(j)
            }
        }
        return prints.indices.map(root)
    }
}
