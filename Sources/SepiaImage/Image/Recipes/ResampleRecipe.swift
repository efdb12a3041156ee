/// Resizes to an exact extent with Lanczos-3.
final class ResampleRecipe: RecipeNode {
    let input: any RecipeNode
    let extent: IntRect
    /// The input's exact size in its own pixels, when its last block is partial (set by the optimiser).
    let inputSpan: SIMD2<Double>?

    init(input: any RecipeNode, extent: IntRect, inputSpan: SIMD2<Double>? = nil) {
        self.input = input
        self.extent = extent
        self.inputSpan = inputSpan
    }

    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : ResampleRecipe(input: inputs[0], extent: extent, inputSpan: inputSpan)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        ResampleRenderNode(input: inputs[0], outputExtent: extent, inputSpan: inputSpan)
    }
}
