/// A neighbourhood operation described by an ``AreaKernel``.
final class AreaRecipe: RecipeNode {
    let input: any RecipeNode
    let kernel: any AreaKernel
    let extent: IntRect

    init(input: any RecipeNode, kernel: any AreaKernel, extent: IntRect) {
        self.input = input
        self.kernel = kernel
        self.extent = extent
    }

    var isOpaque: Bool { input.isOpaque && kernel.preservesOpacity && input.extent.contains(extent) }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : AreaRecipe(input: inputs[0], kernel: kernel, extent: extent)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        if let cells = kernel as? any CellMeanKernel {
            return CellMeanRenderNode(input: inputs[0], kernel: cells, extent: extent)
        }
        return AreaRenderNode(input: inputs[0], kernel: kernel, extent: extent)
    }
}
