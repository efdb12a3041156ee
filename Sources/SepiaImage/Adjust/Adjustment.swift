/// One slider of the editor's Adjust panel, as Photos lays it out (Exposure, Shadows, Warmth, …): a position
/// from ``minimum`` to ``maximum`` (0 leaves the photo alone) that becomes one recipe step of a Core Image
/// filter (Grain's is Sepia's own `SepiaFilmGrain`, which Core Image lacks).
///
/// Each direction of the slider has a ``Mapping``: a filter and, for each parameter it drives, the value at 0
/// and the value at the end of the slider; a position in between is the straight line between them,
/// `at0 + (at1 − at0) · |position|`. A recipe stays Core Image code (but for Grain), so Core Image renders it too, and the
/// slider's position is read back from the step (``position(of:)``): every slider drives its own filter or its
/// own set of keys, so a step names its slider.
///
/// The mappings are data, served to the web app by `GET /api/v1/adjustments`, so the browser and Swift build
/// the same steps.
public struct Adjustment: Sendable, Hashable, Codable, Identifiable {
    /// A group of sliders.
    public enum Section: String, Sendable, Hashable, Codable, CaseIterable {
        /// Exposure, Brilliance, Highlights, Shadows, Brightness, Contrast, Black Point.
        case light
        /// Saturation, Vibrance, Warmth, Tint.
        case color
        /// Intensity, Neutrals, Tone, Grain.
        case blackAndWhite
        /// Sharpness, Definition, Noise Reduction, Vignette.
        case detail

        /// The section's heading.
        public var title: String {
            switch self {
            case .light: "Light"
            case .color: "Color"
            case .blackAndWhite: "Black & White"
            case .detail: "Detail"
            }
        }
    }

    /// A parameter's values at the slider's rest and end.
    public struct Endpoints: Sendable, Hashable, Codable {
        /// The value at position 0.
        public var at0: FilterValue
        /// The value at the end of the slider (1, or −1 for the negative direction).
        public var at1: FilterValue

        /// Creates endpoints.
        public init(_ at0: FilterValue, _ at1: FilterValue) {
            self.at0 = at0
            self.at1 = at1
        }

        /// The value at `t` (0…1) along the line.
        func value(at t: Double) -> FilterValue {
            switch (at0, at1) {
            case (.number(let a), .number(let b)): .number(a + (b - a) * t)
            case (.vector(let a), .vector(let b)) where a.count == b.count: .vector(zip(a, b).map { a, b in a + (b - a) * t })
            default: at1
            }
        }
    }

    /// How one direction of the slider becomes a step.
    public struct Mapping: Sendable, Hashable, Codable {
        /// The Core Image filter.
        public var filter: String
        /// The parameters it drives, by Core Image key; others keep their defaults.
        public var parameters: [String: Endpoints]

        /// Creates a mapping.
        public init(filter: String, parameters: [String: Endpoints]) {
            self.filter = filter
            self.parameters = parameters
        }

        /// The step at `t` (0…1) along this direction.
        func step(at t: Double) -> EditRecipe.Step {
            EditRecipe.Step(filter: filter, parameters: parameters.mapValues { $0.value(at: t) })
        }

        /// Where along this direction `step` is (0…1), when it is this mapping's step.
        func position(of step: EditRecipe.Step) -> Double? {
            guard step.filter == filter, step.intensity == nil, Set(step.parameters.keys) == Set(parameters.keys) else { return nil }
            // The first component that moves tells the position; every parameter must then agree.
            var t: Double?
            for key in parameters.keys.sorted() {
                guard let ends = parameters[key], let a = ends.at0.numbers, let b = ends.at1.numbers,
                    let value = step.parameters[key]?.numbers, value.count == a.count
                else { return nil }
                if let index = a.indices.first(where: { abs(b[$0] - a[$0]) > 1e-12 }) {
                    t = (value[index] - a[index]) / (b[index] - a[index])
                    break
                }
            }
            guard let t, t >= -1e-6, t <= 1 + 1e-6 else { return nil }
            let clamped = min(max(t, 0), 1)
            let expected = self.step(at: clamped)
            for (key, value) in step.parameters {
                guard let want = expected.parameters[key]?.numbers, let have = value.numbers, want.count == have.count,
                    zip(want, have).allSatisfy({ abs($0 - $1) <= 1e-6 * max(1, abs($0)) })
                else { return nil }
            }
            return clamped
        }
    }

    /// The slider's identifier (`exposure`), used in the API, the command line and the web app.
    public var id: String
    /// The label (`Exposure`).
    public var name: String
    /// Its group.
    public var section: Section
    /// The lowest position: −1, or 0 for a slider that goes one way.
    public var minimum: Double
    /// The highest position, 1.
    public var maximum: Double { 1 }
    /// Positions above 0.
    public var positive: Mapping
    /// Positions below 0; nil when ``minimum`` is 0.
    public var negative: Mapping?

    /// Creates a slider that goes both ways.
    public init(_ id: String, _ name: String, _ section: Section, positive: Mapping, negative: Mapping) {
        self.id = id
        self.name = name
        self.section = section
        self.minimum = -1
        self.positive = positive
        self.negative = negative
    }

    /// Creates a slider from 0 to 1.
    public init(_ id: String, _ name: String, _ section: Section, _ mapping: Mapping) {
        self.id = id
        self.name = name
        self.section = section
        self.minimum = 0
        self.positive = mapping
        self.negative = nil
    }

    /// The step for `position`, clamped into the slider's range; nil at 0 (the photo is left alone).
    public func step(at position: Double) -> EditRecipe.Step? {
        guard position.isFinite else { return nil }
        let p = min(max(position, minimum), maximum)
        if p == 0 { return nil }
        if p > 0 { return positive.step(at: p) }
        return negative?.step(at: -p)
    }

    /// The slider's position that makes `step`, or nil when the step is not this slider's.
    public func position(of step: EditRecipe.Step) -> Double? {
        if let t = positive.position(of: step) { return t }
        if let negative, let t = negative.position(of: step) { return -t }
        return nil
    }
}
