public import Foundation
public import SepiaCodecs

/// What a person says about an asset, as opposed to what its file carries: a title, a caption, keywords and a
/// rating (Photos' Info panel; XMP's `dc:title`, `dc:description`, `dc:subject` or `lr:hierarchicalSubject`,
/// and `xmp:Rating`). One value, so that an importer reading a sidecar can hand it over whole
/// (``ChangeRequests/setUserMetadata(_:for:)``) and an exporter can write it out.
public struct UserMetadata: Sendable, Hashable, Codable {
    /// A short name for the asset; nil when it has none.
    public var title: String?
    /// A longer description; nil when it has none.
    public var caption: String?
    /// Keywords in the order they were given, unique case-insensitively. A hierarchical keyword names its
    /// levels from the top, separated by `|` (`Places|France|Paris`, as Lightroom writes them).
    public var keywords: [String]
    /// Stars from 0 (not rated) to 5.
    public var rating: Int

    /// Creates user metadata; nothing is set by default.
    public init(title: String? = nil, caption: String? = nil, keywords: [String] = [], rating: Int = 0) {
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.rating = rating
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { title == nil && caption == nil && keywords.isEmpty && rating == 0 }

    /// The longest title, in characters.
    public static let maximumTitleLength = 500
    /// The longest caption, in characters.
    public static let maximumCaptionLength = 5000
    /// The longest keyword, in characters (all its levels together).
    public static let maximumKeywordLength = 200
    /// The most keywords an asset can have.
    public static let maximumKeywordCount = 200
    /// The highest rating.
    public static let maximumRating = 5

    /// The same metadata, checked and tidied: title and caption trimmed (empty becomes nil), keywords trimmed
    /// around every level and deduplicated case-insensitively (the first spelling stays).
    /// - Throws: ``LibraryError`` (``LibraryError/Code/invalidRequest``) naming the field that is wrong.
    public func validated() throws(LibraryError) -> UserMetadata {
        UserMetadata(
            title: try Self.validTitle(title), caption: try Self.validCaption(caption), keywords: try Self.validKeywords(keywords),
            rating: try Self.validRating(rating))
    }

    /// A title trimmed of surrounding white space (empty means none).
    /// - Throws: ``LibraryError`` when it is longer than ``maximumTitleLength`` or has a line break or control
    ///   character.
    public static func validTitle(_ title: String?) throws(LibraryError) -> String? {
        guard let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumTitleLength else {
            throw LibraryError(.invalidRequest, "a title can have at most \(maximumTitleLength) characters; this one has \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw LibraryError(.invalidRequest, "a title must be one line without control characters")
        }
        return trimmed
    }

    /// A caption trimmed of surrounding white space (empty means none). Line breaks are allowed.
    /// - Throws: ``LibraryError`` when it is longer than ``maximumCaptionLength`` or has a control character
    ///   other than a line break or a tab.
    public static func validCaption(_ caption: String?) throws(LibraryError) -> String? {
        guard let trimmed = caption?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumCaptionLength else {
            throw LibraryError(
                .invalidRequest, "a caption can have at most \(maximumCaptionLength) characters; this one has \(trimmed.count)")
        }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) && !allowed.contains($0) }) else {
            throw LibraryError(.invalidRequest, "a caption cannot have control characters other than line breaks and tabs")
        }
        return trimmed
    }

    /// One keyword with every level trimmed: `" Places | France "` becomes `Places|France`.
    /// - Throws: ``LibraryError`` when it is empty, has an empty level (`Places||Paris`), is longer than
    ///   ``maximumKeywordLength`` or has a control character.
    public static func validKeyword(_ keyword: String) throws(LibraryError) -> String {
        let levels = keyword.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !levels.contains(where: \.isEmpty) else {
            let shown = keyword.count > 60 ? String(keyword.prefix(60)) + "…" : keyword
            throw LibraryError(
                .invalidRequest,
                levels.count == 1
                    ? "a keyword cannot be empty"
                    : "the keyword \"\(shown)\" has an empty level: write levels from the top, separated by |, as in Places|France|Paris")
        }
        let joined = levels.joined(separator: "|")
        guard joined.count <= maximumKeywordLength else {
            throw LibraryError(
                .invalidRequest, "a keyword can have at most \(maximumKeywordLength) characters; \"\(joined.prefix(40))…\" has \(joined.count)")
        }
        guard !joined.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw LibraryError(.invalidRequest, "a keyword cannot have line breaks or control characters")
        }
        return joined
    }

    /// Keywords checked one by one and deduplicated case-insensitively, the first spelling kept.
    /// - Throws: ``LibraryError`` when one is invalid (see ``validKeyword(_:)``) or there are more than
    ///   ``maximumKeywordCount``.
    public static func validKeywords(_ keywords: [String]) throws(LibraryError) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for keyword in keywords {
            let valid = try validKeyword(keyword)
            if seen.insert(valid.lowercased()).inserted { result.append(valid) }
        }
        guard result.count <= maximumKeywordCount else {
            throw LibraryError(
                .invalidRequest, "an asset can have at most \(maximumKeywordCount) keywords; this would give it \(result.count)")
        }
        return result
    }

    /// A rating.
    /// - Throws: ``LibraryError`` when it is not 0 to 5.
    public static func validRating(_ rating: Int) throws(LibraryError) -> Int {
        guard (0...maximumRating).contains(rating) else {
            throw LibraryError(.invalidRequest, "a rating is 0 (none) to \(maximumRating) stars, not \(rating)")
        }
        return rating
    }

    /// The text the library searches keywords in: every keyword lowercased, its levels between `|` and the
    /// keywords between `||`, so that `|france|` finds `Places|France|Paris` and `|places|france|` finds it
    /// too, but no pattern spans two keywords.
    static func keywordIndex(_ keywords: [String]) -> String {
        keywords.isEmpty ? "" : "|" + keywords.map { $0.lowercased() }.joined(separator: "||") + "|"
    }
}

/// The capture date and place as the original file gives them, kept beside an asset's edited values so that an
/// edit can be reverted (see ``Asset/fileMetadata``).
public struct FileMetadata: Sendable, Hashable, Codable {
    /// The file's capture date (see ``Asset/creationDate``).
    public var creationDate: Date
    /// Its offset from UTC in seconds, when the file says.
    public var creationDateOffset: Int?
    /// Where the file's date came from.
    public var creationDateSource: CreationDateSource
    /// The file's GPS location.
    public var location: GPSLocation?

    /// Creates the file's values.
    public init(creationDate: Date, creationDateOffset: Int?, creationDateSource: CreationDateSource, location: GPSLocation?) {
        self.creationDate = creationDate
        self.creationDateOffset = creationDateOffset
        self.creationDateSource = creationDateSource
        self.location = location
    }
}

/// Checks of the date, time zone and location an edit sets.
enum MetadataValidation {
    /// The widest offset from UTC a time zone has (Kiribati's +14:00; −12:00 is the other end, but EXIF and
    /// ISO 8601 allow ±14:00 both ways).
    static let maximumOffset = 14 * 3600
    /// Dates from 1800 to the end of 9999: what EXIF's `YYYY:MM:DD` can write, and no camera before.
    static let dateRange = -5_364_662_400.0...253_402_300_799.0
    /// Altitudes from the deepest sea floor to the edge of space, in metres.
    static let altitudeRange = -11_000.0...100_000.0

    static func offset(_ offset: Int?) throws(LibraryError) -> Int? {
        guard let offset else { return nil }
        guard abs(offset) <= maximumOffset else {
            throw LibraryError(
                .invalidRequest, "a time zone is at most 14 hours from GMT (±50400 seconds), not \(offset) seconds")
        }
        guard offset % 60 == 0 else {
            throw LibraryError(.invalidRequest, "a time zone's offset must be whole minutes (a multiple of 60 seconds), not \(offset) seconds")
        }
        return offset
    }

    static func date(_ date: Date) throws(LibraryError) -> Date {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, dateRange.contains(seconds) else {
            throw LibraryError(.invalidRequest, "a capture date must be between the years 1800 and 9999")
        }
        return date
    }

    static func location(_ location: GPSLocation?) throws(LibraryError) -> GPSLocation? {
        guard let location else { return nil }
        guard location.latitude.isFinite, abs(location.latitude) <= 90 else {
            throw LibraryError(.invalidRequest, "a latitude is a number of degrees from -90 to 90, not \(location.latitude)")
        }
        guard location.longitude.isFinite, abs(location.longitude) <= 180 else {
            throw LibraryError(.invalidRequest, "a longitude is a number of degrees from -180 to 180, not \(location.longitude)")
        }
        if let altitude = location.altitude, !(altitude.isFinite && altitudeRange.contains(altitude)) {
            throw LibraryError(.invalidRequest, "an altitude is a number of metres from -11000 to 100000, not \(altitude)")
        }
        return location
    }

    static func interval(_ interval: TimeInterval) throws(LibraryError) -> TimeInterval {
        guard interval.isFinite, abs(interval) <= 200 * 366 * 86_400 else {
            throw LibraryError(.invalidRequest, "a date shift must be a finite number of seconds of at most 200 years")
        }
        return interval
    }
}

extension Asset {
    /// The capture date and place an exported file should carry in its EXIF: for the rendered JPEG of an edit
    /// (`rendered`), which carries no metadata of its own, the asset's date, time zone and location; for an
    /// original, only what was edited away from the file's values (nothing when nothing was).
    public func exportEXIFEdits(rendered: Bool) -> EXIFCaptureEdits {
        EXIFCaptureEdits(
            date: rendered || isCreationDateEdited ? .set(creationDate, offset: creationDateOffset) : .keep,
            location: rendered || isLocationEdited ? .set(location) : .keep)
    }
}
