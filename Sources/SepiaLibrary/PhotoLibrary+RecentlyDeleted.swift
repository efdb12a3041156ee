public import Foundation

extension PhotoLibrary {
    /// When `asset` leaves Recently Deleted for good: its deletion date plus the library's
    /// ``LibraryConfiguration/recentlyDeletedRetention``. Nil for an asset that is not there.
    public func purgeDate(of asset: Asset) -> Date? {
        asset.trashedDate.map { $0.addingTimeInterval(Self.seconds(configuration.recentlyDeletedRetention)) }
    }

    /// The days `asset` has left in Recently Deleted, as Photos counts them: 30 right after a deletion with the
    /// default retention, 1 during its last day, 0 once it is due to be purged. Nil for an asset that is not
    /// there.
    public func daysLeftInRecentlyDeleted(_ asset: Asset) -> Int? {
        guard let purge = purgeDate(of: asset) else { return nil }
        // Less a millisecond: dates are floating-point seconds, and an asset deleted exactly 29 days ago has 1
        // day left, not 2 because of a rounding error in the last digit.
        let remaining = purge.timeIntervalSince(configuration.clock()) - Self.dateSlack
        return remaining <= 0 ? 0 : Int((remaining / 86_400).rounded(.up))
    }

    /// How far apart two dates may be and still count as the same moment here (floating-point seconds).
    static let dateSlack: TimeInterval = 0.001

    /// Deletes for good every asset that has been in Recently Deleted for the library's
    /// ``LibraryConfiguration/recentlyDeletedRetention`` or longer (by its ``LibraryConfiguration/clock``), as
    /// ``ChangeRequests/deleteAssetsPermanently(_:)`` does: rows, edits, cached images, and the files no other
    /// asset names (at once in a library folder; from object storage by the next
    /// ``sweepStorage(olderThan:)``). Observers see nothing but the Recently Deleted smart album lose them.
    ///
    /// Safe to run at any moment, from any number of processes or servers sharing the library: each run deletes
    /// what is due when its transaction runs, so runs that overlap delete each asset once, and none fails for
    /// another's work.
    ///
    /// - Returns: The identifiers of the assets purged, oldest deletion first.
    /// - Throws: ``LibraryError`` when the database cannot be read or written; nothing is purged then.
    @discardableResult
    public func purgeRecentlyDeleted() throws(LibraryError) -> [String] {
        let cutoff = configuration.clock().addingTimeInterval(Self.dateSlack - Self.seconds(configuration.recentlyDeletedRetention))
        let result = try store.purgeRecentlyDeleted(deletedBefore: cutoff)
        guard !result.deletedAssetIDs.isEmpty else { return [] }
        didCommit(result)
        return result.deletedAssetIDs
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension LibraryConfiguration {
    /// ``recentlyDeletedRetention`` in days, as people are told it (a part of a day counts as one).
    public var recentlyDeletedDays: Int {
        Int((PhotoLibrary.seconds(recentlyDeletedRetention) / 86_400).rounded(.up))
    }
}
