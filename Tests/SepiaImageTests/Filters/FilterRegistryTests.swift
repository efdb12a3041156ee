import SepiaImage
import Testing

@Suite struct FilterRegistryTests {
    @Test("filters are found by Core Image name and by Sepia name")
    func lookup() throws {
        #expect(FilterRegistry.type(named: "CISepiaTone") != nil)
        #expect(FilterRegistry.type(named: "SepiaTone") != nil)
        #expect(FilterRegistry.type(named: "CINope") == nil)
    }

    @Test("missing parameters take their defaults; keys may be Core Image's or Sepia's")
    func defaults() throws {
        let filter = try FilterRegistry.makeFilter(named: "CISepiaTone") as? SepiaTone
        #expect(filter?.intensity == 1)
        let half = try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: ["inputIntensity": .number(0.5)]) as? SepiaTone
        #expect(half?.intensity == 0.5)
        let short = try FilterRegistry.makeFilter(named: "SepiaTone", parameters: ["intensity": .number(0.25)]) as? SepiaTone
        #expect(short?.intensity == 0.25)
    }

    @Test("bad parameters are errors, never silently changed")
    func validation() {
        #expect(throws: FilterError.unknownFilter(name: "CIFoo")) { try FilterRegistry.makeFilter(named: "CIFoo") }
        #expect(throws: FilterError.parameterOutOfRange(filter: "CISepiaTone", key: "inputIntensity", value: 2, minimum: 0, maximum: 1)) {
            try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: ["inputIntensity": .number(2)])
        }
        #expect(throws: FilterError.notFinite(filter: "CISepiaTone", key: "inputIntensity")) {
            try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: ["inputIntensity": .number(.nan)])
        }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: ["inputRadius": .number(1)]) }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: ["inputIntensity": .string("lots")]) }
        #expect(throws: FilterError.self) { try FilterRegistry.makeFilter(named: "CIColorMatrix", parameters: ["inputRVector": .vector([1, 2])]) }
    }

    @Test("Instafilter's slider: intensity t, radius t×200, scale t×10, clamped")
    func slider() {
        let sepia = FilterRegistry.sliderParameters(for: SepiaTone.descriptor, intensity: 0.4)
        #expect(sepia == ["intensity": .number(0.4)])
        let matrix = FilterRegistry.sliderParameters(for: ColorMatrix.descriptor, intensity: 0.4)
        #expect(matrix.isEmpty)
    }

    @Test("programmatic initialisers clamp instead of trapping")
    func clamping() {
        #expect(SepiaTone(intensity: 7).intensity == 1)
        #expect(SepiaTone(intensity: -1).intensity == 0)
        #expect(SepiaTone(intensity: .nan).intensity == 0)
    }

    @Test("parameter values round-trip through the registry")
    func values() throws {
        let filter = SepiaTone(intensity: 0.3)
        let values = FilterRegistry.parameters(of: filter)
        let rebuilt = try FilterRegistry.makeFilter(named: "CISepiaTone", parameters: values) as? SepiaTone
        #expect(rebuilt == filter)
    }
}
