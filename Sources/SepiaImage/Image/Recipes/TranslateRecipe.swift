/// Moves the image by whole pixels.
final class TranslateRecipe: RecipeNode {
    let input: any RecipeNode
    let dx: Int
    let dy: Int

    init(input: any RecipeNode, dx: Int, dy: Int) {
        self.input = input
        self.dx = dx
        self.dy = dy
    }

    var extent: IntRect { input.extent.offsetBy(dx: dx, dy: dy) }
    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : TranslateRecipe(input: inputs[0], dx: dx, dy: dy)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { TranslateRenderNode(input: inputs[0], dx: dx, dy: dy) }
}
