/// What happened to one file of an import.
public struct ImportItemResult: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Added to the library.
        case imported
        /// Added to the item it completes: a Live Photo's still or movie that found its other part.
        case paired
        /// Its content is already in the library (same SHA-256), under another name or from another import.
        case duplicate
        /// Its content was in Recently Deleted: that photo was recovered (back in its albums), rather than kept
        /// there to be purged while the file was being added again.
        case recovered
        /// Imported before from this path, unchanged since: not read again.
        case alreadyImported
        /// Not a photo or video Sepia reads, or damaged: left out, with the reason.
        case skipped
        /// Could not be read or stored.
        case failed
    }

    /// The file.
    public var path: String
    /// The outcome.
    public var status: Status
    /// The asset it became or already was.
    public var assetID: String?
    /// Why it was skipped or failed.
    public var reason: String?
    /// The XMP sidecar whose rating, title, keywords, date, place or edit it was imported with, if any.
    public var sidecar: String? = nil
    /// What of its XMP (the sidecar's or the photo's own) was left out, and why; nil when nothing was.
    public var warnings: [String]? = nil
}

/// Progress of an import.
public struct ImportProgress: Sendable, Hashable {
    /// Files handled so far.
    public var completed: Int
    /// Files to handle.
    public var total: Int
}

/// The totals of an import.
public struct ImportSummary: Sendable, Hashable, Codable {
    /// Files added.
    public var imported = 0
    /// Files that joined the item they complete (a Live Photo's other part).
    public var paired = 0
    /// Files whose content was already in the library.
    public var duplicates = 0
    /// Files whose content was in Recently Deleted, recovered from there.
    public var recovered = 0
    /// Files imported before and unchanged.
    public var alreadyImported = 0
    /// Files left out as unsupported or damaged.
    public var skipped = 0
    /// Files that could not be read or stored.
    public var failed = 0
    /// Wall-clock seconds.
    public var seconds = 0.0

    /// Files handled.
    public var total: Int { imported + paired + duplicates + recovered + alreadyImported + skipped + failed }

    mutating func count(_ status: ImportItemResult.Status) {
        switch status {
        case .imported: imported += 1
        case .paired: paired += 1
        case .duplicate: duplicates += 1
        case .recovered: recovered += 1
        case .alreadyImported: alreadyImported += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        }
    }
}
