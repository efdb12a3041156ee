/// An affine transform of an image, sampled with a bicubic filter widened when shrinking.
final class AffineRecipe: RecipeNode {
    let input: any RecipeNode
    let transform: AffineMatrix
    let extent: IntRect

    init(input: any RecipeNode, transform: AffineMatrix) {
        self.input = input
        self.transform = transform
        extent = input.extent.isInfinite ? .infinite : transform.boundingBox(of: input.extent)
    }

    var isOpaque: Bool { false }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : AffineRecipe(input: inputs[0], transform: transform)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        AffineRenderNode(input: inputs[0], transform: transform, extent: extent)
    }
}
