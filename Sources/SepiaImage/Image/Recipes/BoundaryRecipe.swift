/// Its input, unchanged: a mark that stops the point kernels after it from fusing with those before, so that
/// the kernels a filter adds can be told apart (``FilterAtIntensity``). Never rendered: the recipe built on it
/// is either taken apart or discarded.
final class BoundaryRecipe: RecipeNode {
    let input: any RecipeNode

    init(input: any RecipeNode) {
        self.input = input
    }

    var extent: IntRect { input.extent }
    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : BoundaryRecipe(input: inputs[0])
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        inputs[0]
    }
}
