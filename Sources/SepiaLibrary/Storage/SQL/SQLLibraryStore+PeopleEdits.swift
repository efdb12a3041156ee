import Foundation

/// The user's decisions about faces and people: each one transaction, each a fact every later grouping obeys,
/// and those that move faces undoable (``PeopleUndo``).
extension SQLLibraryStore {
    /// A face's row: its key, asset and person.
    private static func faceRow(_ id: String, db: any SQLSession) throws -> (rowID: Int64, asset: Int64, person: Int64?, state: Face.State) {
        guard let row = try db.fetchOne("SELECT rowID, assetRowID, personRowID, state FROM face WHERE localIdentifier = ?", [id]) else {
            throw LibraryError(.notFound, "no face has this identifier", subject: id)
        }
        return (row[0], row[1], row[2], Face.State(storedValue: row[3]))
    }

    private static func personRow(_ id: String, db: any SQLSession) throws -> Int64 {
        guard let rowID: Int64 = try db.value("SELECT rowID FROM person WHERE localIdentifier = ?", [id]) else {
            throw LibraryError(.notFound, "no person has this identifier", subject: id)
        }
        return rowID
    }

    /// Refuses `name` (already valid) when another person than `person` has it.
    private static func checkNameFree(_ name: String, for person: Int64?, db: any SQLSession) throws {
        guard let row = try db.fetchOne("SELECT rowID, localIdentifier, name FROM person WHERE nameKey = ?", [Person.nameKey(name)]),
            (row[0] as Int64) != person
        else { return }
        let existing: String = row[2]
        var error = LibraryError(
            .duplicate, "another person is called “\(existing)”; choose another name, or merge the two people", subject: name)
        error.relatedID = row[1]
        throw error
    }

    // MARK: - Faces

    /// Makes `id` the target's face, confirmed. A face of the same asset that the grouping gave the target leaves
    /// them (two faces of one photo are never one person) with a "Not this person" fact; one the user confirmed
    /// makes the change fail. An earlier "Not this person" about the face and the target is withdrawn.
    func assignFace(id: String, to target: PersonTarget, date: Date) throws(LibraryError) -> PeopleUndo {
        try write { db -> PeopleUndo in
            let face = try Self.faceRow(id, db: db)
            var person: Int64
            var created: String?
            switch target {
            case .person(let personID):
                person = try Self.personRow(personID, db: db)
            case .named(let given):
                let name = try Person.validName(given)
                if let existing: Int64 = try db.value("SELECT rowID FROM person WHERE nameKey = ?", [Person.nameKey(name)]) {
                    person = existing
                } else {
                    let identifier = ChangeRequests.newIdentifier()
                    person =
                        try db.value(
                            "INSERT INTO person (localIdentifier, name, nameKey, creationDate) VALUES (?, ?, ?, ?) RETURNING rowID",
                            [identifier, name, Person.nameKey(name), date.timeIntervalSince1970]) ?? 0
                    created = identifier
                }
            }
            var undo = try Self.captureUndo(db, faces: [face.rowID], people: Set([face.person, created == nil ? person : nil].compactMap { $0 }))
            if let created { undo.createdPeople = [created] }
            if let other = try db.fetchOne(
                "SELECT rowID, state FROM face WHERE assetRowID = ? AND personRowID = ? AND rowID <> ?", [face.asset, person, face.rowID])
            {
                guard Face.State(storedValue: other[1]) != .confirmed else {
                    throw LibraryError(
                        .invalidRequest, "this person's confirmed face is in the same photo; two faces of one photo cannot be one person",
                        subject: id)
                }
                try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE rowID = ?", [other[0] as Int64])
                try Self.addRejection(face: other[0], person: person, db: db)
            }
            try db.execute("DELETE FROM faceRejection WHERE faceRowID = ? AND personRowID = ?", [face.rowID, person])
            try db.execute("UPDATE face SET personRowID = ?, state = ? WHERE rowID = ?", [person, Face.State.confirmed.storedValue, face.rowID])
            try Self.tidyPeople(db, Set([face.person, person].compactMap { $0 }), created: created == nil ? [] : [person])
            try Self.bumpFaceGeneration(db)
            return undo
        }
    }

    /// "Not this person": the face leaves its person, unassigned, and never joins them again.
    func rejectFace(id: String) throws(LibraryError) -> PeopleUndo {
        try write { db -> PeopleUndo in
            let face = try Self.faceRow(id, db: db)
            guard let person = face.person else {
                throw LibraryError(.invalidRequest, "the face belongs to no one; there is no person to take it from", subject: id)
            }
            let undo = try Self.captureUndo(db, faces: [face.rowID], people: [person])
            try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE rowID = ?", [face.rowID])
            try Self.addRejection(face: face.rowID, person: person, db: db)
            try Self.tidyPeople(db, [person])
            try Self.bumpFaceGeneration(db)
            return undo
        }
    }

    private static func addRejection(face: Int64, person: Int64, db: any SQLSession) throws {
        try db.execute("INSERT INTO faceRejection (faceRowID, personRowID) VALUES (?, ?) ON CONFLICT DO NOTHING", [face, person])
    }

    // MARK: - People

    /// Merges `sources` into `target`: their faces become the target's, confirmed (the user said they are one
    /// person), and the facts about them carry over. Where a source and the target both have a face of one asset,
    /// the target keeps one (a confirmed face over one the grouping placed, else its own) and the other is
    /// unassigned and not the target's; a face the target was said not to be stays unassigned. The target keeps
    /// its name, hidden flag and key face, taking a source's when it has none. The sources are deleted.
    func mergePeople(_ sources: [String], into target: String) throws(LibraryError) -> PeopleUndo {
        try write { db -> PeopleUndo in
            let into = try Self.personRow(target, db: db)
            var from: [Int64] = []
            for id in sources where id != target {
                let row = try Self.personRow(id, db: db)
                if !from.contains(row) { from.append(row) }
            }
            guard !from.isEmpty else { throw LibraryError(.invalidRequest, "merging needs another person than the target", subject: target) }
            let undo = try Self.captureUndo(db, faces: [], people: Set(from + [into]))
            var targetFaces: [Int64: (face: Int64, state: Face.State)] = [:]
            for row in try db.fetch("SELECT assetRowID, rowID, state FROM face WHERE personRowID = ?", [into]) {
                targetFaces[row[0]] = (row[1], Face.State(storedValue: row[2]))
            }
            let notTarget = Set(try db.keys("SELECT faceRowID FROM faceRejection WHERE personRowID = ?", [into]))
            let targetRow = try db.fetchOne("SELECT name, keyFaceRowID FROM person WHERE rowID = ?", [into])
            var name: String? = targetRow.flatMap { $0[0] as String? }
            var keyFace: Int64? = targetRow.flatMap { $0[1] as Int64? }
            for source in from {
                let faces = try db.fetch(
                    "SELECT rowID, assetRowID, state FROM face WHERE personRowID = ? ORDER BY state DESC, confidence DESC, rowID", [source])
                for row in faces {
                    let face: Int64 = row[0]
                    let asset: Int64 = row[1]
                    let state = Face.State(storedValue: row[2])
                    if notTarget.contains(face) {
                        try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE rowID = ?", [face])
                    } else if let existing = targetFaces[asset] {
                        let (kept, dropped) = state == .confirmed && existing.state != .confirmed ? (face, existing.face) : (existing.face, face)
                        try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE rowID = ?", [dropped])
                        try Self.addRejection(face: dropped, person: into, db: db)
                        if kept == face {
                            try db.execute("UPDATE face SET personRowID = ?, state = 2 WHERE rowID = ?", [into, kept])
                            targetFaces[asset] = (kept, .confirmed)
                        }
                    } else {
                        try db.execute("UPDATE face SET personRowID = ?, state = 2 WHERE rowID = ?", [into, face])
                        targetFaces[asset] = (face, .confirmed)
                    }
                }
                // What the source was said not to be, the target is not either, unless the user confirmed it.
                for face in try db.keys("SELECT faceRowID FROM faceRejection WHERE personRowID = ?", [source]) {
                    if let row = try db.fetchOne("SELECT state FROM face WHERE rowID = ? AND personRowID = ?", [face, into]) {
                        if Face.State(storedValue: row[0]) == .confirmed { continue }
                        try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE rowID = ?", [face])
                        targetFaces = targetFaces.filter { $0.value.face != face }
                    }
                    try Self.addRejection(face: face, person: into, db: db)
                }
                let sourceRow = try db.fetchOne("SELECT localIdentifier, name, keyFaceRowID FROM person WHERE rowID = ?", [source])
                if name == nil { name = sourceRow.flatMap { $0[1] as String? } }
                if keyFace == nil, let chosen = sourceRow.flatMap({ $0[2] as Int64? }), targetFaces.values.contains(where: { $0.face == chosen }) {
                    keyFace = chosen
                }
                try db.execute("DELETE FROM person WHERE rowID = ?", [source])
                if let identifier = sourceRow.map({ $0[0] as String }) {
                    try Self.log(db, entity: "person", rowID: source, identifier: identifier, operation: "delete")
                }
            }
            try db.execute(
                "UPDATE person SET name = ?, nameKey = ?, keyFaceRowID = ? WHERE rowID = ?", [name, name.map(Person.nameKey), keyFace, into])
            try Self.tidyPeople(db, [into])
            try Self.bumpFaceGeneration(db)
            return undo
        }
    }

    /// Names a person, or takes their name away (nil); a person without a name or faces is deleted.
    func renamePerson(id: String, name: String?) throws(LibraryError) {
        let name = try name.map { name throws(LibraryError) in try Person.validName(name) }
        try write { db in
            let person = try Self.personRow(id, db: db)
            if let name { try Self.checkNameFree(name, for: person, db: db) }
            try db.execute("UPDATE person SET name = ?, nameKey = ? WHERE rowID = ?", [name, name.map(Person.nameKey), person])
            if try Self.tidyPeople(db, [person]).isEmpty == false { try Self.bumpFaceGeneration(db) }
        }
    }

    /// Hides a person from the People view, or shows them again.
    func setPersonHidden(id: String, _ hidden: Bool) throws(LibraryError) {
        try write { db in
            let person = try Self.personRow(id, db: db)
            try db.execute("UPDATE person SET isHidden = ? WHERE rowID = ?", [hidden, person])
            try Self.log(db, entity: "person", rowID: person, identifier: id, operation: "update")
        }
    }

    /// Makes one of a person's faces the one that shows them.
    func setKeyFace(personID: String, faceID: String) throws(LibraryError) {
        try write { db in
            let person = try Self.personRow(personID, db: db)
            let face = try Self.faceRow(faceID, db: db)
            guard face.person == person else {
                throw LibraryError(.invalidRequest, "the face is not this person's; only one of their faces can show them", subject: faceID)
            }
            try db.execute("UPDATE person SET keyFaceRowID = ? WHERE rowID = ?", [face.rowID, person])
            try Self.log(db, entity: "person", rowID: person, identifier: personID, operation: "update")
        }
    }

    // MARK: - Undo

    /// The state of these faces, of these people and all their faces, and the facts about any of them.
    static func captureUndo(_ db: any SQLSession, faces: Set<Int64>, people: Set<Int64>) throws -> PeopleUndo {
        var faces = faces
        if !people.isEmpty {
            faces.formUnion(
                try db.keys("SELECT rowID FROM face WHERE \(db.dialect.inList("personRowID"))", [SQLValue.integers(Array(people))]))
        }
        let faceList = SQLValue.integers(faces.sorted())
        let peopleList = SQLValue.integers(people.sorted())
        let assignments = try db.fetch(
            """
            SELECT f.localIdentifier, p.localIdentifier, f.state FROM face f LEFT JOIN person p ON p.rowID = f.personRowID
            WHERE \(db.dialect.inList("f.rowID")) ORDER BY f.rowID
            """, [faceList]
        ).map { row in PeopleUndo.FaceAssignment(face: row[0], person: row[1], state: Face.State(storedValue: row[2])) }
        let records = try db.fetch(
            """
            SELECT p.localIdentifier, p.name, k.localIdentifier, p.isHidden, p.creationDate FROM person p
            LEFT JOIN face k ON k.rowID = p.keyFaceRowID WHERE \(db.dialect.inList("p.rowID")) ORDER BY p.rowID
            """, [peopleList]
        ).map { row in PeopleUndo.PersonRecord(id: row[0], name: row[1], keyFace: row[2], isHidden: row[3], creationDate: row[4]) }
        let rejections = try db.fetch(
            """
            SELECT f.localIdentifier, p.localIdentifier FROM faceRejection r JOIN face f ON f.rowID = r.faceRowID
            JOIN person p ON p.rowID = r.personRowID
            WHERE \(db.dialect.inList("r.faceRowID")) OR \(db.dialect.inList("r.personRowID")) ORDER BY r.faceRowID, r.personRowID
            """, [faceList, peopleList]
        ).map { row in PeopleUndo.Rejection(face: row[0], person: row[1]) }
        return PeopleUndo(faces: assignments, people: records, createdPeople: [], rejections: rejections)
    }

    /// Puts back what `undo` holds (see ``PeopleUndo``) and returns the way back again.
    func undoPeopleChange(_ undo: PeopleUndo) throws(LibraryError) -> PeopleUndo {
        try write { db -> PeopleUndo in
            func faceKeys(_ ids: [String]) throws -> [String: Int64] {
                guard !ids.isEmpty else { return [:] }
                var keys: [String: Int64] = [:]
                for row in try db.fetch(
                    "SELECT localIdentifier, rowID FROM face WHERE \(db.dialect.inList("localIdentifier"))", [SQLValue.texts(ids)])
                {
                    keys[row[0]] = row[1]
                }
                return keys
            }
            func personKeys(_ ids: [String]) throws -> [String: Int64] {
                guard !ids.isEmpty else { return [:] }
                var keys: [String: Int64] = [:]
                for row in try db.fetch(
                    "SELECT localIdentifier, rowID FROM person WHERE \(db.dialect.inList("localIdentifier"))", [SQLValue.texts(ids)])
                {
                    keys[row[0]] = row[1]
                }
                return keys
            }
            let faces = try faceKeys(Array(Set(undo.faces.map(\.face) + undo.people.compactMap(\.keyFace) + undo.rejections.map(\.face))))
            var people = try personKeys(Array(Set(undo.people.map(\.id) + undo.createdPeople)))
            var redo = try Self.captureUndo(db, faces: Set(undo.faces.compactMap { faces[$0.face] }), people: Set(people.values))
            // The people whose faces this moves, to bring up to date afterwards.
            var touched = Set(people.values)
            if !faces.isEmpty {
                for row in try db.fetch(
                    "SELECT personRowID FROM face WHERE personRowID IS NOT NULL AND \(db.dialect.inList("rowID"))",
                    [SQLValue.integers(Array(faces.values))])
                {
                    touched.insert(row[0])
                }
            }
            // People the change made go; people it changed or deleted come back as they were.
            for id in undo.createdPeople {
                guard let person = people[id] else { continue }
                try db.execute("UPDATE face SET personRowID = NULL, state = 0 WHERE personRowID = ?", [person])
                try db.execute("DELETE FROM person WHERE rowID = ?", [person])
                try Self.log(db, entity: "person", rowID: person, identifier: id, operation: "delete")
                people[id] = nil
                touched.remove(person)
            }
            var recreated: Set<Int64> = []
            for record in undo.people {
                if let person = people[record.id] {
                    try db.execute("UPDATE person SET name = NULL, nameKey = NULL, isHidden = ? WHERE rowID = ?", [record.isHidden, person])
                } else {
                    let person: Int64 =
                        try db.value(
                            "INSERT INTO person (localIdentifier, isHidden, creationDate) VALUES (?, ?, ?) RETURNING rowID",
                            [record.id, record.isHidden, record.creationDate]) ?? 0
                    people[record.id] = person
                    recreated.insert(person)
                    redo.createdPeople.append(record.id)
                }
            }
            for record in undo.people {
                guard let person = people[record.id] else { continue }
                if let name = record.name { try Self.checkNameFree(name, for: person, db: db) }
                try db.execute(
                    "UPDATE person SET name = ?, nameKey = ? WHERE rowID = ?", [record.name, record.name.map(Person.nameKey), person])
            }
            for assignment in undo.faces {
                guard let face = faces[assignment.face] else { continue }
                let person = assignment.person.flatMap { people[$0] }
                try db.execute(
                    "UPDATE face SET personRowID = ?, state = ? WHERE rowID = ?",
                    [person, person == nil ? 0 : assignment.state.storedValue, face])
            }
            try db.execute(
                "DELETE FROM faceRejection WHERE \(db.dialect.inList("faceRowID")) OR \(db.dialect.inList("personRowID"))",
                [SQLValue.integers(undo.faces.compactMap { faces[$0.face] }), SQLValue.integers(Array(people.values))])
            for rejection in undo.rejections {
                guard let face = faces[rejection.face], let person = people[rejection.person] else { continue }
                try Self.addRejection(face: face, person: person, db: db)
            }
            for record in undo.people {
                guard let person = people[record.id] else { continue }
                try db.execute("UPDATE person SET keyFaceRowID = ? WHERE rowID = ?", [record.keyFace.flatMap { faces[$0] }, person])
            }
            try Self.tidyPeople(db, touched.union(people.values), created: recreated)
            try Self.bumpFaceGeneration(db)
            return redo
        }
    }
}
