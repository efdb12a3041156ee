import Foundation

/// Smart albums from searches: a search the user keeps, by title, whose photos are whatever its query finds now
/// (``SavedSearch``). A library keeps at most ``SavedSearch/maximumCount``.
extension PhotoLibrary {
    /// The saved searches, newest first.
    public func savedSearches() throws(LibraryError) -> [SavedSearch] {
        try store.savedSearches()
    }

    /// The saved search `id`.
    /// - Throws: ``LibraryError`` `.notFound` when there is none.
    public func savedSearch(_ id: String) throws(LibraryError) -> SavedSearch {
        guard let found = try savedSearches().first(where: { $0.id == id }) else {
            throw LibraryError(.notFound, "no saved search has this identifier; `sepia search --saved` lists them", subject: id)
        }
        return found
    }

    /// Keeps `query` as a smart album titled `title`.
    /// - Throws: ``LibraryError`` `.invalidRequest` for an empty or too long title or query, a query that reads as
    ///   no term, or a library with ``SavedSearch/maximumCount`` saved searches.
    @discardableResult
    public func saveSearch(title: String, query: String) throws(LibraryError) -> SavedSearch {
        let search = SavedSearch(
            id: ChangeRequests.newIdentifier(), title: try Self.validSearchTitle(title), query: try Self.validSearchQuery(query),
            creationDate: Date())
        guard try store.insertSavedSearch(search, limit: SavedSearch.maximumCount) else {
            throw LibraryError(
                .invalidRequest, "the library has \(SavedSearch.maximumCount) saved searches, the most it keeps; delete one to save another")
        }
        noteChange()
        return search
    }

    /// Renames the saved search `id`, or gives it another query (nil keeps what it has).
    @discardableResult
    public func updateSavedSearch(_ id: String, title: String? = nil, query: String? = nil) throws(LibraryError) -> SavedSearch {
        var search = try savedSearch(id)
        if let title { search.title = try Self.validSearchTitle(title) }
        if let query { search.query = try Self.validSearchQuery(query) }
        guard try store.updateSavedSearch(search) else { return try savedSearch(id) }
        noteChange()
        return search
    }

    /// Deletes the saved search `id` (its photos stay where they are).
    /// - Throws: ``LibraryError`` `.notFound` when there is none.
    public func deleteSavedSearch(_ id: String) throws(LibraryError) {
        guard try store.deleteSavedSearch(id: id) else {
            throw LibraryError(.notFound, "no saved search has this identifier", subject: id)
        }
        noteChange()
    }

    static func validSearchTitle(_ title: String) throws(LibraryError) -> String {
        guard let valid = try UserMetadata.validTitle(title) else {
            throw LibraryError(.invalidRequest, "a smart album needs a title")
        }
        return valid
    }

    static func validSearchQuery(_ query: String) throws(LibraryError) -> String {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= SavedSearch.maximumQueryLength else {
            throw LibraryError(
                .invalidRequest, "a search can have at most \(SavedSearch.maximumQueryLength) characters; this one has \(trimmed.count)")
        }
        guard !SearchQuery(trimmed).terms.isEmpty else {
            throw LibraryError(.invalidRequest, "the search finds nothing to look for; give it words, kinds or dates")
        }
        return trimmed
    }
}
