/// A recipe compiled for one render: render nodes in dependency order, the scratch each worker needs, and
/// the sources that stream rows.
final class RenderGraph: @unchecked Sendable {
    let root: RenderNode
    /// Every node, inputs before the nodes that read them.
    let nodes: [RenderNode]
    /// Worker-scratch slots needed by all nodes together.
    let scratchSlotCount: Int
    /// Sources that keep only a window of rows.
    let streamingSources: [SourceRenderNode]
    /// Every source node.
    let sources: [SourceRenderNode]
    /// Whether every pixel of the root's extent is opaque.
    let isOpaque: Bool

    /// Compiles `image`'s recipe.
    init(image: Image) {
        var optimizer = RecipeOptimizer()
        let recipe = optimizer.optimize(image.recipe)
        var built: [ObjectIdentifier: RenderNode] = [:]
        var retained: [any RecipeNode] = []
        var order: [RenderNode] = []
        var slots = 0

        func build(_ node: any RecipeNode) -> RenderNode {
            let id = ObjectIdentifier(node)
            if let existing = built[id] { return existing }
            let inputs = node.inputs.map(build)
            let rendered = node.makeRenderNode(inputs: inputs)
            rendered.firstScratchSlot = slots
            slots += rendered.scratchSlots
            built[id] = rendered
            retained.append(node)
            order.append(rendered)
            return rendered
        }

        isOpaque = recipe.isOpaque
        root = build(recipe)
        nodes = order
        scratchSlotCount = slots
        _ = retained

        // Propagate whether anything above a source reads out of order.
        var outOfOrder: [ObjectIdentifier: Bool] = [ObjectIdentifier(root): false]
        for node in order.reversed() {
            let demand = outOfOrder[ObjectIdentifier(node)] ?? false
            for input in node.inputs {
                let id = ObjectIdentifier(input)
                outOfOrder[id] = (outOfOrder[id] ?? false) || demand || node.readsInputsOutOfOrder
            }
        }
        var streaming: [SourceRenderNode] = []
        var all: [SourceRenderNode] = []
        for node in order {
            guard let source = node as? SourceRenderNode else { continue }
            source.needsWholeFrame = outOfOrder[ObjectIdentifier(source)] ?? false
            all.append(source)
            if !source.needsWholeFrame { streaming.append(source) }
        }
        streamingSources = streaming
        sources = all

        // One budget for the blocks every node of the render keeps, however many rotations the recipe has.
        let kept = order.compactMap(\.renderedBlocks)
        for blocks in kept { blocks.limit(toBytes: RenderedBlocks.renderBudget / kept.count) }
    }

    /// The rectangle each node is asked for when the root renders `rect`.
    func regions(for rect: IntRect) -> [ObjectIdentifier: IntRect] {
        var requested: [ObjectIdentifier: IntRect] = [ObjectIdentifier(root): rect]
        for node in nodes.reversed() {
            guard let wanted = requested[ObjectIdentifier(node)] else { continue }
            let inside = wanted.intersection(node.extent)
            if inside.isEmpty || node.inputs.isEmpty { continue }
            for (input, region) in zip(node.inputs, node.inputRegions(for: inside)) {
                let id = ObjectIdentifier(input)
                requested[id] = (requested[id] ?? .zero).union(region)
            }
        }
        return requested
    }
}
