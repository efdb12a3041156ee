import Foundation
import Hummingbird
import SepiaLibrary

/// A face as the API shows it: `{"id", "assetID", "boundingBox": {"x", "y", "width", "height"}, "confidence",
/// "personID", "personName", "state", "algorithm"}`, the person's fields `null` for a face that belongs to no one.
/// The box is normalised, with its origin at the top left of the asset as it is shown (its current version,
/// upright). The face print is never shown.
struct FaceResponse: ResponseEncodable {
    var face: Face
    var personName: String?

    init(_ face: Face, personName: String?) {
        self.face = face
        self.personName = personName
    }

    /// The faces with their people's names, read at once.
    static func list(_ faces: [Face], in library: PhotoLibrary) throws -> [FaceResponse] {
        let ids = Array(Set(faces.compactMap(\.personID)))
        let names = Dictionary(try library.people(withIDs: ids).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        return faces.map { FaceResponse($0, personName: $0.personID.flatMap { names[$0] ?? nil }) }
    }

    /// The face with its person's name.
    static func one(_ face: Face, in library: PhotoLibrary) throws -> FaceResponse {
        try list([face], in: library)[0]
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(face.id, forKey: .id)
        try c.encode(face.assetID, forKey: .assetID)
        try c.encode(face.boundingBox, forKey: .boundingBox)
        try c.encode(face.confidence, forKey: .confidence)
        try c.encode(face.personID, forKey: .personID)
        try c.encode(personName, forKey: .personName)
        try c.encode(face.state, forKey: .state)
        try c.encode(face.algorithm, forKey: .algorithm)
    }

    enum CodingKeys: String, CodingKey { case id, assetID, boundingBox, confidence, personID, personName, state, algorithm }
}

/// A person as the API shows it: the library's `Person` (`{"id", "name", "keyFaceID", "isHidden", "faceCount",
/// "assetCount", "creationDate"}`, `name` and `keyFaceID` `null` when there are none) and the face that shows
/// them, `"keyFace": {"id", "assetID", "boundingBox", "version"}` (its image is `GET /api/v1/faces/{id}/image`,
/// cached for good with `?v=` the version), or `null`.
struct PersonResponse: ResponseEncodable {
    var person: Person
    var keyFace: Face?
    /// The version of the key face's picture (``FaceCrop/version(of:in:)``).
    var keyFaceVersion: String?

    /// People with their key faces and the versions of their pictures, read at once.
    static func list(_ people: [Person], in library: PhotoLibrary) throws -> [PersonResponse] {
        let faces = try library.faces(withIDs: people.compactMap(\.keyFaceID))
        let byID = Dictionary(faces.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let assets = Dictionary(try library.assets(Array(Set(faces.map(\.assetID)))).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return people.map { person in
            let face = person.keyFaceID.flatMap { byID[$0] }
            let version = face.flatMap { face in assets[face.assetID].map { FaceCrop.version(of: face, in: $0) } }
            return PersonResponse(person: person, keyFace: face, keyFaceVersion: version)
        }
    }

    /// One person with their key face.
    static func one(_ person: Person, in library: PhotoLibrary) throws -> PersonResponse {
        try list([person], in: library)[0]
    }

    private struct KeyFace: Encodable {
        var id: String
        var assetID: String
        var boundingBox: FaceBox
        var version: String?
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(person.id, forKey: .id)
        try c.encode(person.name, forKey: .name)
        try c.encode(person.keyFaceID, forKey: .keyFaceID)
        try c.encode(person.isHidden, forKey: .isHidden)
        try c.encode(person.faceCount, forKey: .faceCount)
        try c.encode(person.assetCount, forKey: .assetCount)
        try c.encode(person.creationDate, forKey: .creationDate)
        try c.encode(
            keyFace.map { KeyFace(id: $0.id, assetID: $0.assetID, boundingBox: $0.boundingBox, version: keyFaceVersion) }, forKey: .keyFace)
    }

    enum CodingKeys: String, CodingKey { case id, name, keyFaceID, isHidden, faceCount, assetCount, creationDate, keyFace }
}
