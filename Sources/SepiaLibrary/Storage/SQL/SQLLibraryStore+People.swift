import Foundation
import Synchronization

/// The grouping as loaded, and the `faceGeneration` it reflects.
struct FaceGroupingCache: Sendable {
    var generation: Int64
    var clustering: FaceClustering
}

/// Who a face is assigned to.
enum PersonTarget: Sendable {
    /// An existing person.
    case person(id: String)
    /// The person of this name (case and accents folded), made if there is none.
    case named(String)
}

extension SQLLibraryStore {
    // MARK: - Reads

    static let faceColumns = """
        f.localIdentifier, a.localIdentifier, f.x, f.y, f.width, f.height, f.confidence, p.localIdentifier, f.state, f.algorithm
        """
    static let faceTables = "face f JOIN asset a ON a.rowID = f.assetRowID LEFT JOIN person p ON p.rowID = f.personRowID"

    static func face(from row: SQLRow) -> Face {
        let confidence: Double = row[6]
        return Face(
            id: row[0], assetID: row[1], boundingBox: FaceBox(x: row[2], y: row[3], width: row[4], height: row[5]),
            confidence: Float(confidence), personID: row[7], state: Face.State(storedValue: row[8]), algorithm: row[9])
    }

    /// A person's columns; the key face is the chosen one while it is still theirs, else their most confident
    /// confirmed face, else their most confident face (the newest of equals). That order is `face_byPerson`'s read
    /// backwards, the row identifier last, so the first entry is the one: ordered by the row identifier ascending
    /// instead, SQLite read and sorted every face of every person, 20 ms for a list of 300 people.
    static let personSelect = """
        SELECT p.rowID, p.localIdentifier, p.name, coalesce(k.localIdentifier,
            (SELECT b.localIdentifier FROM face b WHERE b.personRowID = p.rowID ORDER BY b.state DESC, b.confidence DESC, b.rowID DESC LIMIT 1)),
          p.isHidden, p.faceCount, p.assetCount, p.creationDate
        FROM person p LEFT JOIN face k ON k.rowID = p.keyFaceRowID AND k.personRowID = p.rowID
        """

    static func person(from row: SQLRow) -> Person {
        Person(
            id: row[1], name: row[2], keyFaceID: row[3], isHidden: row[4], faceCount: row[5], assetCount: row[6],
            creationDate: Date(timeIntervalSince1970: row[7]))
    }

    func faces(assetID: String) throws(LibraryError) -> [Face] {
        try read { db in
            try db.fetch("SELECT \(Self.faceColumns) FROM \(Self.faceTables) WHERE a.localIdentifier = ? ORDER BY f.x, f.y, f.rowID", [assetID])
                .map(Self.face(from:))
        }
    }

    func faces(assetIDs: [String]) throws(LibraryError) -> [Face] {
        guard !assetIDs.isEmpty else { return [] }
        return try read { db in
            try db.fetch(
                "SELECT \(Self.faceColumns) FROM \(Self.faceTables) WHERE \(db.dialect.inList("a.localIdentifier")) ORDER BY f.x, f.y, f.rowID",
                [SQLValue.texts(assetIDs)]
            ).map(Self.face(from:))
        }
    }

    func faces(ids: [String]) throws(LibraryError) -> [Face] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            try db.fetch(
                "SELECT \(Self.faceColumns) FROM \(Self.faceTables) WHERE \(db.dialect.inList("f.localIdentifier"))", [SQLValue.texts(ids)]
            ).map(Self.face(from:))
        }
    }

    func faces(personID: String) throws(LibraryError) -> [Face] {
        try read { db in
            try db.fetch(
                "SELECT \(Self.faceColumns) FROM \(Self.faceTables) WHERE p.localIdentifier = ? ORDER BY a.creationDate DESC, f.rowID",
                [personID]
            ).map(Self.face(from:))
        }
    }

    func unassignedFaces(after faceID: String?, limit: Int) throws(LibraryError) -> [Face] {
        try read { db in
            let after: Int64 = try faceID.flatMap { try db.value("SELECT rowID FROM face WHERE localIdentifier = ?", [$0]) } ?? 0
            return try db.fetch(
                "SELECT \(Self.faceColumns) FROM \(Self.faceTables) WHERE f.personRowID IS NULL AND f.rowID > ? ORDER BY f.rowID LIMIT ?",
                [after, limit]
            ).map(Self.face(from:))
        }
    }

    func people(minimumFaces: Int, includingHidden: Bool) throws(LibraryError) -> [Person] {
        try read { db in
            let hidden = includingHidden ? "" : " AND p.isHidden = FALSE"
            return try db.fetch(
                Self.personSelect + " WHERE (p.name IS NOT NULL OR p.faceCount >= ?)" + hidden
                    + " ORDER BY CASE WHEN p.name IS NULL THEN 1 ELSE 0 END, p.assetCount DESC, p.nameKey, p.rowID",
                [minimumFaces]
            ).map(Self.person(from:))
        }
    }

    func people(ids: [String]) throws(LibraryError) -> [Person] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            try db.fetch(Self.personSelect + " WHERE \(db.dialect.inList("p.localIdentifier"))", [SQLValue.texts(ids)]).map(Self.person(from:))
        }
    }

    func person(named name: String) throws(LibraryError) -> Person? {
        try read { db in try db.fetchOne(Self.personSelect + " WHERE p.nameKey = ?", [Person.nameKey(name)]).map(Self.person(from:)) }
    }

    /// Assets outside Recently Deleted that `algorithm` has not indexed (never indexed, indexed by an older
    /// version, or asked to be indexed again), after the asset with key `afterRowID`, in key order.
    func assetsNeedingFaceIndex(algorithm: Int, afterRowID: Int64, limit: Int) throws(LibraryError) -> [Asset] {
        try read { db in
            try db.fetch(
                """
                SELECT \(Self.assetColumns) FROM asset a LEFT JOIN faceIndex x ON x.assetRowID = a.rowID
                WHERE a.trashedDate IS NULL AND (x.assetRowID IS NULL OR x.algorithm < ?) AND a.rowID > ? ORDER BY a.rowID LIMIT ?
                """, [algorithm, afterRowID, limit]
            ).map(Self.asset(from:))
        }
    }

    func faceIndexStatus(algorithm: Int, minimumFaces: Int) throws(LibraryError) -> FaceIndexStatus {
        try read { db in
            FaceIndexStatus(
                algorithm: algorithm,
                indexedAssets: try db.value("SELECT count(*) FROM faceIndex WHERE algorithm >= ?", [algorithm]) ?? 0,
                assetsToIndex: try db.value(
                    """
                    SELECT count(*) FROM asset a LEFT JOIN faceIndex x ON x.assetRowID = a.rowID
                    WHERE a.trashedDate IS NULL AND (x.assetRowID IS NULL OR x.algorithm < ?)
                    """, [algorithm]) ?? 0,
                faces: try db.value("SELECT count(*) FROM face") ?? 0,
                unassignedFaces: try db.value("SELECT count(*) FROM face WHERE personRowID IS NULL") ?? 0,
                people: try db.value("SELECT count(*) FROM person WHERE name IS NOT NULL OR faceCount >= ?", [minimumFaces]) ?? 0,
                namedPeople: try db.value("SELECT count(*) FROM person WHERE name IS NOT NULL") ?? 0)
        }
    }

    /// Forgets that these assets were indexed, so that they are indexed again; their faces stay until then.
    func requestFaceIndexing(assetIDs: [String]) throws(LibraryError) {
        guard !assetIDs.isEmpty else { return }
        try write { db in
            _ = try db.execute(
                "DELETE FROM faceIndex WHERE assetRowID IN (SELECT rowID FROM asset WHERE \(db.dialect.inList("localIdentifier")))",
                [SQLValue.texts(assetIDs)])
        }
    }

    // MARK: - Recording and grouping

    /// Records the faces indexing found in each asset, replacing the asset's faces: a new face whose box
    /// overlaps an old one's with an intersection over union of at least 0.5 takes its place (its identifier,
    /// and the user's decisions about it: its confirmed person, its "Not this person" facts); the old faces
    /// left over are deleted. Then the faces not confirmed are grouped. Returns each asset's faces, as they are
    /// right after.
    func recordFaces(
        _ batch: [(assetID: String, faces: [DetectedFace])], algorithm: Int, grouping: FaceGroupingOptions, date: Date
    ) throws(LibraryError) -> [String: [Face]] {
        for entry in batch {
            for (number, face) in entry.faces.enumerated() { try FaceDescriptor.validate(face, number: number, of: entry.assetID) }
        }
        try withGrouping(grouping) { db, clustering, newPerson in
            // Faces found while the owner turned faces off are dropped, in the transaction that would record them.
            guard try Self.findsFaces(db) else { return }
            for entry in batch {
                guard let asset: Int64 = try db.value("SELECT rowID FROM asset WHERE localIdentifier = ?", [entry.assetID]) else {
                    throw LibraryError.notFound(asset: entry.assetID)
                }
                let placing = try Self.replaceFaces(of: asset, with: entry.faces, algorithm: algorithm, db: db, clustering: &clustering)
                try db.execute(
                    """
                    INSERT INTO faceIndex (assetRowID, algorithm, faceCount, indexedDate) VALUES (?, ?, ?, ?)
                    ON CONFLICT (assetRowID) DO UPDATE SET algorithm = excluded.algorithm, faceCount = excluded.faceCount,
                      indexedDate = excluded.indexedDate
                    """, [asset, algorithm, entry.faces.count, date.timeIntervalSince1970])
                try clustering.place(placing, newPerson: newPerson)
            }
        }
        var recorded: [String: [Face]] = [:]
        for entry in batch { recorded[entry.assetID] = [] }
        for face in try faces(assetIDs: Array(recorded.keys)) { recorded[face.assetID, default: []].append(face) }
        return recorded
    }

    /// Replaces the faces of `asset` with `faces` (see ``recordFaces(_:algorithm:grouping:date:)``) and returns
    /// the faces to group: the new ones and those found again that the grouping had placed.
    private static func replaceFaces(
        of asset: Int64, with faces: [DetectedFace], algorithm: Int, db: any SQLSession, clustering: inout FaceClustering
    ) throws -> [Int64] {
        let old = try db.fetch("SELECT rowID, x, y, width, height, state FROM face WHERE assetRowID = ? ORDER BY rowID", [asset]).map { row in
            (rowID: row[0] as Int64, box: FaceBox(x: row[1], y: row[2], width: row[3], height: row[4]), state: Face.State(storedValue: row[5]))
        }
        var pairs: [(overlap: Double, old: Int, new: Int)] = []
        for (oldIndex, face) in old.enumerated() {
            for (newIndex, found) in faces.enumerated() {
                let overlap = face.box.intersectionOverUnion(found.boundingBox)
                if overlap >= 0.5 { pairs.append((overlap, oldIndex, newIndex)) }
            }
        }
        pairs.sort { ($0.overlap, -$0.old, -$0.new) > ($1.overlap, -$1.old, -$1.new) }
        var matchOfNew: [Int: Int] = [:]
        var matchedOld: Set<Int> = []
        for pair in pairs where matchOfNew[pair.new] == nil && !matchedOld.contains(pair.old) {
            matchOfNew[pair.new] = pair.old
            matchedOld.insert(pair.old)
        }
        for (index, face) in old.enumerated() where !matchedOld.contains(index) {
            try db.execute("DELETE FROM face WHERE rowID = ?", [face.rowID])
            clustering.removeFace(face.rowID)
        }
        var placing: [Int64] = []
        for (index, found) in faces.enumerated() {
            let box = found.boundingBox
            let values: [any SQLBindable] = [
                box.x, box.y, box.width, box.height, Double(found.confidence), FaceDescriptor.encode(found.descriptor), algorithm,
            ]
            if let oldIndex = matchOfNew[index] {
                let face = old[oldIndex]
                try db.execute(
                    "UPDATE face SET x = ?, y = ?, width = ?, height = ?, confidence = ?, descriptor = ?, algorithm = ? WHERE rowID = ?",
                    values + [face.rowID])
                clustering.replaceDescriptor(of: face.rowID, with: found.descriptor, confidence: found.confidence)
                // What the grouping decided is decided again; what the user decided stays.
                if face.state == .grouped { clustering.assign(face.rowID, to: nil, state: .unassigned) }
                if face.state != .confirmed { placing.append(face.rowID) }
            } else {
                let rowID: Int64 =
                    try db.value(
                        """
                        INSERT INTO face (x, y, width, height, confidence, descriptor, algorithm, localIdentifier, assetRowID, state)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING rowID
                        """, values + [ChangeRequests.newIdentifier(), asset]) ?? 0
                clustering.insertFace(
                    FaceClustering.Entry(rowID: rowID, asset: asset, person: nil, state: .unassigned, confidence: found.confidence),
                    descriptor: found.descriptor)
                placing.append(rowID)
            }
        }
        return placing
    }

    /// Groups every face again (see ``FaceClustering/regroup(newPerson:)``).
    func regroupFaces(grouping: FaceGroupingOptions) throws(LibraryError) {
        try withGrouping(grouping) { db, clustering, newPerson in
            try clustering.regroup(newPerson: newPerson)
        }
    }

    /// Whether the library finds faces: `libraryInfo`'s `faces` is `off` when its owner turned them off.
    func findsFaces() throws(LibraryError) -> Bool {
        try read { db in try Self.findsFaces(db) }
    }

    static func findsFaces(_ db: any SQLSession) throws -> Bool {
        try db.value("SELECT value FROM libraryInfo WHERE key = 'faces'", as: String.self) != "off"
    }

    /// Turns finding faces on or off; off deletes every face, person, fact and index record in the same transaction.
    func setFindsFaces(_ on: Bool) throws(LibraryError) {
        if on {
            try write { db in try Self.setInfo(db, "faces", "on") }
        } else {
            try removeAllFaces(turningOff: true)
        }
    }

    /// Deletes every face, person, fact and index record.
    func removeAllFaces() throws(LibraryError) {
        try removeAllFaces(turningOff: false)
    }

    private func removeAllFaces(turningOff: Bool) throws(LibraryError) {
        try write { db in
            if turningOff { try Self.setInfo(db, "faces", "off") }
            let people = try db.fetch("SELECT rowID, localIdentifier FROM person ORDER BY rowID")
            try db.execute("DELETE FROM faceRejection")
            try db.execute("UPDATE person SET keyFaceRowID = NULL")
            try db.execute("DELETE FROM face")
            try db.execute("DELETE FROM person")
            try db.execute("DELETE FROM faceIndex")
            for row in people { try Self.log(db, entity: "person", rowID: row[0], identifier: row[1], operation: "delete") }
            try Self.bumpFaceGeneration(db)
        }
    }

    // MARK: - The grouping in memory

    /// Runs `body` in a write transaction with the grouping as the database has it (kept in memory between
    /// calls while no other write changed faces), and `newPerson`, which makes a person row; then keeps the
    /// grouping for the next call.
    func withGrouping<T>(
        _ options: FaceGroupingOptions,
        _ body: (any SQLSession, inout FaceClustering, () throws -> Int64) throws -> T
    ) throws(LibraryError) -> T {
        let cached = faceGroupingCache.withLock { cache in
            defer { cache = nil }
            return cache
        }
        let (value, kept) = try write { db -> (T, FaceGroupingCache) in
            let generation = try Self.faceGeneration(db)
            var clustering =
                if let cached, cached.generation == generation, cached.clustering.options == options {
                    cached.clustering
                } else {
                    try Self.loadGrouping(db, options: options)
                }
            let now = Date().timeIntervalSince1970
            var created: Set<Int64> = []
            let value = try body(db, &clustering) {
                let person: Int64 =
                    try db.value(
                        "INSERT INTO person (localIdentifier, creationDate) VALUES (?, ?) RETURNING rowID", [ChangeRequests.newIdentifier(), now]
                    ) ?? 0
                created.insert(person)
                return person
            }
            try Self.saveGrouping(&clustering, db: db, created: created)
            try Self.bumpFaceGeneration(db, from: generation)
            return (value, FaceGroupingCache(generation: generation + 1, clustering: clustering))
        }
        faceGroupingCache.withLock { cache in
            if cache == nil || (cache?.generation ?? 0) < kept.generation { cache = kept }
        }
        return value
    }

    /// The grouping as the database has it.
    static func loadGrouping(_ db: any SQLSession, options: FaceGroupingOptions) throws -> FaceClustering {
        var clustering = FaceClustering(options: options)
        for person in try db.keys("SELECT rowID FROM person", []) { clustering.addPerson(person) }
        for row in try db.fetch("SELECT rowID, assetRowID, personRowID, state, confidence, descriptor FROM face ORDER BY rowID") {
            var descriptor: [Float] = []
            descriptor.reserveCapacity(DetectedFace.descriptorLength)
            guard FaceDescriptor.decode(row[5], appendingTo: &descriptor) else { continue }
            let confidence: Double = row[4]
            clustering.insertFace(
                FaceClustering.Entry(
                    rowID: row[0], asset: row[1], person: row[2], state: Face.State(storedValue: row[3]), confidence: Float(confidence)),
                descriptor: descriptor, rebuildingGroup: false)
        }
        for row in try db.fetch("SELECT faceRowID, personRowID FROM faceRejection") { clustering.reject(row[0], from: row[1]) }
        clustering.rebuildAll()
        return clustering
    }

    /// Writes what the grouping changed: each face's person and state, then each person's counts (`created`: the
    /// people made in this transaction).
    static func saveGrouping(_ clustering: inout FaceClustering, db: any SQLSession, created: Set<Int64> = []) throws {
        let changes = clustering.takeChanges()
        for face in changes.faces {
            try db.execute("UPDATE face SET personRowID = ?, state = ? WHERE rowID = ?", [face.person, face.state.storedValue, face.rowID])
        }
        for person in try tidyPeople(db, changes.people, created: created) { clustering.removePerson(person) }
    }

    // MARK: - People's rows

    /// The number that every change to faces raises, so that a grouping kept in memory is known to be current.
    static func faceGeneration(_ db: any SQLSession) throws -> Int64 {
        try db.value("SELECT value FROM libraryInfo WHERE key = 'faceGeneration'") ?? 0
    }

    static func bumpFaceGeneration(_ db: any SQLSession, from generation: Int64? = nil) throws {
        let current = try generation ?? faceGeneration(db)
        try setInfo(db, "faceGeneration", String(current + 1))
    }

    /// Brings people whose faces changed up to date: their counts, a chosen key face that is no longer theirs
    /// forgotten; a person left without faces and without a name is deleted. Each is logged, as an insert when it
    /// is one of `created` (made in this transaction). Returns the people deleted.
    @discardableResult
    static func tidyPeople(_ db: any SQLSession, _ people: Set<Int64>, created: Set<Int64> = []) throws -> [Int64] {
        var deleted: [Int64] = []
        for person in people.union(created).sorted() {
            try db.execute(
                """
                UPDATE person SET faceCount = (SELECT count(*) FROM face WHERE personRowID = ?),
                  assetCount = (SELECT count(DISTINCT assetRowID) FROM face WHERE personRowID = ?),
                  keyFaceRowID = (SELECT rowID FROM face WHERE rowID = person.keyFaceRowID AND personRowID = ?)
                WHERE rowID = ?
                """, [person, person, person, person])
            guard let row = try db.fetchOne("SELECT localIdentifier, name, faceCount FROM person WHERE rowID = ?", [person]) else { continue }
            let identifier: String = row[0]
            let isNew = created.contains(person)
            if (row[1] as String?) == nil && (row[2] as Int) == 0 {
                try db.execute("DELETE FROM person WHERE rowID = ?", [person])
                deleted.append(person)
                if !isNew { try log(db, entity: "person", rowID: person, identifier: identifier, operation: "delete") }
            } else {
                try log(db, entity: "person", rowID: person, identifier: identifier, operation: isNew ? "insert" : "update")
            }
        }
        return deleted
    }

    /// The people with a face of this asset, before it is deleted for good (its faces go with it); nil when it
    /// has no faces.
    static func peopleBeforeRemovingFaces(ofAsset asset: Int64, db: any SQLSession) throws -> Set<Int64>? {
        let rows = try db.fetch("SELECT personRowID FROM face WHERE assetRowID = ?", [asset])
        guard !rows.isEmpty else { return nil }
        return Set(rows.compactMap { $0[0] as Int64? })
    }

    /// After an asset's faces went with it: its people brought up to date, and the grouping in memory known to be
    /// stale.
    static func facesRemoved(people: Set<Int64>, db: any SQLSession) throws {
        try tidyPeople(db, people)
        try bumpFaceGeneration(db)
    }
}
