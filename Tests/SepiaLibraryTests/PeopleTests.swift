import Foundation
import Synchronization
import Testing

@testable import SepiaLibrary

/// People in a library: faces recorded and grouped, people listed and named, the user's decisions kept through
/// every recording and regrouping, merges and "Not this person" undone exactly; on SQLite, and on PostgreSQL when
/// the suites run there.
@Suite struct PeopleTests {
    /// Records one face per person in `people` in the asset, left to right.
    @discardableResult
    static func record(
        _ library: PhotoLibrary, _ asset: String, _ people: [Int], prints: inout SyntheticFaces, algorithm: Int = 1,
        truth: inout [String: Int]
    ) throws -> [Face] {
        let detected = people.enumerated().map { prints.detected($0.element, slot: $0.offset) }
        let faces = try library.recordFaces(detected, for: asset, algorithm: algorithm)
        for (face, person) in zip(faces, people) { truth[face.id] = person }
        return faces
    }

    /// Everything the library keeps about faces and people, read from its rows: what an undo must restore.
    struct Stored: Equatable {
        var faces: [String: String]
        var people: [String: String]
        var rejections: Set<String>
    }

    static func stored(_ library: PhotoLibrary) throws -> Stored {
        let store = try #require(library.store as? SQLLibraryStore)
        return try store.read { db in
            var faces: [String: String] = [:]
            for row in try db.fetch(
                "SELECT f.localIdentifier, p.localIdentifier, f.state FROM face f LEFT JOIN person p ON p.rowID = f.personRowID")
            {
                faces[row[0]] = "\(row[1] as String? ?? "-") \(row[2] as Int)"
            }
            var people: [String: String] = [:]
            for row in try db.fetch(
                """
                SELECT p.localIdentifier, p.name, k.localIdentifier, p.isHidden, p.faceCount, p.assetCount, p.creationDate
                FROM person p LEFT JOIN face k ON k.rowID = p.keyFaceRowID
                """)
            {
                let created: Double = row[6]
                people[row[0]] =
                    "\(row[1] as String? ?? "-") \(row[2] as String? ?? "-") \(row[3] as Bool) \(row[4] as Int) \(row[5] as Int) \(created)"
            }
            let rejections = Set(
                try db.fetch(
                    """
                    SELECT f.localIdentifier, p.localIdentifier FROM faceRejection r JOIN face f ON f.rowID = r.faceRowID
                    JOIN person p ON p.rowID = r.personRowID
                    """
                ).map { "\($0[0] as String) \($0[1] as String)" })
            return Stored(faces: faces, people: people, rejections: rejections)
        }
    }

    /// The identities of each listed person's faces.
    static func composition(_ library: PhotoLibrary, truth: [String: Int]) throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for person in try library.people(includingHidden: true) {
            result[person.id] = try library.faces(of: person.id).map { truth[$0.id] ?? -1 }.sorted()
        }
        return result
    }

    /// The grouping this process keeps in memory, when it is current, equals the one the database gives; it
    /// must be current after a recording or a regrouping, and is reloaded after any other change to faces.
    static func expectCacheMatchesDatabase(_ library: PhotoLibrary, mustBeCurrent: Bool = true) throws {
        let store = try #require(library.store as? SQLLibraryStore)
        let cached = store.faceGroupingCache.withLock { $0 }
        let (generation, loaded) = try store.read { db in
            (try SQLLibraryStore.faceGeneration(db), try SQLLibraryStore.loadGrouping(db, options: library.configuration.faceGrouping))
        }
        guard let cached, cached.generation == generation else {
            #expect(!mustBeCurrent, "the grouping in memory is stale after a recording or a regrouping")
            return
        }
        let sort = { (clustering: FaceClustering) in clustering.entries.sorted { $0.rowID < $1.rowID } }
        #expect(sort(cached.clustering) == sort(loaded))
        #expect(cached.clustering.groups.mapValues(\.members) == loaded.groups.mapValues(\.members))
        #expect(cached.clustering.rejections.filter { !$0.value.isEmpty } == loaded.rejections.filter { !$0.value.isEmpty })
        for entry in loaded.entries { #expect(cached.clustering.descriptor(of: entry.rowID) == loaded.descriptor(of: entry.rowID)) }
    }

    @Test("faces are grouped into people, listed named first then by photos, each person's photos newest first")
    func groupAndList() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 4, seed: 1)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(8, to: library)
        // Person 0 in 6 photos, 1 in 5, 2 in 3, 3 in 2 (too few to be listed).
        let cast: [[Int]] = [[0, 1], [0, 1, 2], [0], [1, 0, 3], [0, 2], [1, 3], [0, 1, 2], []]
        for (asset, people) in zip(ids, cast) { try Self.record(library, asset, people, prints: &prints, truth: &truth) }

        let people = try library.people()
        #expect(people.map(\.assetCount) == [6, 5, 3])
        #expect(people.map(\.faceCount) == [6, 5, 3])
        #expect(
            try Self.composition(library, truth: truth).values.sorted { $0.count > $1.count } == [[0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [2, 2, 2]])
        #expect(people.allSatisfy { $0.name == nil && $0.keyFaceID != nil && !$0.isHidden })
        // A person's photos are ordinary assets, newest first, paged or fetched.
        let photosOf0 = zip(ids, cast).filter { $0.1.contains(0) }.map(\.0)
        #expect(try library.fetchAssets(of: people[0].id).allObjects().map(\.id) == photosOf0.reversed())
        let page = try library.fetchAssetPage(of: people[0].id, limit: 4)
        #expect(page.total == 6 && page.assets.map(\.id) == Array(photosOf0.reversed().prefix(4)))
        #expect(try library.fetchAssets(FetchOptions(predicate: .person(people[1].id) && .person(people[2].id))).count == 2)
        // The faces of a photo, left to right, with their people; the unassigned ones are waiting.
        let faces = try library.faces(in: ids[3])
        #expect(faces.map { truth[$0.id] } == [1, 0, 3])
        #expect(faces.map(\.state) == [.grouped, .grouped, .unassigned])
        #expect(faces[0].personID == people[1].id && faces[2].personID == nil)
        #expect(faces[0].boundingBox == FaceBox(x: 0.05, y: 0.1, width: 0.1, height: 0.15))
        #expect(try library.unassignedFaces().map { truth[$0.id] } == [3, 3])

        // Naming one puts them first.
        try library.renamePerson(people[2].id, to: "Ada")
        #expect(try library.people().map(\.name) == ["Ada", nil, nil])
        #expect(try library.person(named: " ADA ")?.id == people[2].id)
        // Hidden people leave the list but keep their faces.
        try library.setPersonHidden(people[1].id, true)
        #expect(try library.people().map(\.id) == [people[2].id, people[0].id])
        #expect(try library.people(includingHidden: true).count == 3)
        #expect(try library.person(people[1].id).isHidden && library.person(people[1].id).faceCount == 5)
        // Every change to people is in the change log.
        let logged = try #require(try library.changeLog(after: 0, limit: 10_000)).filter { $0.entity == .person }
        #expect(Set(logged.map(\.id)) == Set(people.map(\.id)))
        #expect(logged.contains { $0.id == people[1].id && $0.operation == .update })

        let status = try library.faceIndexStatus(algorithm: 1)
        #expect(status.indexedAssets == 8 && status.assetsToIndex == 0 && status.faces == 16)
        #expect(status.unassignedFaces == 2 && status.people == 3 && status.namedPeople == 1)
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("a face print that is not 128 finite values, or a box outside the image, is refused, and nothing of the batch is recorded")
    func invalidPrints() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(1, to: library)
        var prints = SyntheticFaces(people: 1, seed: 3)
        let good = prints.detected(0)
        var short = prints.detected(0, slot: 1)
        short.descriptor.removeLast()
        var notANumber = prints.detected(0, slot: 1)
        notANumber.descriptor[5] = .nan
        let outsideImage = DetectedFace(
            boundingBox: FaceBox(x: 1.2, y: 0.5, width: 0.1, height: 0.1), confidence: 1, descriptor: good.descriptor)
        let cases = [
            (short, "has 127 values; a face print has exactly 128"), (notANumber, "not a finite number"), (outsideImage, "no area inside the image"),
        ]
        for (bad, reason) in cases {
            do {
                try library.recordFaces([good, bad], for: ids[0], algorithm: 1)
                Issue.record("a bad print was recorded")
            } catch {
                #expect(error.code == .invalidRequest && error.description.contains(reason), "\(error)")
            }
        }
        #expect(try library.faces(in: ids[0]).isEmpty)
        #expect(try library.assetsNeedingFaceIndex(algorithm: 1).map(\.id) == ids)
        #expect(throws: LibraryError.self) { try library.recordFaces([good], for: "no-such-asset", algorithm: 1) }
        // A box outside the image is clamped to it.
        let outside = DetectedFace(
            boundingBox: FaceBox(x: -0.2, y: 0.9, width: 0.4, height: 0.3), confidence: 0.9, descriptor: good.descriptor)
        #expect(try library.recordFaces([outside], for: ids[0], algorithm: 1)[0].boundingBox == FaceBox(x: 0, y: 0.9, width: 0.2, height: 0.1))
    }

    @Test("(a) two faces of one photo are never one person: not by the grouping, not by assigning one")
    func oneFacePerPhoto() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 2, seed: 4)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(5, to: library)
        // Photo 0 has person 0 twice (a mirror); the others once, with person 1.
        let mirror = try Self.record(library, ids[0], [0, 0, 1], prints: &prints, truth: &truth)
        for asset in ids.dropFirst() { try Self.record(library, asset, [0, 1], prints: &prints, truth: &truth) }
        let zero = try #require(try library.people().first { try library.faces(of: $0.id).allSatisfy { truth[$0.id] == 0 } })
        let inPhoto = try library.faces(in: ids[0])
        #expect(inPhoto.filter { $0.personID == zero.id }.count == 1)
        let grouped = try #require(inPhoto.first { $0.personID == zero.id })
        let other = try #require(inPhoto.first { $0.id != grouped.id && truth[$0.id] == 0 })
        #expect(other.personID == nil)
        // Assigning the other one to that person takes the grouped one out of it, and it does not come back.
        try library.assignFace(other.id, toPerson: zero.id)
        let after = try library.faces(in: ids[0])
        #expect(after.first { $0.id == other.id }?.state == .confirmed && after.first { $0.id == other.id }?.personID == zero.id)
        #expect(after.first { $0.id == grouped.id }?.personID == nil)
        try library.regroupFaces()
        #expect(try library.faces(in: ids[0]).filter { $0.personID == zero.id }.map(\.id) == [other.id])
        // With both confirmed faces of one photo, assigning one to the other's person is refused.
        do {
            try library.assignFace(grouped.id, toPerson: zero.id)
            Issue.record("a second face of one photo was given to one person")
        } catch {
            #expect(error.code == .invalidRequest && error.description.contains("same photo"))
        }
        _ = mirror
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("(b) a face taken from a person never returns to them: not by recording it again, not by regrouping, not as faces arrive")
    func notThisPerson() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 2, seed: 5)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(9, to: library)
        var recorded: [String: [DetectedFace]] = [:]
        for asset in ids.prefix(6) {
            let detected = [prints.detected(0, slot: 0), prints.detected(1, slot: 1)]
            recorded[asset] = detected
            for (face, person) in zip(try library.recordFaces(detected, for: asset, algorithm: 1), [0, 1]) { truth[face.id] = person }
        }
        let face = try library.faces(in: ids[2])[0]
        let person = try #require(face.personID)
        try library.rejectFace(face.id)
        #expect(try library.face(face.id).personID == nil && library.face(face.id).state == .unassigned)
        #expect(try library.person(person).faceCount == 5)

        // Indexed again by a newer algorithm (the same places, new prints): it keeps its identifier and the fact.
        let again = [prints.detected(0, slot: 0), prints.detected(1, slot: 1)]
        let reindexed = try library.recordFaces(again, for: ids[2], algorithm: 2)
        #expect(reindexed[0].id == face.id && reindexed[0].personID != person && reindexed[0].algorithm == 2)
        try library.regroupFaces()
        #expect(try library.face(face.id).personID != person)
        for asset in ids.suffix(3) { try Self.record(library, asset, [0, 1], prints: &prints, truth: &truth) }
        try library.regroupFaces()
        #expect(try library.face(face.id).personID != person)
        #expect(try library.person(person).faceCount == 8, "the person keeps their identifier and every other face of theirs")
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("(c) a named person keeps their name and confirmed faces when their photos are indexed again and everything is regrouped")
    func namedPersonKept() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 3, seed: 6)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(6, to: library)
        for (index, asset) in ids.enumerated() { try Self.record(library, asset, [0, 1 + index % 2], prints: &prints, truth: &truth) }
        // The user names person 0, with accents, confirms one face of theirs, and another through the name
        // written without them.
        let first = try library.faces(in: ids[0])[0]
        let zoeID = try #require(first.personID)
        try library.renamePerson(zoeID, to: "Zoë")
        try library.assignFace(first.id, toPerson: zoeID)
        let second = try library.faces(in: ids[1])[0]
        try library.assignFace(second.id, toPersonNamed: "ZOE")
        let zoe = try #require(try library.person(named: "zoe"))
        #expect(zoe.id == zoeID && zoe.name == "Zoë" && zoe.faceCount == 6)
        let confirmed = try library.faces(of: zoe.id).filter { $0.state == .confirmed }.map(\.id)
        #expect(Set(confirmed) == [first.id, second.id])

        // Indexed again by algorithm 2, the boxes moved a little and new prints: same faces, same person, same name.
        for asset in ids {
            let moved = try library.faces(in: asset).map { face in
                DetectedFace(
                    boundingBox: FaceBox(x: face.boundingBox.x + 0.01, y: face.boundingBox.y, width: 0.1, height: 0.15),
                    confidence: 0.9, descriptor: prints.face(of: truth[face.id] ?? 0))
            }
            let faces = try library.recordFaces(moved, for: asset, algorithm: 2)
            #expect(faces.allSatisfy { truth[$0.id] != nil && $0.algorithm == 2 })
        }
        try library.regroupFaces()
        let kept = try library.person(zoe.id)
        #expect(kept.name == "Zoë" && kept.faceCount == 6)
        #expect(Set(try library.faces(of: zoe.id).filter { $0.state == .confirmed }.map(\.id)) == Set(confirmed))
        #expect(try library.faces(of: zoe.id).allSatisfy { truth[$0.id] == 0 })
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("(d) a person is listed once they have three faces (or a name), and not when they fall below", arguments: [2, 3])
    func listedFromMinimum(minimum: Int) async throws {
        let path = TestLibrary.temporaryFolder()
        var configuration = LibraryConfiguration(watchesMemoryPressure: false, database: TestLibrary.database(for: path))
        configuration.faceGrouping = FaceGroupingOptions(minimumFacesPerPerson: minimum)
        let library = try PhotoLibrary.open(at: path, configuration: configuration)
        defer { library.close() }
        var prints = SyntheticFaces(people: 1, seed: 8)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(minimum, to: library)
        for asset in ids.dropLast() { try Self.record(library, asset, [0], prints: &prints, truth: &truth) }
        #expect(try library.people().isEmpty)
        #expect(try library.faceIndexStatus(algorithm: 1).unassignedFaces == minimum - 1)
        try Self.record(library, ids[minimum - 1], [0], prints: &prints, truth: &truth)
        let person = try #require(try library.people().first)
        #expect(person.faceCount == minimum)
        // "Not this person" on one: too few faces, no longer listed; a name lists them again.
        try library.rejectFace(try library.faces(of: person.id)[0].id)
        #expect(try library.people().isEmpty)
        try library.renamePerson(person.id, to: "Bo")
        #expect(try library.people().map(\.id) == [person.id])
    }

    @Test("(e) a merge and a \"Not this person\" are single changes whose undo restores exactly the faces, names, key faces and facts")
    func undo() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 3, seed: 10)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(8, to: library)
        for (index, asset) in ids.enumerated() {
            try Self.record(library, asset, index == 7 ? [0, 1] : [index % 3, (index + 1) % 3], prints: &prints, truth: &truth)
        }
        let people = try library.people()
        #expect(people.count == 3)
        let (a, b, c) = (people[0], people[1], people[2])
        try library.renamePerson(b.id, to: "Bea")
        try library.setKeyFace(try library.faces(of: a.id)[2].id, forPerson: a.id)
        try library.setPersonHidden(a.id, true)
        // A fact about b, and a confirmed face of c.
        try library.rejectFace(try library.faces(of: b.id)[0].id)
        try library.assignFace(try library.faces(of: c.id)[1].id, toPerson: c.id)
        let before = try Self.stored(library)

        // Merging a into b: one change; a is gone, b has all their faces (minus the photos they share).
        let mergeUndo = try library.mergePeople([a.id], into: b.id)
        #expect(throws: LibraryError.self) { try library.person(a.id) }
        let merged = try library.person(b.id)
        #expect(merged.name == "Bea" && !merged.isHidden)
        #expect(try library.faces(of: b.id).allSatisfy { $0.state == .confirmed || truth[$0.id] == 1 })
        #expect(Set(try library.faces(of: b.id).map(\.assetID)).count == merged.faceCount, "still one face per photo")
        let afterMerge = try Self.stored(library)
        #expect(afterMerge != before)
        let redo = try library.undo(mergeUndo)
        #expect(try Self.stored(library) == before)
        #expect(try library.person(a.id).isHidden)
        // Redone, and undone again.
        try library.undo(redo)
        #expect(try Self.stored(library) == afterMerge)
        try library.undo(mergeUndo)
        #expect(try Self.stored(library) == before)

        // "Not this person" on c's key face, undone.
        let keyFace = try #require(try library.person(c.id).keyFaceID)
        let split = try library.rejectFace(keyFace)
        #expect(try library.person(c.id).keyFaceID != keyFace)
        try library.undo(split)
        #expect(try Self.stored(library) == before)

        // A face assigned to a new named person, undone: the person goes.
        let assign = try library.assignFace(try library.faces(in: ids[7])[0].id, toPersonNamed: "Cy")
        #expect(try library.person(named: "cy") != nil)
        try library.undo(assign)
        #expect(try library.person(named: "cy") == nil)
        #expect(try Self.stored(library) == before)
        // The grouping in memory is stale after these changes, and is loaded again by the next regrouping.
        try Self.expectCacheMatchesDatabase(library, mustBeCurrent: false)
        try library.regroupFaces()
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("merging two people without names or chosen key faces leaves the target without them, and the undo brings the source back")
    func mergeUnnamed() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 2, seed: 14)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(6, to: library)
        for (index, asset) in ids.enumerated() { try Self.record(library, asset, [index % 2], prints: &prints, truth: &truth) }
        let people = try library.people()
        #expect(people.count == 2)
        let before = try Self.stored(library)
        let undo = try library.mergePeople([people[1].id], into: people[0].id)
        let merged = try library.person(people[0].id)
        #expect(merged.name == nil && merged.faceCount == 6 && merged.keyFaceID != nil)
        #expect(try library.people().map(\.id) == [people[0].id])
        try library.undo(undo)
        #expect(try Self.stored(library) == before)
    }

    @Test("names are unique whatever their case and accents; assigning by name finds the person; merging needs another person")
    func names() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 2, seed: 12)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(4, to: library)
        for asset in ids { try Self.record(library, asset, [0, 1], prints: &prints, truth: &truth) }
        let people = try library.people()
        try library.renamePerson(people[0].id, to: "  Élodie ")
        #expect(try library.person(people[0].id).name == "Élodie")
        do {
            try library.renamePerson(people[1].id, to: "ELODIE")
            Issue.record("two people were given one name")
        } catch {
            #expect(error.code == .duplicate && error.relatedID == people[0].id)
        }
        for bad in ["", "   ", "two\nlines", String(repeating: "x", count: 101)] {
            #expect(throws: LibraryError.self) { try library.renamePerson(people[1].id, to: bad) }
        }
        #expect(throws: LibraryError.self) { try library.mergePeople([people[0].id], into: people[0].id) }
        #expect(throws: LibraryError.self) { try library.rejectFace("no-such-face") }
        // Assigning a face by name moves it to the person of that name, confirmed.
        let more = try await TestLibrary.addPhotos(1, to: library, startingAt: 50)
        let face = try #require(try library.recordFaces([prints.detected(1)], for: more[0], algorithm: 1).first)
        #expect(face.personID == people[1].id && face.state == .grouped)
        try library.assignFace(face.id, toPersonNamed: "elodie")
        #expect(try library.face(face.id).personID == people[0].id && library.face(face.id).state == .confirmed)
        // Taking the name away from a person with faces keeps them, unnamed.
        try library.renamePerson(people[0].id, to: nil)
        #expect(try library.person(people[0].id).name == nil)
    }

    @Test("an asset deleted for good takes its faces; a person left without faces goes unless named; faces off removes everything")
    func deletion() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 2, seed: 13)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(6, to: library)
        for (index, asset) in ids.enumerated() { try Self.record(library, asset, index < 3 ? [0, 1] : [1], prints: &prints, truth: &truth) }
        let people = try library.people()
        let zero = try #require(people.first { $0.faceCount == 3 })
        let one = try #require(people.first { $0.faceCount == 6 })
        try library.renamePerson(one.id, to: "One")
        // Trashed: the faces stay; deleted for good: they go, and the counts follow.
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        #expect(try library.person(zero.id).faceCount == 3)
        #expect(try library.assetsNeedingFaceIndex(algorithm: 2).map(\.id) == Array(ids.dropFirst()))
        try await library.performChanges { $0.deleteAssetsPermanently([ids[0], ids[3]]) }
        #expect(try library.person(zero.id).faceCount == 2 && library.person(one.id).faceCount == 4)
        #expect(try library.faces(in: ids[0]).isEmpty)
        #expect(try library.faceIndexStatus(algorithm: 1).indexedAssets == 4)
        try await library.performChanges { $0.deleteAssetsPermanently([ids[1], ids[2]]) }
        #expect(throws: LibraryError.self) { try library.person(zero.id) }
        try await library.performChanges { $0.deleteAssetsPermanently([ids[4], ids[5]]) }
        #expect(try library.person(one.id).faceCount == 0 && library.person(one.id).name == "One" && library.person(one.id).keyFaceID == nil)
        #expect(try library.store.integrityProblems().isEmpty)

        // Faces off: everything goes.
        let more = try await TestLibrary.addPhotos(3, to: library, startingAt: 100)
        for asset in more { try Self.record(library, asset, [0], prints: &prints, truth: &truth) }
        #expect(try library.people().count == 2)
        try library.removeAllFaces()
        #expect(try library.people(includingHidden: true).isEmpty)
        let status = try library.faceIndexStatus(algorithm: 1)
        #expect(status.faces == 0 && status.indexedAssets == 0 && status.assetsToIndex == 3)
        try Self.expectCacheMatchesDatabase(library, mustBeCurrent: false)
        try Self.record(library, more[0], [0], prints: &prints, truth: &truth)
        try Self.expectCacheMatchesDatabase(library)
    }

    @Test("indexing is asked for the assets an algorithm has not indexed, a batch at a time, and again on request")
    func indexingQueue() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(5, to: library)
        let first = try library.assetsNeedingFaceIndex(algorithm: 1, limit: 2)
        #expect(first.map(\.id) == Array(ids.prefix(2)))
        let second = try library.assetsNeedingFaceIndex(algorithm: 1, after: first.last, limit: 2)
        #expect(second.map(\.id) == Array(ids[2..<4]))
        try library.recordFaces([ids[0]: [], ids[1]: [], ids[2]: []], algorithm: 1)
        #expect(try library.assetsNeedingFaceIndex(algorithm: 1).map(\.id) == Array(ids.suffix(2)))
        // A newer algorithm wants every asset again; an older one does not redo what a newer one did.
        #expect(try library.assetsNeedingFaceIndex(algorithm: 2).map(\.id) == ids)
        try library.recordFaces([ids[3]: []], algorithm: 2)
        #expect(try library.assetsNeedingFaceIndex(algorithm: 1).map(\.id) == [ids[4]])
        // Asked again (an edit that crops): indexed again.
        try library.requestFaceIndexing(of: [ids[0]])
        #expect(try library.assetsNeedingFaceIndex(algorithm: 1).map(\.id) == [ids[0], ids[4]])
        let status = try library.faceIndexStatus(algorithm: 1)
        #expect(status.indexedAssets == 3 && status.assetsToIndex == 2)
    }

    @Test("10 000 faces of 100 people, recorded 20 to a photo in batches, become 100 people of one identity each")
    func tenThousandFaces() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var prints = SyntheticFaces(people: 100, seed: 99)
        var truth: [String: Int] = [:]
        let ids = try await TestLibrary.addPhotos(500, to: library)
        for batch in stride(from: 0, to: ids.count, by: 25) {
            var faces: [String: [DetectedFace]] = [:]
            var cast: [String: [FaceBox: Int]] = [:]
            for index in batch..<min(ids.count, batch + 25) {
                let people = (0..<20).map { (index + $0 * 5 + (index / 5) % 5) % 100 }
                faces[ids[index]] = people.enumerated().map { prints.detected($0.element, slot: $0.offset) }
                cast[ids[index]] = Dictionary(uniqueKeysWithValues: zip(faces[ids[index]]?.map(\.boundingBox) ?? [], people))
            }
            for (asset, recorded) in try library.recordFaces(faces, algorithm: 1) {
                for face in recorded { truth[face.id] = cast[asset]?[face.boundingBox] }
            }
        }
        #expect(truth.count == 10_000)
        let composition = try Self.composition(library, truth: truth)
        #expect(composition.count == 100)
        #expect(composition.values.allSatisfy { Set($0).count == 1 }, "no person mixes two identities")
        let status = try library.faceIndexStatus(algorithm: 1)
        #expect(status.faces == 10_000 && status.unassignedFaces <= 100 && status.people == 100)
        try Self.expectCacheMatchesDatabase(library)
    }
}
