/// Keeps only the pixels inside a rectangle.
final class CropRecipe: RecipeNode {
    let input: any RecipeNode
    let rect: IntRect

    init(input: any RecipeNode, rect: IntRect) {
        self.input = input
        self.rect = rect
    }

    var extent: IntRect { input.extent.intersection(rect) }
    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : CropRecipe(input: inputs[0], rect: rect)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { CropRenderNode(input: inputs[0], rect: rect) }
}
