/// A fused chain of per-pixel kernels.
final class PointRecipe: RecipeNode {
    let input: any RecipeNode
    let kernels: [any PointKernel]
    let isOpaque: Bool

    init(input: any RecipeNode, kernels: [any PointKernel]) {
        self.input = input
        self.kernels = kernels
        isOpaque = input.isOpaque && kernels.allSatisfy(\.preservesAlpha)
    }

    var extent: IntRect { input.extent }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : PointRecipe(input: inputs[0], kernels: kernels)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        PointRenderNode(input: inputs[0], kernels: kernels, inputIsOpaque: input.isOpaque)
    }
}
