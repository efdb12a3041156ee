extension PhotoLibrary {
    /// The latest change-log generation: every commit by any process raises it.
    public func currentGeneration() throws(LibraryError) -> Int64 {
        try store.currentGeneration()
    }

    /// The newest change-log generation this process knows of, without reading the database: raised at once
    /// by this process's commits, and by the change monitor's polling (every
    /// ``LibraryConfiguration/changePollInterval``) for other processes' commits while anything observes the
    /// library. A cache of library objects stays valid while this stays the same.
    public var knownGeneration: Int64 { monitor.knownGeneration }

    /// The change-log entries after `generation`, oldest first, at most `limit` of them; nil when the log no
    /// longer reaches back that far (it keeps the newest 200 000 entries), so a reader must start over.
    public func changeLog(after generation: Int64, limit: Int = 1000) throws(LibraryError) -> [LibraryChange]? {
        try store.changeLog(after: generation, limit: max(1, limit))
    }
}
