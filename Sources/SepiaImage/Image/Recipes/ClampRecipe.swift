/// Repeats the edge pixels to infinity.
final class ClampRecipe: RecipeNode {
    let input: any RecipeNode

    init(input: any RecipeNode) {
        self.input = input
    }

    var extent: IntRect { input.extent.isEmpty ? .zero : .infinite }
    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : ClampRecipe(input: inputs[0])
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { ClampRenderNode(input: inputs[0]) }
}
