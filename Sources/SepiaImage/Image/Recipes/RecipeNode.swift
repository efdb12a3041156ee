/// One step of an image recipe. Recipe nodes are immutable, shared between images and threads, and
/// compiled into a ``RenderNode`` each time an image is rendered.
protocol RecipeNode: AnyObject, Sendable {
    /// Where the output may differ from transparent black.
    var extent: IntRect { get }
    /// Whether every pixel inside the extent is known to be opaque.
    var isOpaque: Bool { get }
    /// The recipes this step reads.
    var inputs: [any RecipeNode] { get }
    /// The same step reading other inputs (used by the optimiser).
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode
    /// Builds the render node, given the compiled inputs.
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode
}
