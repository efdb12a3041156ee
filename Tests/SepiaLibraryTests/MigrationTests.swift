import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaLibrary

/// `sepia library migrate`: an embedded library copied into PostgreSQL. Runs when the suites run on
/// PostgreSQL.
@Suite(.enabled(if: TestLibrary.onPostgreSQL))
struct MigrationTests {
    @Test("an embedded library arrives whole in PostgreSQL: rows, order, edits and files, verified; running it again resumes")
    func migrateAndResume() async throws {
        // Given an embedded library with photos, a favourite, a hidden photo, an album in a chosen order, an edit and a
        // photo in Recently Deleted
        let source = TestLibrary.temporaryFolder("source")
        var embedded = LibraryConfiguration(watchesMemoryPressure: false)
        embedded.renderContext = RenderContext(options: RenderOptions(threadCount: 2))
        let library = try PhotoLibrary.open(at: source, configuration: embedded)
        let ids = try await TestLibrary.addPhotos(6, to: library)
        var albumID = ""
        try await library.performChanges { changes in
            changes.setFavorite(true, for: ids[1])
            changes.setHidden(true, for: ids[2])
            albumID = changes.createAlbum(title: "Trip").localIdentifier
            changes.addAssets([ids[4], ids[0], ids[3]], to: albumID)
            // User metadata and an edited date and place, beside the file's values, arrive too.
            changes.setTitle("Tower", for: ids[3])
            changes.setKeywords(["Places|Portugal|Lisbon"], for: ids[3])
            changes.setRating(5, for: ids[3])
            changes.setCreationDate(Date(timeIntervalSince1970: 1_000_000_000), offset: 3600, for: ids[3])
            changes.setLocation(GPSLocation(latitude: 38.69, longitude: -9.21), for: ids[3])
        }
        _ = try await library.edit(try library.asset(ids[5]), recipe: EditRecipe(filters: [SepiaTone(intensity: 0.8)]))
        try await library.performChanges { $0.deleteAssets([ids[1]]) }
        let deletedOn = try #require(try library.asset(ids[1]).trashedDate)
        let preset = try library.savePreset(named: "Sepia 80", recipe: EditRecipe(filters: [SepiaTone(intensity: 0.8)]))
        let expected = try library.fetchAssets().allObjects()
        let expectedAlbum = try library.fetchAssets(in: try library.album(albumID)).allObjects().map(\.id)
        library.close()

        // When it is migrated into a schema of its own, with a new folder for this machine
        let folder = TestLibrary.temporaryFolder("migrated")
        var destination = LibraryConfiguration(watchesMemoryPressure: false)
        destination.renderContext = embedded.renderContext
        destination.database = TestLibrary.database(for: folder)
        let report = try await PhotoLibrary.migrate(from: source, to: folder, configuration: destination)

        // Then every row and file arrived, and the destination checks sound with every hash read back
        #expect(report.check.isSound, "\(report.check.problems)")
        #expect(!report.resumed)
        #expect(report.rows["asset"] == 6 && report.rows["album"] == 1 && report.rows["albumMember"] == 3 && report.rows["adjustment"] == 1)
        #expect(report.filesCopied == 7 && report.filesAlreadyThere == 0)
        #expect(report.check.bytesVerified > 0)
        // When it runs again (as after a kill), it resumes: the rows are there, files are skipped, all verified
        let again = try await PhotoLibrary.migrate(from: source, to: folder, configuration: destination)
        #expect(again.resumed && again.filesCopied == 0 && again.filesAlreadyThere == 7)
        #expect(again.check.isSound, "\(again.check.problems)")

        let migrated = try PhotoLibrary.open(at: folder, configuration: destination)
        #expect(try migrated.fetchAssets().allObjects() == expected)
        #expect(try migrated.fetchAssets(in: try migrated.album(albumID)).allObjects().map(\.id) == expectedAlbum)
        #expect(try migrated.asset(ids[5]).hasAdjustments)
        #expect(try migrated.asset(ids[3]).isCreationDateEdited && migrated.asset(ids[3]).fileMetadata?.creationDate != nil)
        #expect(try migrated.fetchAssets(FetchOptions(predicate: .keyword("lisbon"))).allObjects().map(\.id) == [ids[3]])
        #expect(try migrated.fetchAssets(in: .recentlyDeleted).allObjects().map(\.id) == [ids[1]])
        #expect(try migrated.asset(ids[1]).trashedDate == deletedOn)
        #expect(try migrated.fetchAssetPage(limit: 1).total == 4, "the kept counts leave the hidden photo and Recently Deleted out")
        // New rows get keys after the copied ones.
        let added = try await TestLibrary.addPhotos(1, to: migrated, startingAt: 50)
        #expect(try migrated.asset(added[0]).rowID > expected.map(\.rowID).max()!)
        // Presets arrive, and new ones get keys after theirs.
        let presets = try migrated.presets()
        #expect(presets == [preset])
        try migrated.savePreset(named: "Another", recipe: EditRecipe(filters: [SepiaTone(intensity: 0.5)]))
        migrated.close()

        // A destination holding another library is refused.
        let other = TestLibrary.temporaryFolder("other")
        let otherLibrary = try PhotoLibrary.open(at: other, configuration: embedded)
        try await TestLibrary.addPhotos(1, to: otherLibrary, startingAt: 90)
        otherLibrary.close()
        await #expect(throws: LibraryError.self) { try await PhotoLibrary.migrate(from: other, to: folder, configuration: destination) }
    }

    @Test("faces, people, names, confirmed faces, \"Not this person\" facts and what was indexed arrive, and grouping goes on there")
    func migratePeople() async throws {
        // Given an embedded library with people: one named, with a confirmed face and a face taken from them
        let source = TestLibrary.temporaryFolder("source")
        let library = try PhotoLibrary.open(at: source, configuration: LibraryConfiguration(watchesMemoryPressure: false))
        let ids = try await TestLibrary.addPhotos(7, to: library)
        var prints = SyntheticFaces(people: 2, seed: 31)
        for asset in ids.prefix(6) { try library.recordFaces([prints.detected(0, slot: 0), prints.detected(1, slot: 1)], for: asset, algorithm: 3) }
        let people = try library.people()
        #expect(people.count == 2)
        try library.renamePerson(people[0].id, to: "Ana")
        let faces = try library.faces(of: people[0].id)
        try library.setKeyFace(faces[1].id, forPerson: people[0].id)
        try library.assignFace(faces[2].id, toPerson: people[0].id)
        try library.rejectFace(faces[3].id)
        let expectedPeople = try library.people()
        let expectedFaces = try ids.flatMap { try library.faces(in: $0) }
        library.close()

        // When it is migrated
        let folder = TestLibrary.temporaryFolder("migrated")
        var destination = LibraryConfiguration(watchesMemoryPressure: false)
        destination.database = TestLibrary.database(for: folder)
        let report = try await PhotoLibrary.migrate(from: source, to: folder, configuration: destination)
        #expect(report.check.isSound, "\(report.check.problems)")
        #expect(report.rows["face"] == 12 && report.rows["person"] == 2 && report.rows["faceRejection"] == 1 && report.rows["faceIndex"] == 6)

        // Then the people and faces are the same, and indexing and grouping go on from there
        let migrated = try PhotoLibrary.open(at: folder, configuration: destination)
        defer { migrated.close() }
        #expect(try migrated.people() == expectedPeople)
        #expect(try ids.flatMap { try migrated.faces(in: $0) } == expectedFaces)
        #expect(try migrated.assetsNeedingFaceIndex(algorithm: 3).map(\.id) == [ids[6]])
        let added = try migrated.recordFaces([prints.detected(0), prints.detected(1, slot: 1)], for: ids[6], algorithm: 3)
        #expect(added.map(\.personID) == [people[0].id, people[1].id])
        // The face taken from Ana does not come back to her.
        try migrated.regroupFaces()
        #expect(try migrated.face(faces[3].id).personID != people[0].id)
        #expect(try migrated.person(people[0].id).faceCount == 6)
    }
}
