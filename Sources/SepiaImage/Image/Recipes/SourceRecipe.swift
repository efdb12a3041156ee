/// A decodable source, possibly reduced while decoding (shrink-on-load).
final class SourceRecipe: RecipeNode {
    let source: any ImageSource
    let scale: Int
    let extent: IntRect

    init(source: any ImageSource, scale: Int = 1) {
        self.source = source
        self.scale = scale
        let size = source.reduction(scale: scale).size
        extent = IntRect(x: 0, y: 0, width: size.width, height: size.height)
    }

    var isOpaque: Bool { !source.hasAlpha }
    var inputs: [any RecipeNode] { [] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode { self }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        SourceRenderNode(source: source, scale: scale, extent: extent)
    }
}
