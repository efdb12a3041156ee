extension EditRecipe {
    /// Checks, before any pixel is computed, that the render `rendering` makes from this recipe costs no more
    /// than `limit` allows, and returns its cost.
    ///
    /// `rendering` turns a recipe into the image a render would produce, as the caller will render it: the
    /// recipe applied to the photo (or scaled to a preview's copy of it) and fitted to the output. When the
    /// recipe costs too much, it is called again with shorter recipes (the first steps of this one) to find the
    /// step that adds the most, and with that step's distances (radii) lowered, to find the largest value that
    /// passes:
    ///
    /// ```swift
    /// try recipe.checkCost(limit: .default) { try $0.apply(to: photo) }
    /// // RecipeCostError: "… step 1 (CIGaussianBlur) adds the most; lower its inputRadius from 4544 to at most 640"
    /// ```
    ///
    /// - Throws: ``RecipeCostError`` naming the step and what to lower; whatever `rendering` throws.
    @discardableResult
    public func checkCost(limit: RenderCostLimit, rendering: (EditRecipe) throws -> Image) throws -> RenderCost {
        let cost = try rendering(self).estimatedCost()
        if limit.allows(cost) { return cost }
        let budget = limit.budget(forOutputPixels: cost.outputPixels)

        // The step whose addition raises the cost the most.
        var previous = try rendering(withSteps([])).estimatedCost().operations
        var blamed = 0
        var largestIncrease = -Double.infinity
        for index in steps.indices {
            let operations = index == steps.count - 1 ? cost.operations : try rendering(withSteps(Array(steps[...index]))).estimatedCost().operations
            let increase = operations - previous
            if increase > largestIncrease, !Self.isRAWDevelopment(steps[index]) {
                largestIncrease = increase
                blamed = index
            }
            previous = operations
        }
        let step = steps[blamed]
        let descriptor = FilterRegistry.type(named: step.filter)?.descriptor
        var error = RecipeCostError(
            cost: cost, budget: budget, stepIndex: blamed, filter: descriptor?.coreImageName ?? step.filter, stepCount: steps.count)

        // The distance of that step which, lowered, lets the recipe pass: the largest value that does.
        for parameter in descriptor?.parameters ?? [] where parameter.kind == .distance {
            let given = step.parameters.first { descriptor?.parameter(forKey: $0.key)?.coreImageKey == parameter.coreImageKey }
            guard let value = (given?.value ?? parameter.defaultValue).number, value > 0 else { continue }
            let lowest = max(0, parameter.minimum ?? 0)
            func passes(_ candidate: Double) throws -> Bool {
                var changed = step
                if let key = given?.key { changed.parameters[key] = nil }
                changed.parameters[parameter.coreImageKey] = .number(candidate)
                var recipe = self
                recipe.steps[blamed] = changed
                return limit.allows(try rendering(recipe).estimatedCost())
            }
            guard try passes(lowest) else { continue }
            var (low, high) = (lowest, value)
            for _ in 0..<24 where high - low > max(0.01, low * 0.001) {
                let middle = (low + high) / 2
                if try passes(middle) { low = middle } else { high = middle }
            }
            error.parameter = parameter.coreImageKey
            error.value = value
            error.largestAllowed = low >= 10 ? low.rounded(.down) : (low * 100).rounded(.down) / 100
            break
        }
        throw error
    }

    /// This recipe with other steps, of the oldest format version that holds them.
    private func withSteps(_ steps: [Step]) -> EditRecipe {
        EditRecipe(steps: steps)
    }
}
