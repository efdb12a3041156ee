/// A uniform colour with an infinite extent.
final class ColorRecipe: RecipeNode {
    let color: SIMD4<Float>

    init(color: SIMD4<Float>) {
        self.color = color
    }

    var extent: IntRect { color == .zero ? .zero : .infinite }
    var isOpaque: Bool { color[3] == 1 }
    var inputs: [any RecipeNode] { [] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode { self }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { ColorRenderNode(color: color, extent: extent) }
}
