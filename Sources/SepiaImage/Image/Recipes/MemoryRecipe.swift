/// Pixels in memory.
final class MemoryRecipe: RecipeNode {
    let buffer: PixelBuffer
    let isOpaque: Bool

    init(buffer: PixelBuffer) {
        self.buffer = buffer
        isOpaque = buffer.pixels.allSatisfy { $0[3] == 1 }
    }

    var extent: IntRect { buffer.extent }
    var inputs: [any RecipeNode] { [] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode { self }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { MemoryRenderNode(buffer: buffer) }
}
