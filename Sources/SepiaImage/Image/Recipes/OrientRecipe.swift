/// Applies an EXIF orientation.
final class OrientRecipe: RecipeNode {
    let input: any RecipeNode
    let orientation: Orientation
    let extent: IntRect

    init(input: any RecipeNode, orientation: Orientation) {
        self.input = input
        self.orientation = orientation
        let e = input.extent
        let size = orientation.displaySize(forStored: e.size)
        extent = IntRect(x: e.minX, y: e.minY, width: size.width, height: size.height)
    }

    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : OrientRecipe(input: inputs[0], orientation: orientation)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { OrientRenderNode(input: inputs[0], orientation: orientation) }
}
