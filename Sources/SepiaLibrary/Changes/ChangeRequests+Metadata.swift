public import Foundation
public import SepiaCodecs

/// What a metadata change request does to each asset it names.
enum MetadataEdit: Sendable, Hashable {
    case title(String?)
    case caption(String?)
    case setKeywords([String])
    case addKeywords([String])
    case removeKeywords([String])
    case rating(Int)
    case userMetadata(UserMetadata)
    case creationDate(Date, offset: Int?)
    /// Moves the local date and time by an interval; with an offset, the result is read in that time zone.
    case shiftCreationDate(by: TimeInterval, offset: Int?)
    case revertCreationDate
    case location(GPSLocation?)
    case revertLocation
}

// Photos' Info panel and Adjust Date & Time. Each request names one asset or a selection; it is checked when
// the change block commits, and an invalid value (too long, out of range, not finite) fails the whole block
// with a ``LibraryError`` that says which field is wrong. The file's own date, time zone and location stay
// recorded beside edited ones (``Asset/fileMetadata``), so edits can be reverted.
extension ChangeRequests {
    // MARK: Title, caption, keywords, rating

    /// Sets or clears (nil or empty) the title of assets. At most ``UserMetadata/maximumTitleLength``
    /// characters, one line.
    public func setTitle(_ title: String?, for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .title(title)))
    }

    /// Sets or clears (nil or empty) an asset's title.
    public func setTitle(_ title: String?, for assetID: String) {
        setTitle(title, for: [assetID])
    }

    /// Sets or clears (nil or empty) the caption of assets. At most ``UserMetadata/maximumCaptionLength``
    /// characters; line breaks are kept.
    public func setCaption(_ caption: String?, for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .caption(caption)))
    }

    /// Sets or clears (nil or empty) an asset's caption.
    public func setCaption(_ caption: String?, for assetID: String) {
        setCaption(caption, for: [assetID])
    }

    /// Replaces the keywords of assets (an empty list clears them). Duplicates, compared case-insensitively,
    /// are dropped; see ``UserMetadata/validKeyword(_:)`` for what a keyword may be.
    public func setKeywords(_ keywords: [String], for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .setKeywords(keywords)))
    }

    /// Replaces an asset's keywords.
    public func setKeywords(_ keywords: [String], for assetID: String) {
        setKeywords(keywords, for: [assetID])
    }

    /// Appends keywords to each asset that lacks them (compared case-insensitively); the ones it has keep their
    /// place and spelling.
    public func addKeywords(_ keywords: [String], to assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .addKeywords(keywords)))
    }

    /// Removes keywords from assets, compared case-insensitively; keywords an asset lacks are ignored.
    public func removeKeywords(_ keywords: [String], from assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .removeKeywords(keywords)))
    }

    /// Sets the rating of assets: 0 (none) to 5 stars.
    public func setRating(_ rating: Int, for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .rating(rating)))
    }

    /// Sets an asset's rating.
    public func setRating(_ rating: Int, for assetID: String) {
        setRating(rating, for: [assetID])
    }

    /// Sets the title, caption, keywords and rating of an asset at once, as an importer reading a sidecar
    /// does. Fields nil or empty in `metadata` are cleared.
    public func setUserMetadata(_ metadata: UserMetadata, for assetID: String) {
        record(.editMetadata(assetIDs: [assetID], .userMetadata(metadata)))
    }

    // MARK: Date, time and time zone

    /// Sets the capture date of an asset (Photos' Adjust Date & Time): the moment, and its offset from GMT in
    /// seconds when the time zone is known (nil: unknown, shown as UTC). The offset is whole minutes within
    /// ±14 hours; the date is between the years 1800 and 9999. The asset moves to its new place in every
    /// fetch result sorted by date and in the timeline.
    public func setCreationDate(_ date: Date, offset: Int? = nil, for assetID: String) {
        setCreationDate(date, offset: offset, for: [assetID])
    }

    /// Gives several assets the same capture date and time zone.
    public func setCreationDate(_ date: Date, offset: Int?, for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .creationDate(date, offset: offset)))
    }

    /// Shifts the capture dates of a selection by the same interval (Photos' Adjust Date & Time for several
    /// photos): each asset's local date and time moves by `interval` seconds. Without `offset` each keeps its
    /// own time zone, so its moment moves by `interval` too; with `offset` (seconds from GMT) the shifted local
    /// times are read in that time zone, which every asset then has.
    ///
    /// ```swift
    /// // The camera's clock was an hour behind, and the photos were taken in Tokyo.
    /// try await library.performChanges { $0.shiftCreationDates(of: ids, by: 3600, offset: 9 * 3600) }
    /// ```
    public func shiftCreationDates(of assetIDs: [String], by interval: TimeInterval, offset: Int? = nil) {
        record(.editMetadata(assetIDs: assetIDs, .shiftCreationDate(by: interval, offset: offset)))
    }

    /// Gives assets back the capture date and time zone their original files carry.
    public func revertCreationDate(of assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .revertCreationDate))
    }

    // MARK: Location

    /// Sets or removes (nil) an asset's location.
    public func setLocation(_ location: GPSLocation?, for assetID: String) {
        setLocation(location, for: [assetID])
    }

    /// Sets or removes (nil) the location of assets. Latitude −90…90, longitude −180…180, altitude (optional)
    /// −11000…100000 metres, all finite.
    public func setLocation(_ location: GPSLocation?, for assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .location(location)))
    }

    /// Gives assets back the location their original files carry (none if they carry none).
    public func revertLocation(of assetIDs: [String]) {
        record(.editMetadata(assetIDs: assetIDs, .revertLocation))
    }
}
