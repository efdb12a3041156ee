/// A recipe whose render would cost more than the limit allows (``EditRecipe/checkCost(limit:rendering:)``):
/// the step that adds the most, and what to lower.
public struct RecipeCostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The render's estimated cost.
    public var cost: RenderCost
    /// The operations the limit allows this render.
    public var budget: Double
    /// The step that adds the most cost, counted from 0.
    public var stepIndex: Int
    /// Its filter, by Core Image name.
    public var filter: String
    /// The distance parameter (Core Image key) to lower, when lowering one is enough.
    public var parameter: String?
    /// That parameter's value.
    public var value: Double?
    /// The largest value of that parameter the limit allows.
    public var largestAllowed: Double?
    /// How many steps the recipe has.
    public var stepCount: Int

    /// Creates an error.
    public init(
        cost: RenderCost, budget: Double, stepIndex: Int, filter: String, parameter: String? = nil, value: Double? = nil,
        largestAllowed: Double? = nil, stepCount: Int
    ) {
        self.cost = cost
        self.budget = budget
        self.stepIndex = stepIndex
        self.filter = filter
        self.parameter = parameter
        self.value = value
        self.largestAllowed = largestAllowed
        self.stepCount = stepCount
    }

    /// A sentence naming the step, the parameter and what to do.
    public var description: String {
        let costs =
            "the recipe would cost \(cost.operations < 1e15 ? "about " : "")\(RenderCost.describe(cost.operations)) pixel operations to render, more than the "
            + "\(RenderCost.describe(budget)) this server allows for \(Self.megapixels(cost.outputPixels)) of output"
        let step = "step \(stepIndex + 1) (\(filter)) adds the most"
        if let parameter, let value, let largestAllowed {
            return "\(costs): \(step); lower its \(parameter) from \(Self.format(value)) to at most \(Self.format(largestAllowed))"
        }
        if stepIndex > 0 {
            return "\(costs): \(step); remove it, or some of the \(stepIndex) steps before it"
        }
        return "\(costs): \(step); remove it"
    }

    private static func megapixels(_ pixels: Double) -> String {
        guard pixels.isFinite else { return "an unbounded output" }
        if pixels < 10_000 { return "\(Int(pixels)) pixels" }
        return "\((pixels / 100_000).rounded() / 10) megapixels"
    }

    private static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 100).rounded(.down) / 100)
    }
}
