/// One step of an image recipe. Recipe nodes are immutable, shared between images and threads, and
/// compiled into a ``RenderNode`` each time an image is rendered.
protocol RecipeNode: AnyObject, Sendable {
    /// Where the output may differ from transparent black.
    var extent: IntRect { get }
    /// Whether every pixel inside the extent is known to be opaque.
    var isOpaque: Bool { get }
    /// The recipes this step reads.
    var inputs: [any RecipeNode] { get }
    /// The same step reading other inputs (used by the optimiser).
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode
    /// Builds the render node, given the compiled inputs.
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode
}

/// A decodable source, possibly reduced while decoding (shrink-on-load).
final class SourceRecipe: RecipeNode {
    let source: any ImageSource
    let scale: Int
    let extent: IntRect

    init(source: any ImageSource, scale: Int = 1) {
        self.source = source
        self.scale = scale
        let size = source.pixelSize
        extent = IntRect(x: 0, y: 0, width: (size.width + scale - 1) / scale, height: (size.height + scale - 1) / scale)
    }

    var isOpaque: Bool { !source.hasAlpha }
    var inputs: [any RecipeNode] { [] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode { self }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        SourceRenderNode(source: source, scale: scale, extent: extent)
    }
}

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

/// A fused chain of per-pixel kernels.
final class PointRecipe: RecipeNode {
    let input: any RecipeNode
    let kernels: [any PointKernel]
    let isOpaque: Bool

    init(input: any RecipeNode, kernels: [any PointKernel]) {
        self.input = input
        self.kernels = kernels
        isOpaque = input.isOpaque && kernels.allSatisfy(\.preservesAlpha)
    }

    var extent: IntRect { input.extent }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : PointRecipe(input: inputs[0], kernels: kernels)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        PointRenderNode(input: inputs[0], kernels: kernels, inputIsOpaque: input.isOpaque)
    }
}

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

/// Repeats the edge pixels to infinity.
final class ClampRecipe: RecipeNode {
    let input: any RecipeNode

    init(input: any RecipeNode) {
        self.input = input
    }

    var extent: IntRect { input.extent.isEmpty ? .zero : .infinite }
    var isOpaque: Bool { input.isOpaque }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : ClampRecipe(input: inputs[0])
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode { ClampRenderNode(input: inputs[0]) }
}

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
