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
