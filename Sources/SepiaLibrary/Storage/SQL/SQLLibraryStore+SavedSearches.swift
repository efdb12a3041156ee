import Foundation

extension SQLLibraryStore {
    func savedSearches() throws(LibraryError) -> [SavedSearch] {
        try read { db in
            try db.fetch("SELECT localIdentifier, title, query, creationDate FROM savedSearch ORDER BY creationDate DESC, rowID DESC").map {
                SavedSearch(id: $0[0], title: $0[1], query: $0[2], creationDate: Date(timeIntervalSince1970: $0[3]))
            }
        }
    }

    /// Inserts `search`, unless the library has `limit` already; returns whether it did.
    func insertSavedSearch(_ search: SavedSearch, limit: Int) throws(LibraryError) -> Bool {
        try write { db in
            let count: Int = try db.value("SELECT count(*) FROM savedSearch") ?? 0
            guard count < limit else { return false }
            try db.execute(
                "INSERT INTO savedSearch (localIdentifier, title, query, creationDate) VALUES (?, ?, ?, ?)",
                [search.id, search.title, search.query, search.creationDate.timeIntervalSince1970])
            return true
        }
    }

    /// Replaces the title and query of the saved search `search.id`; returns whether it exists.
    func updateSavedSearch(_ search: SavedSearch) throws(LibraryError) -> Bool {
        try write { db in
            let exists: Int = try db.value("SELECT count(*) FROM savedSearch WHERE localIdentifier = ?", [search.id]) ?? 0
            guard exists > 0 else { return false }
            try db.execute("UPDATE savedSearch SET title = ?, query = ? WHERE localIdentifier = ?", [search.title, search.query, search.id])
            return true
        }
    }

    /// Deletes the saved search `id`; returns whether it existed.
    func deleteSavedSearch(id: String) throws(LibraryError) -> Bool {
        try write { db in
            let exists: Int = try db.value("SELECT count(*) FROM savedSearch WHERE localIdentifier = ?", [id]) ?? 0
            try db.execute("DELETE FROM savedSearch WHERE localIdentifier = ?", [id])
            return exists > 0
        }
    }
}
