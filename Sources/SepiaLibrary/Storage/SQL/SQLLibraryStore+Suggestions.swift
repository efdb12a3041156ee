import Synchronization

/// The keywords the library's visible photos and videos carry, each with how many carry it: what suggestions offer
/// for a word, counted once per change of the library rather than on every keystroke.
struct KeywordCounts: Sendable {
    /// A keyword (the last part of a hierarchical one, "Places|Lisbon" → "Lisbon"), its folded words, and the
    /// visible photos and videos that carry it.
    struct Entry: Sendable {
        var keyword: String
        var words: [String]
        var count: Int
    }

    /// The change generation they were counted at.
    var generation: Int64
    /// The keywords, the most carried first.
    var entries: [Entry]
    /// The visible photos and videos with keywords that were counted.
    var photos: Int
    /// When they were counted, and how long that took.
    var counted: ContinuousClock.Instant
    var duration: Duration

    /// The most sets of keywords read: the most common ones, so that a library whose every photo has keywords of
    /// its own cannot make a count hold millions of them.
    static let maximumKeywordSets = 20_000
    /// Counts of this many photos or more are used for a while after the library changes (see ``isFresh(at:now:)``).
    static let largeLibrary = 10_000

    /// Whether these counts may answer at `generation`: those of that generation may. In a large library older ones
    /// may too, for twenty times as long as counting took (at most 30 s): while the library changes all the time
    /// (a server that imports), counting then takes at most a twentieth of the time of whoever types, and a new
    /// keyword is offered a moment later. (Not in a small one, whose count is cheap, whatever the machine's load.)
    func isFresh(at generation: Int64, now: ContinuousClock.Instant) -> Bool {
        generation == self.generation || (photos >= Self.largeLibrary && now - counted < min(duration * 20, .seconds(30)))
    }
}

extension SQLLibraryStore {
    // MARK: - Names a word may match

    func albums(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, title: String)] {
        let rows = try readStatement { db in try db.fetch("SELECT localIdentifier, title FROM album ORDER BY position") }
        return Self.matching(word, rows.map { (id: $0[0] as String, title: $0[1] as String) }, limit: limit) { $0.title }
    }

    func people(matchingWord word: String, limit: Int) throws(LibraryError) -> [(id: String, name: String)] {
        let rows = try readStatement { db in
            try db.fetch("SELECT localIdentifier, name FROM person WHERE name IS NOT NULL AND isHidden = FALSE ORDER BY assetCount DESC")
        }
        return Self.matching(word, rows.map { (id: $0[0] as String, name: $0[1] as String) }, limit: limit) { $0.name }
    }

    func places(matchingWord word: String, limit: Int) throws(LibraryError) -> [PlaceSuggestion] {
        // The names are matched in the few rows of `place`; the matches' photos are then counted in one query, by
        // place, through the index of placed assets: a country's count is the sum of its places'. (A query per
        // city and country took a round trip each: a one-letter word matches a hundred places.)
        try read { db in
            var cities: [PlaceSuggestion] = []
            var countries: [String: (name: String, places: [Int64])] = [:]
            let rows = try db.fetch("SELECT id, city, country, countryCode FROM place")
            foldedPlaceNames.withLock { folded in
                func matches(_ name: String) -> Bool {
                    if let words = folded[name] { return words.contains { $0.hasPrefix(word) } }
                    let words = SearchText.words(name)
                    folded[name] = words
                    return words.contains { $0.hasPrefix(word) }
                }
                for row in rows {
                    let (id, city, country, code): (Int64, String, String, String) = (row[0], row[1], row[2], row[3])
                    if matches(city) {
                        cities.append(PlaceSuggestion(name: city, country: country, placeID: Int(id), countryCode: code, assetCount: 0))
                    }
                    if matches(country) { countries[code, default: (country, [])].places.append(id) }
                }
            }
            let placeIDs = Set(cities.compactMap { $0.placeID.map(Int64.init) } + countries.values.flatMap(\.places))
            guard !placeIDs.isEmpty else { return [] }
            var counts: [Int64: Int] = [:]
            for row in try db.fetch(
                """
                SELECT a.placeID, count(*) FROM asset a
                WHERE \(db.dialect.inList("a.placeID")) AND a.trashedDate IS NULL AND a.isHidden = FALSE GROUP BY a.placeID
                """, [SQLValue.integers(placeIDs.sorted())])
            {
                counts[row[0] as Int64] = row[1] as Int
            }
            for index in cities.indices { cities[index].assetCount = counts[Int64(cities[index].placeID ?? 0)] ?? 0 }
            var found = countries.map { code, country in
                PlaceSuggestion(
                    name: country.name, country: country.name, placeID: nil, countryCode: code,
                    assetCount: country.places.reduce(0) { $0 + (counts[$1] ?? 0) })
            }
            found.sort { $0.assetCount != $1.assetCount ? $0.assetCount > $1.assetCount : $0.name < $1.name }
            cities.sort { $0.assetCount != $1.assetCount ? $0.assetCount > $1.assetCount : $0.name < $1.name }
            return Array((found + cities).filter { $0.assetCount > 0 }.prefix(limit))
        }
    }

    func keywords(matchingWord word: String, limit: Int) throws(LibraryError) -> [String] {
        let counts = try keywordCounts()
        return counts.entries.lazy.filter { $0.words.contains { $0.hasPrefix(word) } }.prefix(limit).map(\.keyword)
    }

    /// The keywords of the visible photos and videos with their counts: the last ones counted while they are fresh
    /// (``KeywordCounts/isFresh(at:now:)``), else counted again. The change generation tells whether any asset
    /// changed (keywords, trash, hiding, imports and deletions are each logged as a change).
    ///
    /// The keyword sets are counted by the database (`GROUP BY`), so that each distinct set is read and folded once:
    /// 100 000 photos carry a few thousand sets. Hidden photos' keywords are not offered, as Photos offers nothing of
    /// its Hidden album.
    func keywordCounts() throws(LibraryError) -> KeywordCounts {
        let generation: Int64 = try readStatement { db in try db.value("SELECT coalesce(max(generation), 0) FROM change") ?? 0 }
        let known = keywordCountsCache.withLock { $0 }
        if let known, known.isFresh(at: generation, now: .now) { return known }
        let started = ContinuousClock.now
        let rows = try readStatement { db in
            // Every visible row is read: SQLite is told to read the table through, which it does in a third of the
            // time it took through the index of visible months, looking each row up (100 000 photos: 77 ms, 233).
            let asset = db.dialect == .sqlite ? "asset a NOT INDEXED" : "asset a"
            return try db.fetch(
                """
                SELECT a.keywords, count(*) FROM \(asset) WHERE a.keywords <> '' AND a.trashedDate IS NULL AND a.isHidden = FALSE
                GROUP BY a.keywords ORDER BY count(*) DESC LIMIT ?
                """, [KeywordCounts.maximumKeywordSets])
        }
        // Sets share their keywords: each is folded once, and counted under its folded words ("Cafe" and "Café" are
        // one keyword, offered as most photos write it).
        var folded: [Substring: [String]] = [:]
        var keywords: [String: (words: [String], spellings: [Substring: Int])] = [:]
        var photos = 0
        for row in rows {
            let (set, count): (String, Int) = (row[0], row[1])
            photos += count
            for keyword in set.split(separator: "\n") {
                let leaf = keyword.split(separator: "|").last ?? keyword
                let words: [String]
                if let known = folded[leaf] {
                    words = known
                } else {
                    words = SearchText.words(String(leaf))
                    folded[leaf] = words
                }
                guard !words.isEmpty else { continue }
                keywords[words.joined(separator: " "), default: (words, [:])].spellings[leaf, default: 0] += count
            }
        }
        let entries = keywords.values.map { words, spellings in
            let spelling = spellings.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }.map { String($0.key) }
            return KeywordCounts.Entry(keyword: spelling ?? words.joined(separator: " "), words: words, count: spellings.values.reduce(0, +))
        }
        let counts = KeywordCounts(
            generation: generation, entries: entries.sorted { $0.count != $1.count ? $0.count > $1.count : $0.keyword < $1.keyword },
            photos: photos, counted: started, duration: .now - started)
        keywordCountsCache.withLock { cached in
            // Another request may have counted a later generation meanwhile.
            if (cached?.generation ?? .min) <= generation { cached = counts }
        }
        return counts
    }

    /// Drops the counted keywords: the next suggestions count them again.
    func forgetKeywordCounts() {
        keywordCountsCache.withLock { $0 = nil }
    }

    /// Whether a word of `name` starts with `word` (both folded).
    static func matches(_ word: String, _ name: String) -> Bool {
        SearchText.words(name).contains { $0.hasPrefix(word) }
    }

    private static func matching<T>(_ word: String, _ items: [T], limit: Int, name: (T) -> String) -> [T] {
        Array(items.filter { matches(word, name($0)) }.prefix(limit))
    }
}
