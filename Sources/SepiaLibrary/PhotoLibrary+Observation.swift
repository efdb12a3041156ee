extension PhotoLibrary {
    /// What changed in `result` since it was made (PhotoKit's `PHChange.changeDetails(for:)`). The details
    /// are empty when nothing the result shows changed.
    public func changeDetails<Object>(from result: FetchResult<Object>) throws(LibraryError) -> FetchResultChangeDetails<Object> {
        let snapshot = try result.source.refetch()
        let after = FetchResult(rowIDs: snapshot.rowIDs, generation: snapshot.generation, source: result.source)
        guard result.source.wantsIncrementalChangeDetails, let log = try store.changes(after: result.generation) else {
            return FetchResultChangeDetails(before: result, after: after, diff: nil)
        }
        let updated = result.source.changedKeys(log)
        let diff = ChangeDiff.compute(before: result.rowIDs, after: snapshot.rowIDs, updated: updated)
        after.seed(from: result, excluding: updated)
        return FetchResultChangeDetails(before: result, after: after, diff: diff)
    }

    /// The changes of a fetch result as they happen, made by this process or any other that has the library
    /// open (PhotoKit's change observer). Each element describes the changes since the previous one; apply it
    /// and keep its ``FetchResultChangeDetails/fetchResultAfterChanges``. Elements are never empty; commits
    /// that do not touch the result are skipped. The stream ends when the task iterating it is cancelled or
    /// the library is closed.
    public func changes<Object>(for result: FetchResult<Object>) -> AsyncStream<FetchResultChangeDetails<Object>> {
        let (ticks, token) = monitor.subscribe()
        let monitor = self.monitor
        return AsyncStream { continuation in
            let task = Task { [weak self] in
                var current = result
                func update() {
                    guard let self, let details = try? self.changeDetails(from: current) else { return }
                    current = details.fetchResultAfterChanges
                    if !details.isEmpty { continuation.yield(details) }
                }
                // Commits between the fetch and the subscription.
                if let generation = try? self?.store.currentGeneration(), generation > current.generation { update() }
                for await generation in ticks where generation > current.generation {
                    update()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                monitor.unsubscribe(token)
            }
        }
    }

    /// Every commit to the library, by this process or another: the generation it reached. Useful to refresh
    /// views that are not fetch results (counts, the timeline).
    public func commits() -> AsyncStream<Int64> {
        let (ticks, token) = monitor.subscribe()
        let monitor = self.monitor
        return AsyncStream { continuation in
            let task = Task {
                for await generation in ticks { continuation.yield(generation) }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                monitor.unsubscribe(token)
            }
        }
    }
}
