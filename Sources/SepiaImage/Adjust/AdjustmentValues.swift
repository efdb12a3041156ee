import Foundation

/// Positions of the Adjust panel's sliders, by ``Adjustment/id``, and the recipe steps they make.
///
/// ```swift
/// var adjust = AdjustmentValues()
/// adjust["exposure"] = 0.3
/// adjust["warmth"] = 0.2
/// let recipe = EditRecipe(steps: adjust.steps)   // CIExposureAdjust, then CITemperatureAndTint
/// ```
public struct AdjustmentValues: Sendable, Hashable, Codable {
    /// Why a position cannot be set.
    public struct InvalidValue: Error, CustomStringConvertible, Sendable {
        /// A sentence naming the slider and the range.
        public let description: String
    }

    /// Positions by slider; a slider at 0 is left out.
    public private(set) var positions: [String: Double]

    /// No slider moved.
    public init() {
        positions = [:]
    }

    /// Positions by slider id, each checked: an unknown slider or a position outside its range is an error.
    public init(_ positions: [String: Double]) throws(InvalidValue) {
        self.positions = [:]
        for (id, position) in positions { try set(id, to: position) }
    }

    /// The position of slider `id` (0 when not moved). Setting clamps into the slider's range; an unknown
    /// slider is ignored. Use ``set(_:to:)`` to have those refused.
    public subscript(id: String) -> Double {
        get { positions[id] ?? 0 }
        set {
            guard let slider = Adjustment.named(id), newValue.isFinite else { return }
            let clamped = min(max(newValue, slider.minimum), slider.maximum)
            positions[id] = clamped == 0 ? nil : clamped
        }
    }

    /// Sets slider `id` to `position`, refusing an unknown slider or a position outside its range.
    public mutating func set(_ id: String, to position: Double) throws(InvalidValue) {
        guard let slider = Adjustment.named(id) else {
            let known = Adjustment.panel.map(\.id).joined(separator: ", ")
            throw InvalidValue(description: "there is no Adjust slider '\(id)'; the sliders are \(known)")
        }
        guard position.isFinite, position >= slider.minimum, position <= slider.maximum else {
            throw InvalidValue(
                description: "\(slider.name) (\(id)) goes from \(Self.format(slider.minimum)) to \(Self.format(slider.maximum)), not \(position)")
        }
        positions[id] = position == 0 ? nil : position
    }

    /// Whether every slider is at 0.
    public var isEmpty: Bool { positions.isEmpty }

    /// The steps, in the panel's order; sliders at 0 make none.
    public var steps: [EditRecipe.Step] {
        Adjustment.panel.compactMap { slider in positions[slider.id].flatMap { slider.step(at: $0) } }
    }

    /// Reads the Adjust steps at the start of `steps`: each must be a slider's step, in the panel's order. Returns
    /// the positions and how many steps they took; reading stops at the first step that is not the next
    /// slider's.
    public static func read(_ steps: some Collection<EditRecipe.Step>) -> (values: AdjustmentValues, count: Int) {
        var values = AdjustmentValues()
        var next = Adjustment.panel.startIndex
        var count = 0
        for step in steps {
            guard
                let index = Adjustment.panel[next...].firstIndex(where: { $0.position(of: step) != nil }),
                let position = Adjustment.panel[index].position(of: step)
            else { break }
            values.positions[Adjustment.panel[index].id] = position
            next = index + 1
            count += 1
        }
        return (values, count)
    }

    /// Parses `id=position` (`exposure=0.3`), as the command line's `--adjust` takes it.
    public static func parse(_ assignments: [String]) throws(InvalidValue) -> AdjustmentValues {
        var values = AdjustmentValues()
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let position = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw InvalidValue(description: "--adjust takes SLIDER=POSITION (exposure=0.3), not '\(assignment)'")
            }
            try values.set(parts[0].trimmingCharacters(in: .whitespaces), to: position)
        }
        return values
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
