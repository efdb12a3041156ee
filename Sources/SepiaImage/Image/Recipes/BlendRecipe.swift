/// Combines two images pixel by pixel. The extent is the first image's.
final class BlendRecipe: RecipeNode {
    let a: any RecipeNode
    let b: any RecipeNode
    let kernel: any BlendKernel

    init(a: any RecipeNode, b: any RecipeNode, kernel: any BlendKernel) {
        self.a = a
        self.b = b
        self.kernel = kernel
    }

    var extent: IntRect { a.extent }
    var isOpaque: Bool { a.isOpaque && kernel.preservesAlpha }
    var inputs: [any RecipeNode] { [a, b] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === a && inputs[1] === b ? self : BlendRecipe(a: inputs[0], b: inputs[1], kernel: kernel)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        BlendRenderNode(a: inputs[0], b: inputs[1], kernel: kernel)
    }
}
