import Foundation
import GRDB
import SepiaCodecs
import Testing

@testable import SepiaLibrary

/// One search box: words over titles, captions, keywords, file names, cameras, places, albums and people, case and
/// accents folded and as prefixes; kinds and dates; the index kept by the commit that changes an asset; an older
/// library indexed when opened; suggestions. On SQLite, and on PostgreSQL when the suites run there.
@Suite struct SearchTests {
    static func found(_ library: PhotoLibrary, _ text: String) throws -> Set<String> {
        let result = try library.search(text)
        return Set(try result.objects(in: 0..<result.count).map(\.id))
    }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("words, kinds and dates find what they name, folded and as prefixes, all of them at once")
    func wordsKindsAndDates() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await PlacesTests.addPhotos(at: [PlacesTests.lisbon, PlacesTests.munich, nil, PlacesTests.porto], to: library)
        try await library.performChanges { changes in
            changes.setTitle("Dinner with Julià", for: ids[0])
            changes.setCaption("The tram up to the castle with Søren", for: ids[1])
            changes.setKeywords(["Places|Beach", "Família"], for: ids[2])
            changes.setCreationDate(Self.date("2023-06-14T20:00:00Z"), offset: 3600, for: ids[0])
            changes.setCreationDate(Self.date("2023-07-02T09:00:00Z"), offset: 7200, for: ids[1])
            changes.setCreationDate(Self.date("2022-12-30T09:00:00Z"), offset: 0, for: ids[2])
            changes.setCreationDate(Self.date("2023-06-14T23:30:00Z"), offset: -7200, for: ids[3])
            changes.setFavorite(true, for: ids[1])
            let album = changes.createAlbum(title: "Summer in Portugal")
            changes.addAssets([ids[3]], to: album.localIdentifier)
        }
        // Case, accents, prefixes
        #expect(try Self.found(library, "julia") == [ids[0]])
        #expect(try Self.found(library, "JULIÀ") == [ids[0]])
        #expect(try Self.found(library, "juli") == [ids[0]])
        // Three letters of a month name are the month
        #expect(try Self.found(library, "jul") == [ids[1]])
        #expect(try Self.found(library, "familia") == [ids[2]])
        #expect(try Self.found(library, "beach") == [ids[2]])
        // Letters that do not decompose are typed as their Latin ones
        #expect(try Self.found(library, "soren") == [ids[1]])
        // File names, split at their punctuation
        #expect(try Self.found(library, "place-2.jpg") == [ids[2]])
        // Places, by city, region or country
        #expect(try Self.found(library, "lisbon") == [ids[0]])
        #expect(try Self.found(library, "portugal") == [ids[0], ids[3]])
        #expect(try Self.found(library, "bavaria") == [ids[1]])
        // An album's name finds its photos
        #expect(try Self.found(library, "summer in") == [ids[3]])
        // Every word must hold
        #expect(try Self.found(library, "portugal julia") == [ids[0]])
        #expect(try Self.found(library, "tram nothing") == [])
        // Kinds
        #expect(try Self.found(library, "favorites") == [ids[1]])
        #expect(try Self.found(library, "munich favourite photo") == [ids[1]])
        #expect(try Self.found(library, "videos") == [])
        // Dates in the place they were taken: a year, a month, a day, a season
        #expect(try Self.found(library, "2023") == [ids[0], ids[1], ids[3]])
        #expect(try Self.found(library, "june 2023") == [ids[0], ids[3]])
        #expect(try Self.found(library, "2023-06-14") == [ids[0], ids[3]])
        #expect(try Self.found(library, "2023-06-15") == [])
        #expect(try Self.found(library, "summer 2023") == [ids[0], ids[1], ids[3]])
        #expect(try Self.found(library, "winter 2022") == [ids[2]])
        #expect(try Self.found(library, "december") == [ids[2]])
        #expect(try Self.found(library, "portugal june") == [ids[0], ids[3]])
        // Nothing asked finds nothing
        #expect(try Self.found(library, "  ") == [])
        // Newest first
        let ordered = try library.search("2023")
        #expect(try ordered.objects(in: 0..<ordered.count).map(\.id) == [ids[1], ids[3], ids[0]])
    }

    @Test("the commit that changes an asset changes what finds it; deleted assets are found no more")
    func keptByCommits() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(2, to: library)
        try await library.performChanges { $0.setTitle("Sunset over the river", for: ids[0]) }
        #expect(try Self.found(library, "sunset") == [ids[0]])
        try await library.performChanges { $0.setTitle("Sunrise", for: ids[0]) }
        #expect(try Self.found(library, "sunset") == [])
        #expect(try Self.found(library, "sunrise") == [ids[0]])
        // A location given later brings its place's names
        try await library.performChanges { $0.setLocation(PlacesTests.lisbon, for: ids[1]) }
        #expect(try Self.found(library, "lisbon") == [ids[1]])
        // Recently Deleted is not searched; deleted for good, the document goes too
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        #expect(try Self.found(library, "sunrise") == [])
        try await library.performChanges { $0.deleteAssetsPermanently([ids[0]]) }
        #expect(try await library.check(verifyingHashes: false).problems.allSatisfy { !$0.contains("search index") })
        #expect(try library.rebuildSearchIndex() == 1)
    }

    @Test("people's names find their photos, unless the searcher may not see people")
    func people() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(2, to: library)
        var prints = SyntheticFaces(people: 1, seed: 5)
        let face = try library.recordFaces([prints.detected(0)], for: ids[1], algorithm: 1)[0]
        try library.assignFace(face.id, toPersonNamed: "Ana Sofía")
        #expect(try Self.found(library, "sofia") == [ids[1]])
        let hidden = try library.search("sofia", matchingPeople: false)
        #expect(hidden.count == 0)
        let suggestions = try library.searchSuggestions(for: "ana so")
        #expect(suggestions.word == "so" && suggestions.people.map(\.name) == ["Ana Sofía"])
    }

    @Test("a saved search keeps its title and query, finds what the query finds now, and survives reopening; bad ones are refused")
    func savedSearches() async throws {
        let path = TestLibrary.temporaryFolder()
        var library = try TestLibrary.open(at: path)
        let ids = try await PlacesTests.addPhotos(at: [PlacesTests.lisbon, nil], to: library)
        let saved = try library.saveSearch(title: "  Lisbon trips ", query: "lisbon ")
        #expect(saved.title == "Lisbon trips" && saved.query == "lisbon")
        #expect(try Self.found(library, saved.query) == [ids[0]])
        try await library.performChanges { $0.setLocation(PlacesTests.lisbon, for: ids[1]) }
        #expect(try Self.found(library, library.savedSearch(saved.id).query) == Set(ids))
        try library.updateSavedSearch(saved.id, title: "Lisboa")
        library.close()
        library = try TestLibrary.open(at: path)
        defer { library.close() }
        #expect(try library.savedSearches().map(\.title) == ["Lisboa"])
        #expect(throws: LibraryError.self) { try library.saveSearch(title: "", query: "x") }
        #expect(throws: LibraryError.self) { try library.saveSearch(title: "Nothing", query: "  ") }
        #expect(throws: LibraryError.self) { try library.saveSearch(title: "Long", query: String(repeating: "a", count: 201)) }
        try library.deleteSavedSearch(saved.id)
        #expect(try library.savedSearches().isEmpty)
        #expect(throws: LibraryError.self) { try library.deleteSavedSearch(saved.id) }
    }

    @Test("suggestions offer places, keywords and albums for the last word typed")
    func suggestions() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await PlacesTests.addPhotos(at: [PlacesTests.lisbon, PlacesTests.lisbon, PlacesTests.munich], to: library)
        try await library.performChanges { changes in
            changes.setKeywords(["Places|Lighthouse", "Lisbon trip"], for: ids[0])
            let album = changes.createAlbum(title: "Lisbon 2023")
            changes.addAssets([ids[1]], to: album.localIdentifier)
        }
        let lis = try library.searchSuggestions(for: "beach LIS")
        #expect(lis.word == "lis")
        #expect(lis.places.map(\.name) == ["Lisbon"] && lis.places[0].assetCount == 2 && lis.places[0].placeID != nil)
        #expect(lis.keywords == ["Lisbon trip"])
        #expect(lis.albums.map(\.title) == ["Lisbon 2023"])
        let ger = try library.searchSuggestions(for: "ger")
        #expect(ger.places.map(\.name) == ["Germany"] && ger.places[0].placeID == nil && ger.places[0].countryCode == "DE")
        #expect(try library.searchSuggestions(for: "li", albums: []).albums.isEmpty)
        #expect(try library.searchSuggestions(for: "   ").word == "")
    }

    @Test("suggested keywords follow the library: counted, accents folded into one, most carried first; added, hidden, deleted")
    func keywordSuggestionsFollowChanges() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await TestLibrary.addPhotos(4, to: library)
        try await library.performChanges { changes in
            changes.setKeywords(["Café", "Places|Cascais"], for: ids[0])
            changes.setKeywords(["Cafe"], for: ids[1])
            changes.setKeywords(["Cafe", "Cat"], for: ids[2])
        }
        // Café twice as Cafe, once as Café: one keyword, as most write it; then Cascais and Cat once each.
        #expect(try library.searchSuggestions(for: "ca").keywords == ["Cafe", "Cascais", "Cat"])
        try await library.performChanges { $0.setKeywords(["Cat", "Castle"], for: ids[3]) }
        #expect(try library.searchSuggestions(for: "ca").keywords == ["Cafe", "Cat", "Cascais", "Castle"])
        // A hidden photo's keywords are not offered, nor those of a photo in Recently Deleted.
        try await library.performChanges { $0.setHidden(true, for: ids[3]) }
        #expect(try library.searchSuggestions(for: "cas").keywords == ["Cascais"])
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        #expect(try library.searchSuggestions(for: "cas").keywords.isEmpty)
        #expect(try library.searchSuggestions(for: "ca").keywords == ["Cafe", "Cat"])
    }

    @Test("counted keywords answer until the library changes; in a large library a while longer, twenty times their count's time, 30 s at most")
    func keywordCountsFreshness() {
        let now = ContinuousClock.now
        let small = KeywordCounts(generation: 7, entries: [], photos: 9_999, counted: now, duration: .seconds(1))
        #expect(small.isFresh(at: 7, now: now + .seconds(3_600)))
        #expect(!small.isFresh(at: 8, now: now + .milliseconds(1)))
        let large = KeywordCounts(generation: 7, entries: [], photos: 10_000, counted: now, duration: .milliseconds(200))
        #expect(large.isFresh(at: 8, now: now + .seconds(3)) && !large.isFresh(at: 8, now: now + .seconds(5)))
        let slowest = KeywordCounts(generation: 7, entries: [], photos: 50_000, counted: now, duration: .seconds(10))
        #expect(slowest.isFresh(at: 9, now: now + .seconds(29)) && !slowest.isFresh(at: 9, now: now + .seconds(31)))
    }

    @Test("a search pages through the dates or through its matches, whichever reads fewer: the same photos, in the same order, as its fetch")
    func commonWordPages() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let ids = try await PlacesTests.addPhotos(at: Array(repeating: nil, count: 30), to: library, seed: 700)
        // 26 harbours, one hidden and one in Recently Deleted; two share a date, which the row key then orders
        try await library.performChanges { changes in
            changes.setTitle("Harbour at dawn", for: Array(ids.prefix(26)))
            changes.setHidden(true, for: ids[0])
            changes.deleteAssets([ids[1]])
            changes.setCreationDate(Self.date("2021-05-01T10:00:00Z"), offset: 0, for: [ids[4], ids[9]])
        }
        // Pages of 4: 24 matches of 28 visible photos (24² > 5 × 28) walk the dates' index on SQLite
        try Self.expectPagesMatchFetch(library, "harb dawn", count: 24, limit: 4)
        // Three lighthouses in pages of one: 3² ≤ 2 × 28, the matches are listed (kept from walking on PostgreSQL)
        try await library.performChanges { changes in changes.setTitle("Lighthouse", for: [ids[27], ids[28], ids[29]]) }
        try Self.expectPagesMatchFetch(library, "lighth", count: 3, limit: 1)
    }

    /// Whether the pages of a search, newest first and oldest first, give its `count` photos as its fetch does.
    static func expectPagesMatchFetch(
        _ library: PhotoLibrary, _ text: String, count: Int, limit: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for ascending in [false, true] {
            var options = FetchOptions()
            options.predicate = try library.predicate(for: SearchQuery(text))
            options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: ascending)]
            let fetched = try library.fetchAssets(options)
            let expected = try fetched.objects(in: 0..<fetched.count).map(\.id)
            var paged: [String] = []
            var cursor: AssetCursor?
            repeat {
                let page = try library.fetchAssetPage(options: options, after: cursor, limit: limit)
                #expect(page.total == count, sourceLocation: sourceLocation)
                paged += page.assets.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil && paged.count <= count
            #expect(expected.count == count && paged == expected, "ascending: \(ascending)", sourceLocation: sourceLocation)
        }
    }

    @Test("a library written before search is indexed when it is opened")
    func olderLibrary() async throws {
        let folder = TestLibrary.temporaryFolder()
        let inserted = """
            INSERT INTO asset (localIdentifier, mediaType, pixelWidth, pixelHeight, creationDate, creationDateOffset,
              creationDateSource, localYear, localMonth, modificationDate, addedDate, isFavorite, isHidden, originalFilename,
              contentHash, originalFormat, originalByteCount, originalOrientation, originalWidth, originalHeight, title)
            VALUES ('old-asset', 1, 4, 3, 1500000000, 3600, 'capture', 2017, 7, 1500000000, 1500000000, FALSE, FALSE,
              'old.jpg', 'feedface', 'jpeg', 10, 1, 4, 3, 'Grandmother''s garden')
            """
        if case .postgreSQL(let location) = TestLibrary.database(for: folder) {
            let old = try PostgresDatabase(
                location: location, migrations: Array(PostgresDatabase.libraryMigrations.prefix(10)), announcesChanges: false)
            try old.write { db in _ = try db.execute(inserted, []) }
        } else {
            let queue = try DatabaseQueue(path: folder + "/library.sqlite")
            try SQLiteDatabase.migrator.migrate(queue, upTo: "v10: places")
            try queue.inDatabase { db in try db.execute(sql: inserted) }
            try queue.close()
        }
        let library = try TestLibrary.open(at: folder)
        defer { library.close() }
        #expect(try Self.found(library, "grandmother garden") == ["old-asset"])
    }
}
