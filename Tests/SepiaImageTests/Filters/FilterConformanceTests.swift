import Foundation
import SepiaImage
import Testing

/// One conformance suite run over every filter in the registry (swift-collections' conformance-checker style).
@Suite struct FilterConformanceTests {
    static let types: [any Filter.Type] = FilterRegistry.allTypes
    static let names = types.map { $0.descriptor.coreImageName }

    static func type(_ name: String) -> any Filter.Type { FilterRegistry.type(named: name)! }

    /// Translucent noise with a few exactly opaque pixels.
    static let input = Image(pixels: TestImages.translucentNoise(97, 61))
    static let opaqueInput = Image(pixels: TestImages.noise(97, 61))

    /// Parameter sets to exercise: defaults, every slider minimum, every slider maximum.
    static func parameterSets(_ d: FilterDescriptor) -> [[String: FilterValue]] {
        var low: [String: FilterValue] = [:], high: [String: FilterValue] = [:]
        // Counts (a colour cube's dimension) must match their data; they keep their defaults.
        for p in d.parameters where p.kind != .count {
            if let lo = p.sliderMinimum ?? p.minimum { low[p.key] = .number(lo) }
            if let hi = p.sliderMaximum ?? p.maximum { high[p.key] = .number(min(hi, 60)) }
        }
        return [[:], low, high]
    }

    /// Sepia's own filters, which Core Image does not have: named with Sepia's prefix instead of Core Image's.
    static let sepiaFilters: Set<String> = ["SepiaFilmGrain"]

    @Test("names: the type's name, Core Image's prefix (Sepia's for its own filters), unique")
    func naming() {
        for type in Self.types {
            let d = type.descriptor
            #expect(d.name == String(describing: type))
            #expect(d.coreImageName == (Self.sepiaFilters.contains(d.coreImageName) ? "Sepia" : "CI") + d.name)
            #expect(!Self.sepiaFilters.contains(d.coreImageName) || !d.categories.contains(.builtIn))
            #expect(!d.summary.isEmpty)
        }
        #expect(Set(Self.names).count == Self.names.count)
    }

    @Test("every filter under Sources/SepiaImage/Filters is registered")
    func registryIsComplete() throws {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/SepiaImage/Filters")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty)
        let pattern = /public struct (\w+): (?:Filter|PointFilter|PositionalPointFilter|PhotoEffect)\b/
        var declared: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: pattern) { declared.append(String(match.1)) }
        }
        let registered = Set(Self.types.map { String(describing: $0) })
        for name in declared { #expect(registered.contains(name), "\(name) is declared but not in FilterRegistry.allTypes") }
        #expect(declared.count == registered.count)
    }

    @Test("coding keys are the descriptor's keys, and values round-trip", arguments: names)
    func coding(name: String) throws {
        let type = Self.type(name)
        let filter = try FilterRegistry.makeFilter(named: name)
        let values = FilterRegistry.parameters(of: filter)
        #expect(Set(values.keys) == Set(type.descriptor.parameters.map(\.key)))
        let rebuilt = try FilterRegistry.makeFilter(named: name, parameters: values)
        #expect(FilterRegistry.parameters(of: rebuilt) == values)
        #expect(type.descriptor.inputKeys.first == "inputImage")
        #expect(type.descriptor.inputKeys.count == type.descriptor.parameters.count + 1)
    }

    @Test("tiles and threads do not change a bit, at defaults and slider extremes", arguments: names)
    func invariance(name: String) async throws {
        let reference = RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 10_000))
        let tiled = RenderContext(options: RenderOptions(threadCount: 3, tileHeight: 7, tileWidth: 13))
        let strips = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 1))
        for values in Self.parameterSets(Self.type(name).descriptor) {
            let filter = try FilterRegistry.makeFilter(named: name, parameters: values)
            let image = Self.input.applying(filter)
            guard !image.extent.isEmpty, !image.extent.isInfinite else { continue }
            let a = try await reference.render(image)
            expectPixels(try await tiled.render(image), equal: a)
            expectPixels(try await strips.render(image), equal: a)
        }
    }

    @Test("outputs stay finite at the parameters' extremes", arguments: names)
    func finite(name: String) async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let d = Self.type(name).descriptor
        var sets = Self.parameterSets(d)
        var hard: [String: FilterValue] = [:]
        for p in d.parameters where p.kind != .count {
            if let hi = p.maximum, hi < 1e6 { hard[p.key] = .number(hi) }
        }
        sets.append(hard)
        for values in sets {
            let filter = try FilterRegistry.makeFilter(named: name, parameters: values)
            let image = Self.input.applying(filter)
            guard !image.extent.isEmpty, !image.extent.isInfinite, image.extent.area < 4_000_000 else { continue }
            let out = try await context.render(image)
            #expect(out.pixels.allSatisfy { $0[0].isFinite && $0[1].isFinite && $0[2].isFinite && $0[3].isFinite }, "\(values)")
        }
    }

    /// Filters whose Core Image identity value does not leave the image unchanged.
    static let identityExceptions: Set<String> = [
        "CIEdges"  // intensity 0 shows no edges: a black image
    ]

    @Test("the identity values leave the image unchanged", arguments: names.filter { !identityExceptions.contains($0) })
    func identity(name: String) async throws {
        let d = Self.type(name).descriptor
        let keyed = d.parameters.filter { $0.identity != nil }
        guard !keyed.isEmpty else { return }
        var values: [String: FilterValue] = [:]
        for p in keyed { values[p.key] = p.identity }
        let filter = try FilterRegistry.makeFilter(named: name, parameters: values)
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let original = try await context.render(Self.opaqueInput)
        let out = try await context.render(Self.opaqueInput.applying(filter))
        // Posterize's identity (300 levels) still quantises, to steps finer than 8-bit output.
        let tolerance: Float = name == "CIColorPosterize" ? 5e-3 : 1e-4
        expectPixels(out, equal: original, tolerance: tolerance)
    }

    @Test("bad parameters are refused with a clear error", arguments: names)
    func badParameters(name: String) {
        let d = Self.type(name).descriptor
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: ["inputNoSuchKey": .number(1)]) }
        for p in d.parameters {
            switch p.kind {
            case .boolean:
                #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: [p.key: .string("yes")]) }
            case .scalar, .distance, .angle, .count:
                #expect(throws: FilterError.notFinite(filter: name, key: p.coreImageKey)) {
                    try FilterRegistry.makeFilter(named: name, parameters: [p.coreImageKey: .number(.nan)])
                }
                #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: [p.key: .vector([1, 2])]) }
                if let lo = p.minimum {
                    #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: [p.key: .number(lo - 1)]) }
                }
                if let hi = p.maximum {
                    #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: [p.key: .number(hi + 1)]) }
                }
            default:
                #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: name, parameters: [p.key: .string("red")]) }
                #expect(throws: FilterError.self) {
                    try FilterRegistry.makeFilter(named: name, parameters: [p.key: .vector([.infinity, 1, 1, 1, 1, 1])])
                }
            }
        }
    }

    @Test("applying a filter builds a recipe and computes nothing")
    func lazy() {
        struct Exploding: ImageSource {
            var pixelSize: IntSize { IntSize(width: 64, height: 64) }
            var hasAlpha: Bool { false }
            var decodeScales: [Int] { [1] }
            func makeDecoder(scale: Int) throws -> any RowDecoder {
                Issue.record("a decoder was created before any render")
                throw CancellationError()
            }
        }
        var image = Image(source: Exploding())
        for type in Self.types {
            image = image.applying(try! FilterRegistry.makeFilter(named: type.descriptor.coreImageName))
        }
        _ = image.extent
    }
}
