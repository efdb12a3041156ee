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

    /// The rectangle of each input needed to produce `rect` (which lies inside ``extent``).
    func inputRegions(for rect: IntRect) -> [IntRect] {
        Array(repeating: rect, count: inputs.count)
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
