import SepiaImage

extension RenderAdmission {
    /// Runs the render a request asks for, for `account` (a user's id, or `share:` and a link's id): admitted
    /// within the limits, and in a task that is cancelled when the request's client goes away, whether the
    /// render still waits for its turn or is running (it stops after the tile in hand). Counts in `/metrics`
    /// the renders stopped so and those refused for their cost.
    func render<T: Sendable>(for account: String, context: AppRequestContext, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let departure = await ClientDepartureHandler.departure(of: context.channel)
        let admitted: @Sendable () async throws -> T = { try await self.run(account: account, work) }
        do {
            guard let departure else { return try await admitted() }
            return try await departure.cancellingWhenGone(admitted)
        } catch {
            if error is RecipeCostError { metrics.countRenderRefusal("cost") }
            if departure?.isGone == true, error is CancellationError || (error as? RenderError) == .cancelled {
                metrics.countRenderCancellation()
            }
            throw error
        }
    }
}
