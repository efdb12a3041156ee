import Foundation
import SepiaImage
import Testing

/// Compares filters whose maths is defined with independent NumPy/SciPy computations
/// (`scripts/references/filter_references.py`), in the same working space, within each case's tolerance.
@Suite struct FilterReferenceTests {
    struct Index: Decodable, Sendable {
        struct Input: Decodable, Sendable {
            let file: String
            let width: Int
            let height: Int
        }
        struct Case: Decodable, Sendable, CustomTestStringConvertible {
            let name: String
            let filter: String
            let parameters: [String: FilterValue]
            let output: String
            let extent: [Int]
            let maxError: Float
            let meanError: Float
            var testDescription: String { "\(name) (\(filter))" }
        }
        let input: Input
        let cases: [Case]
    }

    static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/references/filters")

    static let index: Index? = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("index.json")) else { return nil }
        return try? JSONDecoder().decode(Index.self, from: data)
    }()

    static func load(_ file: String, extent: IntRect) throws -> PixelBuffer {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        let floats: [Float] = data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        var pixels = [SIMD4<Float>]()
        pixels.reserveCapacity(floats.count / 4)
        for i in stride(from: 0, to: floats.count, by: 4) { pixels.append(SIMD4(floats[i], floats[i + 1], floats[i + 2], floats[i + 3])) }
        return PixelBuffer(extent: extent, pixels: pixels)
    }

    @Test("the references are present")
    func present() {
        #expect((Self.index?.cases.count ?? 0) >= 28)
        #expect(Self.index?.cases.filter { $0.filter == "SepiaFilmGrain" }.count == 3)
    }

    @Test("filters match NumPy/SciPy within the stated tolerance", arguments: index?.cases ?? [])
    func reference(testCase: Index.Case) async throws {
        let index = try #require(Self.index)
        let input = try Self.load(index.input.file, extent: IntRect(x: 0, y: 0, width: index.input.width, height: index.input.height))
        let e = testCase.extent
        let expected = try Self.load(testCase.output, extent: IntRect(x: e[0], y: e[1], width: e[2], height: e[3]))
        let filter = try FilterRegistry.makeFilter(named: testCase.filter, parameters: testCase.parameters)
        let image = Image(pixels: input).applying(filter)
        #expect(image.extent == expected.extent)
        let actual = try await RenderContext(options: RenderOptions(threadCount: 2)).render(image, region: expected.extent)
        var worst: Float = 0, total: Float = 0
        for i in 0..<actual.pixels.count {
            let d = actual.pixels[i] - expected.pixels[i]
            let m = max(abs(d[0]), max(abs(d[1]), max(abs(d[2]), abs(d[3]))))
            worst = max(worst, m)
            total += m
        }
        let mean = total / Float(max(1, actual.pixels.count))
        #expect(worst <= testCase.maxError, "\(testCase.name): max error \(worst) > \(testCase.maxError)")
        #expect(mean <= testCase.meanError, "\(testCase.name): mean error \(mean) > \(testCase.meanError)")
    }
}
