import Foundation
import GRDB
import SepiaCodecs
import Testing

@testable import SepiaLibrary

/// Titles, captions, keywords, ratings, Adjust Date & Time and locations: set, cleared, reverted to the file's
/// values, searched and checked; on SQLite, and on PostgreSQL when the suites run there.
@Suite struct MetadataTests {
    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test("title, caption, keywords and rating are set, tidied and cleared; each change bumps the revision once")
    func userMetadata() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(2, to: library)
        let start = try library.asset(ids[0])
        #expect(start.title == nil && start.caption == nil && start.keywords.isEmpty && start.rating == 0)

        // When a title, caption, keywords (with a case-insensitive duplicate and untidy levels) and a rating are set
        try await library.performChanges { changes in
            changes.setTitle("  Lisbon at dusk ", for: ids[0])
            changes.setCaption("From the castle.\nWindy.", for: ids[0])
            changes.setKeywords(["Travel", " Places | Portugal | Lisbon ", "travel", "Sunset"], for: ids[0])
            changes.setRating(4, for: ids[0])
        }
        // Then they are stored tidied, in order, and the revision moved once per request
        var asset = try library.asset(ids[0])
        #expect(asset.title == "Lisbon at dusk")
        #expect(asset.caption == "From the castle.\nWindy.")
        #expect(asset.keywords == ["Travel", "Places|Portugal|Lisbon", "Sunset"])
        #expect(asset.rating == 4)
        #expect(asset.revision == start.revision + 4)
        #expect(try library.asset(ids[1]).userMetadata.isEmpty)

        // When keywords are added to and removed from a selection
        try await library.performChanges { changes in
            changes.addKeywords(["SUNSET", "Family"], to: ids)
            changes.removeKeywords(["travel"], from: ids)
        }
        asset = try library.asset(ids[0])
        #expect(asset.keywords == ["Places|Portugal|Lisbon", "Sunset", "Family"])
        #expect(try library.asset(ids[1]).keywords == ["SUNSET", "Family"])

        // When the same values are set again, nothing changes
        let revision = asset.revision
        try await library.performChanges { changes in
            changes.setTitle("Lisbon at dusk", for: ids[0])
            changes.setRating(4, for: ids[0])
        }
        #expect(try library.asset(ids[0]).revision == revision)

        // When they are cleared (nil, empty text, an empty list, 0)
        try await library.performChanges { changes in
            changes.setTitle(nil, for: ids[0])
            changes.setCaption("   ", for: ids[0])
            changes.setKeywords([], for: ids[0])
            changes.setRating(0, for: ids[0])
        }
        #expect(try library.asset(ids[0]).userMetadata.isEmpty)

        // One value sets them all, as an importer reading a sidecar does
        let sidecar = UserMetadata(title: "T", caption: "C", keywords: ["a", "b|c"], rating: 5)
        try await library.performChanges { $0.setUserMetadata(sidecar, for: ids[1]) }
        #expect(try library.asset(ids[1]).userMetadata == sidecar)
    }

    @Test("an importer's user metadata and file values arrive with the new asset")
    func metadataAtCreation() async throws {
        let library = try TestLibrary.open()
        let prepared = try await library.prepareAsset(
            data: TestLibrary.uniqueJPEG(7), filename: "a.jpg", fileDate: Self.date("2020-01-01T00:00:00Z"))
        var asset = prepared.asset
        asset.title = "From a sidecar"
        asset.keywords = ["x", "X", "y"]
        asset.rating = 3
        let id = try await library.performChanges { changes in
            changes.createAsset(from: prepared)
            changes.setUserMetadata(asset.userMetadata, for: prepared.localIdentifier)
        }.createdAssetIDs[0]
        let stored = try library.asset(id)
        #expect(stored.title == "From a sidecar" && stored.keywords == ["x", "y"] && stored.rating == 3)
        #expect(stored.fileMetadata?.creationDate == stored.creationDate)
        #expect(!stored.isCreationDateEdited && !stored.isLocationEdited)
    }

    @Test("a date with its time zone and a location are edited beside the file's values and reverted to them")
    func dateAndLocationRevert() async throws {
        let library = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        let original = try library.asset(id)
        let file = try #require(original.fileMetadata)
        #expect(file.creationDate == original.creationDate && file.creationDateSource == original.creationDateSource)

        // When the date, zone and place are corrected
        let corrected = Self.date("2019-07-14T21:30:00Z")
        let paris = GPSLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)!
        try await library.performChanges { changes in
            changes.setCreationDate(corrected, offset: 7200, for: id)
            changes.setLocation(paris, for: id)
        }
        let edited = try library.asset(id)
        // Then the edited values are the asset's, the file's are kept beside them
        #expect(edited.creationDate == corrected && edited.creationDateOffset == 7200 && edited.creationDateSource == .user)
        #expect(edited.location == paris && edited.isLocationEdited && edited.isCreationDateEdited)
        #expect(edited.fileMetadata == file)
        #expect(edited.localCreationDate.hour == 23 && edited.localCreationDate.day == 14)

        // When the location is removed, it is an edit too: the file's stays known
        try await library.performChanges { $0.setLocation(nil, for: id) }
        #expect(try library.asset(id).location == nil)
        #expect(try library.asset(id).isLocationEdited == (file.location != nil))

        // When both are reverted, the file's values and source are back
        try await library.performChanges { changes in
            changes.revertCreationDate(of: [id])
            changes.revertLocation(of: [id])
        }
        let reverted = try library.asset(id)
        #expect(reverted.creationDate == original.creationDate && reverted.creationDateOffset == original.creationDateOffset)
        #expect(reverted.creationDateSource == original.creationDateSource)
        #expect(reverted.location == original.location)
        #expect(!reverted.isCreationDateEdited && !reverted.isLocationEdited)
    }

    @Test("shifting a selection keeps each photo's own time zone, or reads the shifted local times in a new one")
    func shiftAcrossZones() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(3, to: library)
        // Given photos taken in New York (−5 h), Tokyo (+9 h) and at an unknown zone
        let dates = [Self.date("2024-03-01T15:00:00Z"), Self.date("2024-03-02T01:00:00Z"), Self.date("2024-03-03T12:00:00Z")]
        let offsets: [Int?] = [-5 * 3600, 9 * 3600, nil]
        try await library.performChanges { changes in
            for (i, id) in ids.enumerated() { changes.setCreationDate(dates[i], offset: offsets[i], for: id) }
        }

        // When the selection is shifted by +1 h 30 min, keeping zones
        try await library.performChanges { $0.shiftCreationDates(of: ids, by: 5400) }
        for (i, id) in ids.enumerated() {
            let asset = try library.asset(id)
            #expect(asset.creationDate == dates[i].addingTimeInterval(5400))
            #expect(asset.creationDateOffset == offsets[i])
        }

        // When it is shifted by −1 h 30 min into Lisbon's summer time (+1 h): local clock times go back to what
        // they were, read at +1 h
        try await library.performChanges { $0.shiftCreationDates(of: ids, by: -5400, offset: 3600) }
        let newYork = try library.asset(ids[0])
        // 10:00 local in New York becomes 10:00 at +1 h, 09:00 UTC.
        #expect(newYork.creationDate == Self.date("2024-03-01T09:00:00Z") && newYork.creationDateOffset == 3600)
        #expect(newYork.localCreationDate.hour == 10)
        let tokyo = try library.asset(ids[1])
        #expect(tokyo.creationDate == Self.date("2024-03-02T09:00:00Z") && tokyo.localCreationDate.hour == 10)
        let unknown = try library.asset(ids[2])
        #expect(unknown.creationDate == Self.date("2024-03-03T11:00:00Z") && unknown.creationDateOffset == 3600)

        // A shift that leaves the supported years is refused, and nothing moves
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { $0.shiftCreationDates(of: ids, by: -300 * 365 * 86_400) }
        }
        #expect(try library.asset(ids[0]).creationDate == newYork.creationDate)
    }

    @Test("a date change re-sorts the asset in fetch results and the timeline, and observers get a move")
    func sortOrderAndChangeDetails() async throws {
        let library = try TestLibrary.open()
        // Given four photos in date order (addPhotos spaces them an hour apart)
        let ids = try await TestLibrary.addPhotos(4, to: library)
        let before = try library.fetchAssets()
        #expect(try before.allObjects().map(\.id) == ids)
        let years = try library.years()

        // When the third is moved before the first, into another year
        try await library.performChanges { $0.setCreationDate(Self.date("2001-05-05T12:00:00Z"), offset: 0, for: ids[2]) }

        // Then a new fetch has it first, and the timeline has a year for it
        let after = try library.fetchAssets()
        #expect(try after.allObjects().map(\.id) == [ids[2], ids[0], ids[1], ids[3]])
        #expect(try library.years().map(\.year) == [2001] + years.map(\.year))
        // And the change details say it moved (and changed), and applying them gives the new order
        let details = try library.changeDetails(from: before)
        #expect(details.hasIncrementalChanges)
        #expect(details.removedIndexes?.isEmpty ?? true)
        #expect(details.insertedIndexes?.isEmpty ?? true)
        #expect(details.moves.map { [$0.from, $0.to] } == [[2, 0]])
        #expect(details.changedIndexes == IndexSet(integer: 0))
        let applied = applyDetails(
            removed: details.removedIndexes ?? [], inserted: details.insertedIndexes ?? [], inserting: [String](),
            moves: details.moves.map { (from: $0.from, to: $0.to) }, to: ids)
        #expect(applied == [ids[2], ids[0], ids[1], ids[3]])

        // A shift of the whole selection keeps their order: changes, no moves
        let shifted = try library.fetchAssets()
        try await library.performChanges { $0.shiftCreationDates(of: ids, by: 86_400) }
        let shiftDetails = try library.changeDetails(from: shifted)
        #expect(shiftDetails.moves.isEmpty && shiftDetails.changedIndexes == IndexSet(integersIn: 0..<4))
    }

    @Test("keyword and text search find by keyword, hierarchy level, title and caption, case-insensitively")
    func search() async throws {
        let library = try TestLibrary.open()
        let ids = try await TestLibrary.addPhotos(4, to: library)
        try await library.performChanges { changes in
            changes.setKeywords(["Places|France|Paris", "Family"], for: ids[0])
            changes.setKeywords(["Places|France", "Ünïcode"], for: ids[1])
            changes.setKeywords(["France|Lyon", "100%_real"], for: ids[2])
            changes.setTitle("Eiffel tower", for: ids[3])
            changes.setCaption("A weekend in PARIS", for: ids[3])
            changes.setRating(5, for: ids[3])
            changes.setRating(2, for: ids[0])
        }
        func found(_ predicate: AssetPredicate) throws -> [String] {
            try library.fetchAssets(FetchOptions(predicate: predicate)).allObjects().map(\.id)
        }
        #expect(try found(.keyword("paris")) == [ids[0]])
        #expect(try found(.keyword("FRANCE")) == [ids[0], ids[1], ids[2]])
        #expect(try found(.keyword("Places|France")) == [ids[0], ids[1]])
        #expect(try found(.keyword("France|Paris")) == [ids[0]])
        #expect(try found(.keyword("fam")) == [])
        #expect(try found(.keyword("ünïcode")) == [ids[1]])
        // Wildcards in the text are text
        #expect(try found(.keyword("100%_real")) == [ids[2]])
        #expect(try found(.keyword("100%")) == [])
        #expect(try found(.keyword("Paris|Family")) == [])
        #expect(try found(.metadataContains("paris")) == [ids[0], ids[3]])
        #expect(try found(.metadataContains("eiffel")) == [ids[3]])
        #expect(try found(.rating(.greaterThanOrEqual, 2)) == [ids[0], ids[3]])
        #expect(try found(.keyword("France") && !.keyword("Lyon")) == [ids[0], ids[1]])
    }

    @Test("invalid values are refused with a message naming the field, and nothing is changed", arguments: 0..<12)
    func validation(case index: Int) async throws {
        let library = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: library)[0]
        let before = try library.asset(id)
        let cases: [(String, (ChangeRequests) -> Void)] = [
            ("title", { $0.setTitle(String(repeating: "a", count: 501), for: id) }),
            ("title", { $0.setTitle("two\nlines", for: id) }),
            ("caption", { $0.setCaption(String(repeating: "a", count: 5001), for: id) }),
            ("keyword", { $0.setKeywords(["ok", "Places||Paris"], for: id) }),
            ("keyword", { $0.addKeywords([String(repeating: "k", count: 201)], to: [id]) }),
            ("keywords", { $0.setKeywords((0...200).map { "k\($0)" }, for: id) }),
            ("rating", { $0.setRating(6, for: id) }),
            ("time zone", { $0.setCreationDate(Date(), offset: 15 * 3600, for: id) }),
            ("minutes", { $0.setCreationDate(Date(), offset: 3601, for: id) }),
            ("capture date", { $0.setCreationDate(Date(timeIntervalSince1970: .infinity), offset: nil, for: id) }),
            ("latitude", { $0.setLocation(GPSLocation(unchecked: 91, 0), for: id) }),
            ("altitude", { $0.setLocation(GPSLocation(unchecked: 10, 10, .nan), for: id) }),
        ]
        let (field, request) = cases[index]
        do {
            try await library.performChanges { changes in
                changes.setTitle("kept out", for: id)
                request(changes)
            }
            Issue.record("the change should have been refused")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains(field), "\(error.description)")
        }
        #expect(try library.asset(id) == before)
    }

    @Test("a library written before user metadata existed migrates: the file's values are its current ones")
    func migrationOfExistingLibrary() async throws {
        // Given a library whose schema stops at v4, with one asset written by that schema
        let folder = TestLibrary.temporaryFolder()
        let inserted = """
            INSERT INTO asset (localIdentifier, mediaType, pixelWidth, pixelHeight, creationDate, creationDateOffset,
              creationDateSource, localYear, localMonth, modificationDate, addedDate, latitude, longitude, altitude,
              isFavorite, isHidden, originalFilename, contentHash, originalFormat, originalByteCount, originalOrientation,
              originalWidth, originalHeight)
            VALUES ('old-asset', 1, 4, 3, 1500000000, 3600, 'capture', 2017, 7, 1500000000, 1500000000, 38.7, -9.1, NULL,
              FALSE, FALSE, 'old.jpg', 'feedface', 'jpeg', 10, 1, 4, 3)
            """
        if case .postgreSQL(let location) = TestLibrary.database(for: folder) {
            let old = try PostgresDatabase(
                location: location, migrations: Array(PostgresDatabase.libraryMigrations.prefix(4)), announcesChanges: false)
            try old.write { db in _ = try db.execute(inserted, []) }

        } else {
            let queue = try DatabaseQueue(path: folder + "/library.sqlite")
            try SQLiteDatabase.migrator.migrate(queue, upTo: "v4: media and resources")
            try queue.inDatabase { db in try db.execute(sql: inserted) }
            try queue.close()
        }

        // When it is opened by this version
        let library = try TestLibrary.open(at: folder)
        let asset = try library.asset("old-asset")

        // Then the asset has no user metadata, and its file values are what it had
        #expect(asset.userMetadata.isEmpty)
        #expect(asset.fileMetadata?.creationDate == Date(timeIntervalSince1970: 1_500_000_000))
        #expect(asset.fileMetadata?.creationDateOffset == 3600 && asset.fileMetadata?.creationDateSource == .capture)
        #expect(asset.fileMetadata?.location == GPSLocation(latitude: 38.7, longitude: -9.1))
        // And it can be edited, searched and reverted like any other
        try await library.performChanges { changes in
            changes.setKeywords(["Old"], for: "old-asset")
            changes.setCreationDate(Date(timeIntervalSince1970: 0), offset: nil, for: "old-asset")
        }
        #expect(try library.fetchAssets(FetchOptions(predicate: .keyword("old"))).count == 1)
        try await library.performChanges { $0.revertCreationDate(of: ["old-asset"]) }
        #expect(try library.asset("old-asset").creationDate == Date(timeIntervalSince1970: 1_500_000_000))
        library.close()
    }
}

extension GPSLocation {
    /// A location with any numbers, as a decoded request might carry, to test the library's own checks.
    init(unchecked latitude: Double, _ longitude: Double, _ altitude: Double? = nil) {
        let json = #"{"latitude":\#(latitude),"longitude":\#(longitude)}"#
        var location = try! JSONDecoder().decode(GPSLocation.self, from: Data(json.utf8))
        location.altitude = altitude
        self = location
    }
}
