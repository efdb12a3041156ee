import Foundation
import Hummingbird
import Logging
import SepiaLibrary

/// People, the faces the library found grouped into persons: `/api/v1/people`. The list (named first, then those in
/// the most photos), one person, naming, hiding and the key face, merging with a way back, where indexing is and the
/// library's switch for faces. A person's photos are `GET /api/v1/assets?person={id}`; faces are in
/// ``FaceController``.
///
/// Credentials limited to albums see no people (404, as if the library had none); share links never do.
/// Changes that move faces between people (a merge here, a face assigned or taken in ``FaceController``) answer
/// with an undo token (``PeopleUndoToken``) that `POST /people/undo` takes back, answering the token of the redo.
struct PeopleController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
            .get("status", use: status)
            .get(":id", use: get)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .patch(":id", use: update)
            .post(":id/merge", use: merge)
            .post("undo", use: undo)
            .put("settings", use: settings)
        return routes
    }

    /// The longest name a person can be given through the API, in characters.
    static let maximumNameLength = 64

    struct PeopleList: ResponseEncodable {
        var people: [PersonResponse]
    }

    struct UpdateRequest: Decodable {
        /// Absent: unchanged; `.some(nil)`: the name taken away.
        var name: String??
        var isHidden: Bool?
        var keyFaceID: String?

        enum CodingKeys: String, CodingKey { case name, isHidden, keyFaceID }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.name) {
                name = .some(try c.decodeNil(forKey: .name) ? nil : try c.decode(String.self, forKey: .name))
            }
            isHidden = try c.decodeIfPresent(Bool.self, forKey: .isHidden)
            keyFaceID = try c.decodeIfPresent(String.self, forKey: .keyFaceID)
        }
    }

    struct MergeRequest: Decodable {
        var people: [String]
    }

    struct Merged: ResponseEncodable {
        var person: PersonResponse
        var undo: String
    }

    struct UndoRequest: Decodable {
        var undo: String
    }

    struct Undone: ResponseEncodable {
        /// The way back again: the redo.
        var undo: String
    }

    struct SettingsRequest: Decodable {
        var enabled: Bool
    }

    /// Where indexing is: the library's ``FaceIndexStatus``, whether it finds faces, and whether this server
    /// cannot (its models missing or damaged).
    struct StatusResponse: ResponseEncodable {
        var status: FaceIndexStatus
        var enabled: Bool
        var modelsMissing: Bool

        enum CodingKeys: String, CodingKey { case enabled, modelsMissing }

        func encode(to encoder: any Encoder) throws {
            try status.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(modelsMissing, forKey: .modelsMissing)
        }
    }

    /// `GET /people`: the People view; `?hidden=true` lists hidden people too.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> PeopleList {
        let identity = try context.requireIdentity()
        try identity.requirePeople()
        let hidden = try Query(request: request).bool("hidden") ?? false
        let library = identity.photoLibrary
        return PeopleList(people: try PersonResponse.list(try library.people(includingHidden: hidden), in: library))
    }

    /// `GET /people/{id}`: one person, listed or not (hidden, or with too few faces yet).
    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> PersonResponse {
        let identity = try context.requireIdentity()
        let person = try identity.visiblePerson(try context.parameters.require("id"))
        return try PersonResponse.one(person, in: identity.photoLibrary)
    }

    /// `PATCH /people/{id}`: any of `name` (a string, or null to take it away), `isHidden` and `keyFaceID` (one
    /// of the person's faces).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> PersonResponse {
        let identity = try context.requireIdentity()
        let person = try identity.visiblePerson(try context.parameters.require("id"))
        let body = try await services.json.decode(UpdateRequest.self, from: request)
        guard body.name != nil || body.isHidden != nil || body.keyFaceID != nil else {
            throw APIError.unprocessable("give name, isHidden, keyFaceID or several")
        }
        let name = try body.name.map { try $0.map(Self.validName) }
        if let keyFaceID = body.keyFaceID, !Identifier.isValid(keyFaceID) {
            throw APIError.unprocessable("'keyFaceID' must be the identifier of one of the person's faces")
        }
        let library = identity.photoLibrary
        // What would refuse a change is looked at before anything changes.
        if let keyFaceID = body.keyFaceID, try library.faces(withIDs: [keyFaceID]).first?.personID != person.id {
            throw APIError.unprocessable("'keyFaceID' must be the identifier of one of the person's faces")
        }
        if case .some(.some(let name)) = name, let other = try library.person(named: name), other.id != person.id {
            throw APIError(.conflict, "conflict", "someone else is called '\(name)': merge them instead", detail: other.id)
        }
        do throws(LibraryError) {
            if let name { try library.renamePerson(person.id, to: name) }
            if let hidden = body.isHidden { try library.setPersonHidden(person.id, hidden) }
            if let keyFaceID = body.keyFaceID { try library.setKeyFace(keyFaceID, forPerson: person.id) }
        } catch {
            throw Self.apiError(error)
        }
        guard let updated = try library.people(withIDs: [person.id]).first else {
            // Unnamed and without faces: the person is gone.
            throw APIError.notFound("the person had no faces, and was deleted with their name")
        }
        return try PersonResponse.one(updated, in: library)
    }

    /// `POST /people/{id}/merge`: the people of `{"people": [ids]}` become this one, as one change; answers the
    /// person and the undo token.
    @Sendable func merge(_ request: Request, context: AppRequestContext) async throws -> Merged {
        let identity = try context.requireIdentity()
        let target = try identity.visiblePerson(try context.parameters.require("id"))
        let body = try await services.json.decode(MergeRequest.self, from: request)
        guard !body.people.isEmpty, body.people.count <= 1000 else {
            throw APIError.unprocessable("'people' must list from 1 to 1000 people to merge into this one")
        }
        for id in body.people where !Identifier.isValid(id) { throw Identity.noPerson(id) }
        let library = identity.photoLibrary
        let undo: PeopleUndo
        do throws(LibraryError) {
            undo = try library.mergePeople(body.people, into: target.id)
        } catch {
            throw Self.apiError(error)
        }
        return Merged(
            person: try PersonResponse.one(try library.person(target.id), in: library), undo: try Self.token(for: identity, services).seal(undo))
    }

    /// `POST /people/undo`: takes back the change an undo token was given for; answers the token that does it
    /// again. A token this deployment did not make for this library is refused (422) and nothing changes.
    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Undone {
        let identity = try context.requireIdentity()
        try identity.requirePeople()
        let body = try await services.json.decode(UndoRequest.self, from: request)
        let token = try Self.token(for: identity, services)
        guard let undo = token.open(body.undo) else {
            throw APIError.unprocessable("this undo token was not made for this library, or was changed; nothing was undone")
        }
        let redo: PeopleUndo
        do throws(LibraryError) {
            redo = try identity.photoLibrary.undo(undo)
        } catch {
            throw Self.apiError(error)
        }
        return Undone(undo: try token.seal(redo))
    }

    /// `GET /people/status`: how far indexing has come, whether the library finds faces, and whether this server
    /// has the models to.
    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> StatusResponse {
        let identity = try context.requireIdentity()
        try identity.requirePeople()
        return try statusResponse(identity.photoLibrary)
    }

    /// `PUT /people/settings`: `{"enabled": false}` turns faces off, deleting every face, person, name and "Not
    /// this person" at once; `true` turns them on again, and indexing starts over. Answers the status.
    @Sendable func settings(_ request: Request, context: AppRequestContext) async throws -> StatusResponse {
        let identity = try context.requireIdentity()
        try identity.requirePeople()
        let body = try await services.json.decode(SettingsRequest.self, from: request)
        let library = identity.photoLibrary
        if try library.findsFaces() != body.enabled {
            try library.setFindsFaces(body.enabled)
            context.logger.info(body.enabled ? "faces turned on" : "faces turned off: every face and person deleted")
        }
        if body.enabled { services.requestFaceIndexing(for: identity, logger: context.logger) }
        return try statusResponse(library)
    }

    private func statusResponse(_ library: PhotoLibrary) throws -> StatusResponse {
        StatusResponse(
            status: try library.faceIndexStatus(algorithm: FaceIndexing.algorithm), enabled: try library.findsFaces(),
            modelsMissing: services.faceModelsMissing)
    }

    /// A person's name from a request: trimmed, 1 to ``maximumNameLength`` characters, one line without control
    /// characters; 422 otherwise.
    static func validName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.unprocessable("a person's name cannot be empty; send null to take the name away") }
        guard trimmed.count <= maximumNameLength else {
            throw APIError.unprocessable("a person's name can have at most \(maximumNameLength) characters; this one has \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw APIError.unprocessable("a person's name must be one line without control characters")
        }
        return trimmed
    }

    /// The signer of `identity`'s library's undo tokens.
    static func token(for identity: Identity, _ services: ServerServices) throws -> PeopleUndoToken {
        PeopleUndoToken(key: try services.accounts.peopleUndoKey(), library: identity.user.id)
    }

    /// A library error of a change to people as the API answers it: a value the change cannot take is 422, a name
    /// someone else has is 409 (with that person's identifier as the detail: merge them instead).
    static func apiError(_ error: LibraryError) -> APIError {
        switch error.code {
        case .invalidRequest: .unprocessable(error.reason)
        case .duplicate: APIError(.conflict, "conflict", error.reason, detail: error.relatedID)
        case .notFound: .notFound(error.reason)
        default: APIError.from(error)
        }
    }
}
