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

/// A separable blur (box cascade or exact kernel) of an image, usually one clamped to its extent.
final class BlurRecipe: RecipeNode {
    let input: any RecipeNode
    let plan: BlurPlan

    init(input: any RecipeNode, plan: BlurPlan) {
        self.input = input
        self.plan = plan
    }

    var extent: IntRect {
        let e = input.extent
        if e.isInfinite || e.isEmpty { return e }
        let r = plan.reach
        return e.insetBy(dx: -r, dy: -r)
    }
    var isOpaque: Bool { input.isOpaque && input.extent.isInfinite }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : BlurRecipe(input: inputs[0], plan: plan)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        SeparableBlurRenderNode(input: inputs[0], plan: plan, extent: extent)
    }
}

/// A neighbourhood operation described by an ``AreaKernel``.
final class AreaRecipe: RecipeNode {
    let input: any RecipeNode
    let kernel: any AreaKernel
    let extent: IntRect

    init(input: any RecipeNode, kernel: any AreaKernel, extent: IntRect) {
        self.input = input
        self.kernel = kernel
        self.extent = extent
    }

    var isOpaque: Bool { input.isOpaque && kernel.preservesOpacity && input.extent.contains(extent) }
    var inputs: [any RecipeNode] { [input] }
    func replacingInputs(_ inputs: [any RecipeNode]) -> any RecipeNode {
        inputs[0] === input ? self : AreaRecipe(input: inputs[0], kernel: kernel, extent: extent)
    }
    func makeRenderNode(inputs: [RenderNode]) -> RenderNode {
        AreaRenderNode(input: inputs[0], kernel: kernel, extent: extent)
    }
}

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
