/// One search box over everything the library knows of a photo (``SearchQuery``): its words match the search
/// index — titles, captions, keywords, file names, cameras and places, kept by the commit that changes them, in
/// SQLite's FTS5 or PostgreSQL's full-text search — and the names of albums and people; its kinds and dates are
/// predicates of their own. Results are fetches like any other: newest first unless the options say otherwise.
extension PhotoLibrary {
    /// The most albums, and people, one word may mean.
    static let namesPerWord = 50

    /// The predicate a search asks for, or nil when it asks for nothing. `people` is false for a credential that
    /// may not see who is in the library, so that their names find nothing.
    public func predicate(for query: SearchQuery, matchingPeople people: Bool = true) throws(LibraryError) -> AssetPredicate? {
        var result: AssetPredicate?
        for term in query.terms {
            let next: AssetPredicate
            switch term {
            case .word(let word):
                var either = AssetPredicate.text(word)
                let albums = try store.albums(matchingWord: word, limit: Self.namesPerWord)
                if !albums.isEmpty { either = either || .inAlbums(albums.map(\.id)) }
                if people {
                    for person in try store.people(matchingWord: word, limit: Self.namesPerWord) { either = either || .person(person.id) }
                }
                next = either
            case .kind(let kind):
                next =
                    switch kind {
                    case .photo: .mediaType(.image)
                    case .video: .mediaType(.video)
                    case .live: .mediaSubtypes(.photoLive)
                    case .raw: .isRAW
                    case .favorite: .isFavorite
                    case .edited: .hasAdjustments
                    case .screenshot: .mediaSubtypes(.photoScreenshot)
                    case .panorama: .mediaSubtypes(.photoPanorama)
                    }
            case .year(let year):
                next = .creationYear(year)
            case .month(let month, let year):
                next = year.map { .creationMonth(year: $0, month: month) } ?? .monthOfYear(month)
            case .day(let year, let month, let day):
                next = .localDay(year: year, month: month, day: day)
            case .season(let season, let year):
                let months: [AssetPredicate] = season.months.map { offset, month in
                    year.map { .creationMonth(year: $0 + offset, month: month) } ?? .monthOfYear(month)
                }
                next = months.dropFirst().reduce(months[0]) { $0 || $1 }
            }
            result = result.map { $0 && next } ?? next
        }
        return result
    }

    /// The photos and videos `text` finds, newest first unless `options` sorts otherwise; `options.predicate`,
    /// when set, must hold as well (a credential's albums, say). An empty search finds nothing.
    public func search(
        _ text: String, options: FetchOptions = FetchOptions(), matchingPeople people: Bool = true
    ) throws(LibraryError)
        -> FetchResult<Asset>
    {
        var options = options
        guard let found = try predicate(for: SearchQuery(text), matchingPeople: people) else {
            options.predicate = .identifiers([])
            return try fetchAssets(options)
        }
        options.predicate = options.predicate.map { $0 && found } ?? found
        if options.sortDescriptors.isEmpty { options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)] }
        return try fetchAssets(options)
    }

    /// What the search box offers for the last word of `text`: places, keywords, albums and people (when `people`)
    /// with a word starting with it, at most `limit` of each. `albums`, when given, limits the albums offered.
    public func searchSuggestions(
        for text: String, limit: Int = 5, matchingPeople people: Bool = true, albums allowed: [String]? = nil
    )
        throws(LibraryError) -> SearchSuggestions
    {
        guard let word = SearchQuery(text).words.last, !word.isEmpty else { return SearchSuggestions(word: "") }
        var suggestions = SearchSuggestions(word: word)
        let limit = max(1, min(limit, 20))
        suggestions.places = try store.places(matchingWord: word, limit: limit)
        suggestions.keywords = try store.keywords(matchingWord: word, limit: limit)
        suggestions.albums = try store.albums(matchingWord: word, limit: Self.namesPerWord)
            .filter { allowed?.contains($0.id) ?? true }.prefix(limit)
            .map { SearchSuggestions.AlbumSuggestion(id: $0.id, title: $0.title) }
        if people {
            suggestions.people = try store.people(matchingWord: word, limit: limit).map {
                SearchSuggestions.PersonSuggestion(id: $0.id, name: $0.name)
            }
        }
        return suggestions
    }

    /// Writes every asset's search document anew (after `sepia check` finds the index short); returns how many.
    @discardableResult
    public func rebuildSearchIndex() throws(LibraryError) -> Int {
        try store.rebuildSearchIndex()
    }
}
