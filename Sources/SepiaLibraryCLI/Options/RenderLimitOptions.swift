import ArgumentParser
import SepiaImage
import SepiaServer

/// What `sepia serve` lets renders cost: each render's estimated work (checked before it starts), and how many
/// run and wait at once (docs/security.md, "Render costs and admission").
struct RenderLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("render-cost-per-pixel"),
        help: ArgumentHelp(
            "The most pixel operations a render may cost per output pixel; a recipe over it is refused with 422 naming its costliest step "
                + "(default \(Int(RenderCostLimit.default.operationsPerOutputPixel)); 0 for no limit).",
            valueName: "operations"))
    var costPerPixel: Double?

    @Option(
        name: .customLong("render-cost-minimum"),
        help: ArgumentHelp(
            "The pixel operations any render may cost, however small its output (default \(Int(RenderCostLimit.default.minimumOperations))).",
            valueName: "operations"))
    var costMinimum: Double?

    @Option(
        name: .customLong("max-renders"),
        help: ArgumentHelp("The most renders in flight on the server at once (default: twice the cores, at least 4).", valueName: "n"))
    var maximumRenders: Int?

    @Option(
        name: .customLong("max-renders-per-user"),
        help: ArgumentHelp(
            "The most renders in flight for one account; a share link's visitors count as one account of their own (default 2).", valueName: "n"))
    var maximumRendersPerUser: Int?

    @Option(
        name: .customLong("render-queue"),
        help: ArgumentHelp(
            "The most renders waiting for their turn, half of them for one account; past it, 503 with Retry-After (default 256).",
            valueName: "n"))
    var queueLength: Int?

    @Option(
        name: .customLong("render-queue-timeout"),
        help: ArgumentHelp("Seconds a render may wait for its turn before it is answered 503 with Retry-After (default 15).", valueName: "seconds"))
    var queueTimeout: Int?

    func validate() throws {
        if let costPerPixel, !(costPerPixel >= 0 && costPerPixel.isFinite) {
            throw ValidationError("--render-cost-per-pixel must be a number of operations, 0 for no limit")
        }
        if let costMinimum, !(costMinimum >= 0 && costMinimum.isFinite) {
            throw ValidationError("--render-cost-minimum must be a number of operations, such as 4e9")
        }
        if let maximumRenders, !(1...1024).contains(maximumRenders) { throw ValidationError("--max-renders must be from 1 to 1024") }
        if let maximumRendersPerUser, !(1...1024).contains(maximumRendersPerUser) {
            throw ValidationError("--max-renders-per-user must be from 1 to 1024")
        }
        if let queueLength, !(0...100_000).contains(queueLength) { throw ValidationError("--render-queue must be from 0 to 100000") }
        if let queueTimeout, !(1...3600).contains(queueTimeout) { throw ValidationError("--render-queue-timeout must be from 1 to 3600 seconds") }
    }

    /// Sets the options given into `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        if let costPerPixel {
            configuration.renderCostLimit =
                costPerPixel == 0
                ? .unlimited
                : RenderCostLimit(
                    operationsPerOutputPixel: costPerPixel, minimumOperations: costMinimum ?? configuration.renderCostLimit.minimumOperations)
        } else if let costMinimum {
            configuration.renderCostLimit.minimumOperations = costMinimum
        }
        if let maximumRenders { configuration.maximumRenders = maximumRenders }
        if let maximumRendersPerUser { configuration.maximumRendersPerUser = maximumRendersPerUser }
        if let queueLength { configuration.renderQueueLength = queueLength }
        if let queueTimeout { configuration.renderQueueTimeout = .seconds(queueTimeout) }
    }
}
