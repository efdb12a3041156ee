import Foundation
import Hummingbird
import NIOCore
import SepiaCodecs
import SepiaImage
import SepiaLibrary

/// Non-destructive editing: the current edit and the history, saving and reverting, previews that are not
/// saved, Auto's values, and the filter strips: `/api/v1/assets/{id}/edit`, `/preview`, `/auto-adjust`, `/strip`, `/preset-strip`.
struct EditController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(":id/edit", use: history)
            .post(":id/preview", use: preview)
            .post(":id/auto-adjust", use: autoAdjust)
            .get(":id/strip", use: strip)
            .get(":id/preset-strip", use: presetStrip)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .put(":id/edit", use: save)
            .delete(":id/edit", use: revert)
        return routes
    }

    struct EditResponse: Encodable {
        var id: String
        var creationDate: Date
        var recipe: EditRecipe?
        var formatIdentifier: String
        var formatVersion: String
        var isCurrent: Bool

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(creationDate, forKey: .creationDate)
            try c.encode(recipe, forKey: .recipe)
            try c.encode(formatIdentifier, forKey: .formatIdentifier)
            try c.encode(formatVersion, forKey: .formatVersion)
            try c.encode(isCurrent, forKey: .isCurrent)
        }

        enum CodingKeys: String, CodingKey { case id, creationDate, recipe, formatIdentifier, formatVersion, isCurrent }
    }

    /// What a RAW photo's development starts from: the white balance it was shot with, and `CIRAWFilter`'s
    /// parameters, which the editor's RAW sliders set.
    struct RAWResponse: Encodable {
        var asShotNeutralTemperature: Double?
        var asShotNeutralTint: Double?
        var filter: FilterDescriptor

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(asShotNeutralTemperature, forKey: .asShotNeutralTemperature)
            try c.encode(asShotNeutralTint, forKey: .asShotNeutralTint)
            try c.encode(filter, forKey: .filter)
        }

        enum CodingKeys: String, CodingKey { case asShotNeutralTemperature, asShotNeutralTint, filter }
    }

    struct HistoryResponse: ResponseEncodable {
        var current: EditResponse?
        var history: [EditResponse]
        /// Present when edits apply to a RAW file (the photo is RAW, or shows the RAW of its pair).
        var raw: RAWResponse?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(current, forKey: .current)
            try c.encode(history, forKey: .history)
            try c.encode(raw, forKey: .raw)
        }

        enum CodingKeys: String, CodingKey { case current, history, raw }
    }

    struct PreviewRequest: Decodable {
        var recipe: EditRecipe
        var size: String?
        var format: String?
    }

    /// `GET /assets/{id}/edit`.
    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> HistoryResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let edits = try identity.photoLibrary.adjustments(of: asset).map { adjustment in
            EditResponse(
                id: adjustment.id, creationDate: adjustment.creationDate, recipe: try? adjustment.data.recipe(),
                formatIdentifier: adjustment.data.formatIdentifier, formatVersion: adjustment.data.formatVersion,
                isCurrent: adjustment.id == asset.currentAdjustmentID)
        }
        var raw: RAWResponse?
        if asset.mediaType == .image, let input = try? await identity.library.previews.editingInput(for: asset), input.isRAW {
            let neutral = input.asShotNeutral
            raw = RAWResponse(
                asShotNeutralTemperature: neutral.map { ($0.temperature).rounded() },
                asShotNeutralTint: neutral.map { ($0.tint * 10).rounded() / 10 },
                filter: RAWDevelopmentStep.descriptor)
        }
        return HistoryResponse(current: edits.first(where: \.isCurrent), history: edits, raw: raw)
    }

    /// `PUT /assets/{id}/edit`: saves a recipe as the photo's current version.
    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> AssetResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let recipe = try validated(try await services.json.decode(EditRecipe.self, from: request))
        try await checkFits(recipe, on: asset, in: identity.library)
        let start = ContinuousClock.now
        let library = identity.photoLibrary
        let edited = try await services.renders.render(for: identity.user.id, context: context) {
            try await library.edit(asset, recipe: recipe)
        }
        services.metrics.recordRender("edit", duration: ContinuousClock.now - start)
        // A crop or a rotation moves the faces: the edit has them found again in the new version, by the job.
        services.requestFaceIndexing(for: identity, logger: context.logger)
        return AssetResponse(edited, in: identity.photoLibrary)
    }

    /// `DELETE /assets/{id}/edit`: back to the original.
    @Sendable func revert(_ request: Request, context: AppRequestContext) async throws -> AssetResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let reverted = try await identity.photoLibrary.revert(asset)
        services.requestFaceIndexing(for: identity, logger: context.logger)
        return AssetResponse(reverted, in: identity.photoLibrary)
    }

    /// `POST /assets/{id}/preview`: a recipe rendered on the photo at a display size, not saved.
    @Sendable func preview(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let body = try await services.json.decode(PreviewRequest.self, from: request)
        let recipe = try validated(body.recipe)
        try await checkFits(recipe, on: asset, in: identity.library)
        let size = try RenditionRequest.parseSize(body.size, maximum: 2048) ?? IntSize(width: 1024, height: 1024)
        let format: ImageFormat
        switch body.format?.lowercased() {
        case nil, "jpeg", "jpg": format = .jpeg
        case "webp": format = .webp
        case let other?: throw APIError.badRequest("format '\(other)' is not one of jpeg, webp")
        }
        let start = ContinuousClock.now
        let previews = identity.library.previews
        let rendition = try await services.renders.render(for: identity.user.id, context: context) {
            try await previews.preview(of: asset, recipe: recipe, size: size, format: format)
        }
        services.metrics.recordRender("preview", duration: ContinuousClock.now - start)
        return Response(
            status: .ok,
            headers: [
                .contentType: format == .webp ? "image/webp" : "image/jpeg", .cacheControl: "no-store",
                .contentLength: String(rendition.data.count),
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: rendition.data)))
    }

    /// `GET /assets/{id}/strip?size=N`: every catalog entry on the photo, side by side.
    @Sendable func strip(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let tile = try Query(request: request).int("size", in: 32...512) ?? 160
        let start = ContinuousClock.now
        let steps = services.catalog.map { $0.step(intensity: $0.intensity) }
        let previews = identity.library.previews
        let rendition = try await services.renders.render(for: identity.user.id, context: context) {
            try await previews.strip(of: asset, steps: steps, tile: tile)
        }
        services.metrics.recordRender("strip", duration: ContinuousClock.now - start)
        var headers: HTTPFields = [
            .eTag: "\"" + rendition.contentTag + "\"", .cacheControl: "private, no-cache",
            .xSepiaStripCount: String(services.catalog.count),
        ]
        if RenditionController.matches(request, etag: rendition.contentTag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/jpeg"
        headers[.contentLength] = String(rendition.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: rendition.data)))
    }

    /// Checks that a recipe makes sense for this photo before anything is rendered: distances (radii, cell
    /// sizes) at most twice the photo's longer side (beyond that a blur or a pixellation has long stopped
    /// changing, and the work would only grow), and an output that has pixels and stays within the pixel limit.
    func checkFits(_ recipe: EditRecipe, on asset: Asset, in library: UserLibrary) async throws {
        let base = try await library.previews.baseImage(of: asset)
        let longSide = max(base.extent.width, base.extent.height)
        let limit = Double(max(1000, 2 * longSide))
        for step in recipe.steps {
            guard let descriptor = FilterRegistry.type(named: step.filter)?.descriptor else { continue }
            for (key, value) in step.parameters {
                guard let parameter = descriptor.parameter(forKey: key), parameter.kind == .distance, let number = value.number,
                    number > limit
                else { continue }
                throw APIError.unprocessable(
                    "\(descriptor.coreImageName).\(key) is \(number) pixels; on this \(base.extent.width)×\(base.extent.height) photo it can be at most \(Int(limit))"
                )
            }
        }
        let output = try recipe.apply(to: base).extent
        guard !output.isEmpty, !output.isInfinite else {
            throw APIError.unprocessable("the recipe leaves nothing to show: its crop is outside the photo")
        }
        let maximum = services.configuration.maximumPixels
        guard output.width * output.height <= maximum else {
            throw APIError.unprocessable(
                "the recipe makes a \(output.width)×\(output.height) image, more than the limit of \(maximum / 1_000_000) megapixels")
        }
    }

    /// Checks a recipe from a request: its format, its length, and every step against its filter.
    func validated(_ recipe: EditRecipe) throws -> EditRecipe {
        guard EditRecipe.canHandle(formatIdentifier: recipe.formatIdentifier, formatVersion: recipe.formatVersion) else {
            throw FilterError.unsupportedRecipe(formatIdentifier: recipe.formatIdentifier, formatVersion: recipe.formatVersion)
        }
        let limit = services.configuration.maximumRecipeSteps
        guard recipe.steps.count <= limit else {
            throw APIError.unprocessable("the recipe has \(recipe.steps.count) steps; at most \(limit) are allowed")
        }
        _ = try recipe.makeFilters()
        return recipe
    }
}
