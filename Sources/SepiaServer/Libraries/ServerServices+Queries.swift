extension ServerServices {
    /// How many searches, suggestions, map-marker, Places and Duplicates queries an account may run at once on one
    /// server: the web app's search box asks for a page and its suggestions together, and a map for its markers.
    static let maximumQueriesPerAccount = 4

    /// A slot for one query of a whole library (a search, suggestions, a map's markers, the Places album, the
    /// Duplicates view), to be closed when it is answered; a `429` with `Retry-After` when the account has
    /// ``maximumQueriesPerAccount`` running, so that no credential, however cheap, can make a server read its
    /// library more than that many times at once.
    func admitQuery(for identity: Identity) throws -> StreamSlots.Slot {
        guard let slot = libraryQueries.open(key: identity.user.id) else {
            throw APIError.tooManyRequests(
                "this account has \(Self.maximumQueriesPerAccount) searches or map, Places or Duplicates queries running, the most it may "
                    + "at once; try again when they have answered",
                retryAfter: 1)
        }
        return slot
    }
}
