public import Foundation

/// A group of assets in the timeline (PhotoKit's year and month collection lists): every visible asset taken
/// in one calendar year, or one month, in the place it was taken.
public struct CollectionList: Sendable, Hashable, Codable, Identifiable {
    /// A year or a month of the timeline.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// One calendar year.
        case year
        /// One calendar month.
        case month
    }

    /// `2024` or `2024-03`.
    public var id: String { month.map { String(format: "%04d-%02d", year, $0) } ?? String(format: "%04d", year) }
    /// Year or month.
    public var kind: Kind
    /// The calendar year.
    public var year: Int
    /// The month, 1–12, for month lists.
    public var month: Int?
    /// The number of visible assets.
    public var assetCount: Int
    /// How many of them are videos (the rest are photos), so that the group is counted as Photos counts it:
    /// "12 photos, 3 videos".
    public var videoCount = 0
    /// The earliest creation date in the group.
    public var startDate: Date
    /// The latest creation date in the group.
    public var endDate: Date

    /// "2024" or "March 2024".
    public var title: String {
        guard let month else { return String(year) }
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(names[month - 1]) \(year)"
    }
}
