extension PhotoLibrary {
    /// The latest change-log generation: every commit by any process raises it.
    public func currentGeneration() throws(LibraryError) -> Int64 {
        try store.currentGeneration()
    }

    /// The change-log entries after `generation`, oldest first, at most `limit` of them; nil when the log no
    /// longer reaches back that far (it keeps the newest 200 000 entries), so a reader must start over.
    public func changeLog(after generation: Int64, limit: Int = 1000) throws(LibraryError) -> [LibraryChange]? {
        try store.changeLog(after: generation, limit: max(1, limit))
    }
}
