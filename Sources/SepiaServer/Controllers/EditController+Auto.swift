import Hummingbird
import SepiaImage

extension EditController {
    struct AutoAdjustRequest: Decodable {
        /// The edit Auto looks at: the photo's RAW development and geometry, before any adjustment.
        var recipe: EditRecipe?
    }

    struct AutoAdjustResponse: ResponseEncodable {
        /// Positions by Adjust slider (`GET /filters/adjustments`); sliders Auto leaves at 0 are left out.
        var adjustments: [String: Double]
        /// The steps those positions make, in the panel's order.
        var steps: [EditRecipe.Step]
    }

    /// `POST /assets/{id}/auto-adjust`: Auto's Adjust positions for the photo as `recipe` shows it, from the
    /// histogram of a 256-pixel proxy (``AutoAdjustment``). Nothing is saved.
    @Sendable func autoAdjust(_ request: Request, context: AppRequestContext) async throws -> AutoAdjustResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let body = try await services.json.decode(AutoAdjustRequest.self, from: request)
        let recipe = try validated(body.recipe ?? EditRecipe(steps: []))
        try await checkFits(recipe, on: asset, in: identity.library)
        let start = ContinuousClock.now
        let previews = identity.library.previews
        let values = try await services.renders.render(for: identity.user.id, context: context) {
            try await previews.autoAdjustment(of: asset, recipe: recipe)
        }
        services.metrics.recordRender("auto-adjust", duration: ContinuousClock.now - start)
        return AutoAdjustResponse(adjustments: values.positions, steps: values.steps)
    }
}
