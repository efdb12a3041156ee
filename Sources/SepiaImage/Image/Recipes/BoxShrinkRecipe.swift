/// Averages blocks of whole pixels (inserted by the optimiser before large reductions).
final class BoxShrinkRecipe: RecipeNode {
    let input: any RecipeNode
    let factorX: Int
    let factorY: Int
    let extent: IntRect

    init(input: any RecipeNode, factorX: Int, factorY: Int) {
        self.input = input
        self.factorX = factorX
        self.factorY = factorY
        let e = input.extent
        extent = IntRect(
            x: e.minX / factorX, y: e.minY / factorY,
            width: (e.width + factorX - 1) / factorX, height: (e.height + factorY - 1) / factorY)
    }

    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : BoxShrinkRecipe(input: inputs[0], factorX: factorX, factorY: factorY)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        BoxShrinkRenderNode(input: inputs[0], factorX: factorX, factorY: factorY)
    }
}
