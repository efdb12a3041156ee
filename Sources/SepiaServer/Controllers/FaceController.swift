import Foundation
import Hummingbird
import NIOCore
import SepiaImage
import SepiaLibrary

/// Faces: those of a photo (`GET /api/v1/assets/{id}/faces`), the faces waiting for a name (`GET /api/v1/faces`),
/// a face's picture (`GET /api/v1/faces/{id}/image`), and saying whose face it is, or whose it is not
/// (`PUT` and `DELETE /api/v1/faces/{id}/person`), each with an undo token (``PeopleUndoToken``).
///
/// A face is seen by whoever sees its asset: a credential limited to albums sees the faces of its albums'
/// photos (404 for any other), with the names of their people, but not the list of faces waiting for a name, and
/// changes no face (403). Share links never show faces.
struct FaceController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get("assets/:id/faces", use: assetFaces)
            .get("faces", use: list)
            .get("faces/:id/image", use: image)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .put("faces/:id/person", use: assign)
            .delete("faces/:id/person", use: reject)
        return routes
    }

    struct FaceList: ResponseEncodable {
        var faces: [FaceResponse]
    }

    /// A page of faces: `nextAfter` is the `after` of the next page, null after the last.
    struct FacePage: ResponseEncodable {
        var faces: [FaceResponse]
        var nextAfter: String?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(faces, forKey: .faces)
            try c.encode(nextAfter, forKey: .nextAfter)
        }

        enum CodingKeys: String, CodingKey { case faces, nextAfter }
    }

    /// Whose a face is: an existing person, or a name (the person of that name, or a new one).
    struct AssignRequest: Decodable {
        var personID: String?
        var name: String?
    }

    struct Assigned: ResponseEncodable {
        var face: FaceResponse
        var person: PersonResponse
        var undo: String
    }

    struct Rejected: ResponseEncodable {
        var face: FaceResponse
        var undo: String
    }

    /// `GET /assets/{id}/faces`: the photo's faces, left to right, with their people's names.
    @Sendable func assetFaces(_ request: Request, context: AppRequestContext) async throws -> FaceList {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let library = identity.photoLibrary
        return FaceList(faces: try FaceResponse.list(try library.faces(in: asset.id), in: library))
    }

    /// `GET /faces?state=unassigned&after={id}&limit={n}`: the faces that belong to no one yet, in the order they
    /// were found (faces of photos in Recently Deleted left out), a page at a time.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> FacePage {
        let identity = try context.requireIdentity()
        try identity.requirePeople()
        let query = Query(request: request)
        _ = try query.oneOf("state", ["unassigned"])
        let limit = try query.int("limit", in: 1...500) ?? 100
        var after = try query.string("after", maximumLength: 64)
        if let after, !Identifier.isValid(after) { throw APIError.badRequest("'after' must be the identifier of a face") }
        let library = identity.photoLibrary
        var faces: [Face] = []
        var more = true
        // Faces of photos in Recently Deleted are skipped: a page is filled from the next ones.
        while faces.count < limit && more {
            let batch = try library.unassignedFaces(after: after, limit: limit + 1 - faces.count)
            more = batch.count > limit - faces.count
            let taken = batch.prefix(limit - faces.count)
            after = taken.last?.id ?? after
            let shown = Set(try library.assets(Array(Set(taken.map(\.assetID)))).filter { !$0.isRecentlyDeleted }.map(\.id))
            faces += taken.filter { shown.contains($0.assetID) }
            if taken.isEmpty { break }
        }
        return FacePage(faces: try FaceResponse.list(faces, in: library), nextAfter: more ? after : nil)
    }

    /// `GET /faces/{id}/image?size=N`: the face's picture, `N` (32 to 512, 160 by default) pixels square, as JPEG
    /// (``FaceCrop``), with a strong entity tag; cached for a year when `v` is the picture's version (the people
    /// list's `keyFace.version`, ``FaceCrop/version(of:in:)``) or its tag.
    @Sendable func image(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let (face, asset) = try identity.visibleFace(try context.parameters.require("id"))
        let query = Query(request: request)
        let size = try query.int("size", in: 32...512) ?? 160
        let tag = FaceCrop.tag(of: face, in: asset, size: size)
        var headers: HTTPFields = [
            .eTag: "\"" + tag + "\"",
            .cacheControl: try query.string("v", maximumLength: 64).map { $0 == tag || $0 == FaceCrop.version(of: face, in: asset) } == true
                ? "private, max-age=31536000, immutable" : "private, no-cache",
            .vary: "Cookie, Authorization",
        ]
        if RenditionController.matches(request, etag: tag) { return Response(status: .notModified, headers: headers) }
        let cacheKey = identity.user.id + "/" + tag
        if let cached = services.faceCrops.value(for: cacheKey) {
            headers[.contentType] = "image/jpeg"
            headers[.contentLength] = String(cached.data.count)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: cached.data)))
        }
        let start = ContinuousClock.now
        let images = identity.library.images
        let renderContext = services.libraries.renderContext
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .fast)
        let crop = try await services.renders.render(for: identity.user.id, context: context) {
            let preview: ImageResult
            if let cached = await images.cachedImage(for: asset, targetSize: FaceCrop.sourceSize, contentMode: .aspectFit, options: options) {
                preview = cached
            } else {
                preview = try await images.image(for: asset, targetSize: FaceCrop.sourceSize, contentMode: .aspectFit, options: options)
            }
            return try await FaceCrop.render(face.boundingBox, from: preview.rendition, size: size, context: renderContext)
        }
        services.metrics.recordRender("face", duration: ContinuousClock.now - start)
        services.faceCrops.insert(crop, for: cacheKey, cost: crop.data.count)
        headers[.contentType] = "image/jpeg"
        headers[.contentLength] = String(crop.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: crop.data)))
    }

    /// `PUT /faces/{id}/person`: `{"personID": id}` or `{"name": "Ana"}` (the person of that name, compared without
    /// case and accents, or a new one) says whose face this is; it is confirmed there. Answers the face, the
    /// person and the undo token.
    @Sendable func assign(_ request: Request, context: AppRequestContext) async throws -> Assigned {
        let identity = try context.requireIdentity()
        let (face, _) = try changeableFace(identity, context: context)
        let body = try await services.json.decode(AssignRequest.self, from: request)
        let library = identity.photoLibrary
        let undo: PeopleUndo
        switch (body.personID, body.name) {
        case (let personID?, nil):
            let person = try identity.visiblePerson(personID)
            undo = try Self.change { () throws(LibraryError) in try library.assignFace(face.id, toPerson: person.id) }
        case (nil, let name?):
            let name = try PeopleController.validName(name)
            undo = try Self.change { () throws(LibraryError) in try library.assignFace(face.id, toPersonNamed: name) }
        default:
            throw APIError.unprocessable("give either 'personID' (a person's identifier) or 'name' (an existing person's or a new one's)")
        }
        let assigned = try library.face(face.id)
        guard let personID = assigned.personID else { throw APIError.internalError("the face was assigned to no one") }
        return Assigned(
            face: try FaceResponse.one(assigned, in: library), person: try PersonResponse.one(try library.person(personID), in: library),
            undo: try PeopleController.token(for: identity, services).seal(undo))
    }

    /// `DELETE /faces/{id}/person`: "Not this person": the face leaves its person and never joins them again.
    /// Answers the face (unassigned) and the undo token; 409 for a face that belongs to no one.
    @Sendable func reject(_ request: Request, context: AppRequestContext) async throws -> Rejected {
        let identity = try context.requireIdentity()
        let (face, _) = try changeableFace(identity, context: context)
        guard face.personID != nil else { throw APIError.conflict("this face belongs to no one") }
        let library = identity.photoLibrary
        let undo = try Self.change { () throws(LibraryError) in try library.rejectFace(face.id) }
        return Rejected(
            face: try FaceResponse.one(try library.face(face.id), in: library), undo: try PeopleController.token(for: identity, services).seal(undo))
    }

    /// The face a request changes: one the credential sees (404 otherwise), by a credential that sees people (403
    /// for one limited to albums).
    private func changeableFace(_ identity: Identity, context: AppRequestContext) throws -> (face: Face, asset: Asset) {
        let found = try identity.visibleFace(try context.parameters.require("id"))
        guard identity.seesPeople else {
            throw APIError.forbidden("this API token is limited to albums: it may see faces but not say whose they are")
        }
        return found
    }

    private static func change<T>(_ body: () throws(LibraryError) -> T) throws -> T {
        do throws(LibraryError) {
            return try body()
        } catch {
            throw PeopleController.apiError(error)
        }
    }
}
