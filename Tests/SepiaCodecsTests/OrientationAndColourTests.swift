import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@Suite struct OrientationAndColourTests {
    static let context = RenderContext(options: RenderOptions(threadCount: 2))

    static func render(_ relative: String) async throws -> Bitmap {
        let file = try ImageDecoding.open(path: Corpus.path(relative))
        return try await context.renderBitmap(file.image, layout: .rgb)
    }

    static let orientationCases: [(String, String, Double)] = {
        var cases: [(String, String, Double)] = []
        for entry in Corpus.entries where entry.category == "exif-orientation" || entry.file.hasSuffix("orientation_6.webp") {
            let name = (entry.file as NSString).lastPathComponent
            if name.hasPrefix("Landscape_") {
                cases.append((entry.file, "exif-orientation/Landscape_1.jpg", 10))
            } else if name.hasPrefix("hopper") {
                cases.append((entry.file, "exif-orientation/hopper.jpg", 10))
            }
        }
        for name in ["rot1mir0", "rot2mir1"] {
            cases.append(("heic-avif/\(name).avif", "heic-avif/rot0mir0.avif", 20))
        }
        return cases
    }()

    @Test("every orientation file displays like its upright reference", arguments: orientationCases.indices)
    func orientation(index: Int) async throws {
        let (file, reference, threshold) = Self.orientationCases[index]
        let a = try await Self.render(file)
        let b = try await Self.render(reference)
        try #require(a.size == b.size, "\(file) is \(a.size), its reference \(b.size)")
        let difference = Corpus.meanDifference(a, b)
        #expect(difference < threshold, "\(file): mean difference \(difference)")
    }

    @Test("HEIF's container rotation is applied once; its EXIF orientation is not applied again")
    func heifRotation() throws {
        let file = try ImageDecoding.open(path: Corpus.path("heic-avif/arrow.heic"))
        #expect(file.metadata.exifOrientation == 6)
        #expect(file.orientation == .up)
        #expect(file.displaySize == IntSize(width: 3024, height: 4032))
    }

    struct Reference: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            let file: String
            let conversion: String
            let points: [[Int]]
            let expected: [[Int]]
            let untagged: [[Int]]?
        }
        let entries: [Entry]
    }

    static let colourReferences: [Reference.Entry] = {
        let url = Corpus.fixtures.appendingPathComponent("references/colour.json")
        guard let data = try? Data(contentsOf: url), let reference = try? JSONDecoder().decode(Reference.self, from: data) else { return [] }
        return reference.entries
    }()

    @Test("wide-gamut and CMYK images come out as Little CMS converts them to sRGB", arguments: colourReferences.indices)
    func colour(index: Int) async throws {
        let reference = Self.colourReferences[index]
        let bitmap = try await Self.render(reference.file)
        var worst = 0
        var untaggedDistance = 0.0
        for (i, point) in reference.points.enumerated() {
            let p = bitmap.rgba(x: point[0], y: point[1])
            for c in 0..<3 {
                worst = max(worst, abs(Int(p[c]) - reference.expected[i][c]))
                if let untagged = reference.untagged { untaggedDistance += Double(abs(Int(p[c]) - untagged[i][c])) }
            }
        }
        #expect(worst <= 2, "\(reference.file): largest difference from Little CMS is \(worst) codes")
        if reference.untagged != nil {
            // The conversion matters: reading the file as if it were sRGB would be visibly different.
            #expect(untaggedDistance / Double(reference.points.count * 3) > 1, "\(reference.file)")
        }
    }

    @Test("colour profiles are named")
    func profileNames() throws {
        #expect(try ImageDecoding.open(path: Corpus.path("heic-avif/pug.heic")).colorSpace == "Display P3")
        #expect(try ImageDecoding.open(path: Corpus.path("photos/xmp_test.jpg")).colorSpace.contains("Adobe RGB"))
        #expect(
            try ImageDecoding.open(path: Corpus.path("jpeg-conformance/icc_missing_chunk.jpg")).metadata.warnings.contains { $0.contains("ICC") })
    }
}
