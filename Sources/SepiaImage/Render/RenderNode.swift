/// One step of a compiled recipe. A render node produces any requested rectangle of its output from its
/// inputs' pixels, and may be called by several workers at once.
///
/// Subclasses override ``render(into:scratch:)`` (called only for rectangles inside ``extent``),
/// ``inputRegions(for:)`` (the region of interest of each input) and, when they need scratch buffers,
/// ``scratchSlots``.
///
/// Sendable: render nodes are immutable after compilation; per-render mutable state is confined to
/// worker scratch or guarded by locks in the nodes that hold it.
class RenderNode: @unchecked Sendable {
    /// Where the node's output may differ from transparent black.
    let extent: IntRect
    /// The nodes this one reads.
    let inputs: [RenderNode]
    /// The first worker-scratch slot of this node, assigned by the compiler.
    var firstScratchSlot = 0

    init(extent: IntRect, inputs: [RenderNode]) {
        self.extent = extent
        self.inputs = inputs
    }

    /// The number of worker-scratch buffers ``render(into:scratch:)`` uses.
    var scratchSlots: Int { 0 }

    /// A strip height that suits this node; the renderer uses the largest preference in the graph (64 rows
    /// when no node has one) unless the options fix the tile height.
    var preferredTileHeight: Int? { nil }

    /// Whether the node reads its inputs in an order unrelated to its own rows (rotations, transposes),
    /// so a source under it must keep its whole frame.
    var readsInputsOutOfOrder: Bool { false }

    /// The blocks of its output the node keeps across the pieces of a render, if it keeps any: the render
    /// graph shares one budget among them (``RenderedBlocks/renderBudget``).
    var renderedBlocks: RenderedBlocks? { nil }

    /// The rectangle of each input needed to produce `rect` (which lies inside ``extent``).
    func inputRegions(for rect: IntRect) -> [IntRect] {
        Array(repeating: rect, count: inputs.count)
    }

    // MARK: - Cost (RenderCost)

    /// Pixel operations of the node's own work per pixel it is asked for (its inputs' work is their own).
    var operationsPerPixel: Double { 1 }

    /// The height of the bands the node asks its inputs for, when it asks in bands rather than for each piece's
    /// whole region of interest at once; nil when it asks for the whole region.
    var inputRequestRows: Int? { nil }

    /// The node's own pixel operations when asked for `demand` (which lies inside ``extent``).
    func estimatedOperations(for demand: CostDemand) -> Double {
        demand.pixels * operationsPerPixel
    }

    /// What the node asks of each input when asked for `demand` (which lies inside ``extent``): each request's
    /// region of interest, as many times as requests are made.
    func inputDemands(for demand: CostDemand) -> [CostDemand] {
        let typical = inputRegions(for: demand.typicalPiece)
        let whole = inputRegions(for: demand.region)
        return inputs.indices.map { index in
            let piece = typical[index].intersection(inputs[index].extent)
            let rows = min(piece.height, inputRequestRows ?? piece.height)
            return CostDemand(
                region: whole[index], pixels: demand.requests * CostDemand.area(piece),
                piece: IntSize(width: max(0, piece.width), height: max(0, rows)))
        }
    }

    /// Fills `view` (which lies inside ``extent``).
    func render(into view: TileView, scratch: WorkerScratch) throws {
        preconditionFailure("\(type(of: self)) must override render(into:scratch:)")
    }

    /// Fills every pixel of `view`: transparent outside ``extent``, rendered inside.
    final func produce(into view: TileView, scratch: WorkerScratch) throws {
        let inside = view.rect.intersection(extent)
        if inside == view.rect {
            try render(into: view, scratch: scratch)
            return
        }
        view.fill(.zero, outside: inside)
        if !inside.isEmpty {
            try render(into: view.subview(inside), scratch: scratch)
        }
    }

    /// A scratch view for this node's `index`-th slot.
    final func scratchView(_ index: Int, _ rect: IntRect, _ scratch: WorkerScratch) -> TileView {
        scratch.view(slot: firstScratchSlot + index, rect: rect)
    }
}
