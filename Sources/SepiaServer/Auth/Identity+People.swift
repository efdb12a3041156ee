import HTTPTypes
import SepiaLibrary

extension Identity {
    /// Whether the credential sees the library's people (the People view, names, the faces waiting for a name):
    /// every credential that reads the whole library. One limited to albums sees the faces of its albums' photos
    /// but no list of people, so that nothing tells it who else is in the library.
    var seesPeople: Bool { albumLimit == nil }

    /// Checks that the credential sees people; 404 otherwise, as if the library had none.
    func requirePeople() throws {
        guard seesPeople else { throw APIError.notFound("there are no people for this API token: it is limited to albums") }
    }

    /// The person with this identifier, for a credential that sees people; 404 otherwise.
    func visiblePerson(_ id: String) throws -> Person {
        try requirePeople()
        guard Identifier.isValid(id) else { throw Self.noPerson(id) }
        do {
            return try photoLibrary.person(id)
        } catch  where error.code == .notFound {
            throw Self.noPerson(id)
        }
    }

    /// The face with this identifier and its asset, if the credential sees the asset (``visibleAsset(_:)``); 404
    /// otherwise, as if there were no such face.
    func visibleFace(_ id: String) throws -> (face: Face, asset: Asset) {
        guard Identifier.isValid(id) else { throw Self.noFace(id) }
        let face: Face
        do {
            face = try photoLibrary.face(id)
        } catch  where error.code == .notFound {
            throw Self.noFace(id)
        }
        do {
            return (face, try visibleAsset(face.assetID))
        } catch let error as APIError where error.status == .notFound {
            throw Self.noFace(id)
        }
    }

    static func noPerson(_ id: String) -> APIError {
        .notFound("there is no person '\(id.prefix(64))' in this library")
    }

    static func noFace(_ id: String) -> APIError {
        .notFound("there is no face '\(id.prefix(64))' in this library")
    }
}
