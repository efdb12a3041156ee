import Foundation
import Hummingbird
import SepiaImage
import SepiaLibrary

/// Edit presets, each user's own (they live in the user's library): `/api/v1/presets`. A preset keeps the
/// look and adjustments of a recipe; the editor's strip shows them (`GET /assets/{id}/preset-strip`) and
/// applying one is an ordinary `PUT /assets/{id}/edit` of the photo's own geometry followed by the preset's
/// steps (``EditPreset/applied(to:)``).
struct PresetController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .post(use: create)
            .delete(":id", use: delete)
        return routes
    }

    /// A preset as the API shows it: `{"id", "name", "recipe", "creationDate", "modificationDate"}`.
    struct PresetResponse: ResponseEncodable {
        var preset: EditPreset

        init(_ preset: EditPreset) { self.preset = preset }

        func encode(to encoder: any Encoder) throws { try preset.encode(to: encoder) }
    }

    struct PresetList: ResponseEncodable {
        var presets: [PresetResponse]
    }

    struct CreateRequest: Decodable {
        var name: String
        var recipe: EditRecipe
        var replace: Bool?
    }

    /// `GET /presets`: the caller's presets, by name.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> PresetList {
        let identity = try context.requireIdentity()
        return PresetList(presets: try identity.photoLibrary.presets().map(PresetResponse.init))
    }

    /// `POST /presets`: saves the portable steps of a recipe under a name; 409 when the name is taken and
    /// `replace` is not true.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PresetResponse> {
        let identity = try context.requireIdentity()
        try Self.refuseAlbumLimited(identity)
        let body = try await services.json.decode(CreateRequest.self, from: request)
        let recipe = try EditController(services: services).validated(body.recipe)
        let preset: EditPreset
        do throws(LibraryError) {
            preset = try identity.photoLibrary.savePreset(named: body.name, recipe: recipe, replacing: body.replace == true)
        } catch {
            if error.code == .invalidRequest { throw APIError.unprocessable(error.description) }
            throw error
        }
        return EditedResponse(
            status: .created, headers: [.location: "/api/v1/presets/" + preset.id], response: PresetResponse(preset))
    }

    /// `DELETE /presets/{id}`.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        try Self.refuseAlbumLimited(identity)
        let id = try context.parameters.require("id")
        guard Identifier.isValid(id) else { throw APIError.notFound("you have no preset with this identifier") }
        do throws(LibraryError) {
            try identity.photoLibrary.deletePreset(id)
        } catch {
            if error.code == .notFound { throw APIError.notFound("you have no preset with this identifier") }
            throw error
        }
        return .noContent
    }

    /// Presets belong to the whole library, which a token limited to albums may not change (as it may not make
    /// albums); it may read and apply them.
    static func refuseAlbumLimited(_ identity: Identity) throws {
        if identity.albumLimit != nil {
            throw APIError.forbidden("this API token is limited to albums: it may apply presets but not save or delete them")
        }
    }
}
