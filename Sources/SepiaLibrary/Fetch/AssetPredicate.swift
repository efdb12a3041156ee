public import Foundation

/// Which assets a fetch returns: a typed predicate (PhotoKit's `NSPredicate` on `PHAsset`, restricted to the
/// keys it supports) that compiles to SQL. Combine with `&&`, `||` and `!`.
///
/// ```swift
/// var options = FetchOptions()
/// options.predicate = .isFavorite && .created(after: lastYear) && !.hasAdjustments
/// ```
public indirect enum AssetPredicate: Sendable, Hashable {
    /// Favourites.
    case isFavorite
    /// Hidden assets (only meaningful with ``FetchOptions/includeHiddenAssets``).
    case isHidden
    /// Assets with a live edit.
    case hasAdjustments
    /// Assets of a media type.
    case mediaType(MediaType)
    /// Assets with all of these subtypes (``MediaSubtypes/photoLive`` for Live Photos).
    case mediaSubtypes(MediaSubtypes)
    /// A date property compared with a date.
    case date(DateKey, Comparison, Date)
    /// A size property compared with a number of pixels.
    case size(SizeKey, Comparison, Int)
    /// Assets whose camera model is exactly this (EXIF `Model`).
    case cameraModel(String)
    /// Assets whose camera maker is exactly this (EXIF `Make`).
    case cameraMake(String)
    /// Assets with GPS coordinates.
    case hasLocation
    /// Assets whose original file name contains this text (case-insensitive).
    case filenameContains(String)
    /// Assets with this keyword, compared case-insensitively, or a hierarchical keyword one of whose levels,
    /// or runs of consecutive levels, it is: `France` and `Places|France` both find `Places|France|Paris`.
    case keyword(String)
    /// Assets whose title, caption or one of whose keywords contains this text (case-insensitive).
    case metadataContains(String)
    /// A rating (0–5) compared with a number of stars: `.rating(.greaterThanOrEqual, 4)`.
    case rating(Comparison, Int)
    /// The asset with this identifier.
    case identifier(String)
    /// Assets with one of these identifiers.
    case identifiers([String])
    /// Assets in at least one of these user albums (by identifier): what a credential limited to albums may
    /// see (PhotoKit's limited library access).
    case inAlbums([String])
    /// Assets with a face of this person (by identifier): the person's photos and videos
    /// (``PhotoLibrary/fetchAssets(of:options:)``).
    case person(String)
    /// Assets placed in this city (by GeoNames identifier, ``Asset/placeIdentifier``): a city of the Places album.
    case place(Int)
    /// Assets placed in this country (by ISO 3166-1 alpha-2 code, "PT"): a country of the Places album.
    case country(String)
    /// Assets whose search document (title, caption, keywords, file name, camera, place) has a word that
    /// starts with this one, case and accents folded (``SearchQuery``).
    case text(String)
    /// Camera RAW files, and RAW+JPEG pairs.
    case isRAW
    /// Assets taken in this month (1–12) of any year, in the place they were taken.
    case monthOfYear(Int)
    /// Assets taken on this calendar day, in the place they were taken (UTC when their time zone is unknown).
    case localDay(year: Int, month: Int, day: Int)
    /// Assets taken in this year, in the place they were taken.
    case creationYear(Int)
    /// Assets taken in this month of this year.
    case creationMonth(year: Int, month: Int)
    /// Both.
    case and(AssetPredicate, AssetPredicate)
    /// Either.
    case or(AssetPredicate, AssetPredicate)
    /// Not.
    case not(AssetPredicate)

    /// The date properties a predicate can compare.
    public enum DateKey: String, Sendable, Hashable, CaseIterable {
        /// ``Asset/creationDate``.
        case creationDate
        /// ``Asset/modificationDate``.
        case modificationDate
        /// ``Asset/addedDate``.
        case addedDate
    }

    /// The size properties a predicate can compare.
    public enum SizeKey: String, Sendable, Hashable, CaseIterable {
        /// ``Asset/pixelWidth``.
        case pixelWidth
        /// ``Asset/pixelHeight``.
        case pixelHeight
    }

    /// A comparison.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case equal = "="
        case notEqual = "<>"
        case greaterThanOrEqual = ">="
        case greaterThan = ">"
    }

    /// Assets created after `date` (exclusive).
    public static func created(after date: Date) -> AssetPredicate { .date(.creationDate, .greaterThan, date) }

    /// Assets created before `date` (exclusive).
    public static func created(before date: Date) -> AssetPredicate { .date(.creationDate, .lessThan, date) }

    /// Both predicates.
    public static func && (a: AssetPredicate, b: AssetPredicate) -> AssetPredicate { .and(a, b) }

    /// Either predicate.
    public static func || (a: AssetPredicate, b: AssetPredicate) -> AssetPredicate { .or(a, b) }

    /// The negation.
    public static prefix func ! (a: AssetPredicate) -> AssetPredicate { .not(a) }
}

extension AssetPredicate {
    /// The terms of a chain of `&&`, in order; the predicate itself when it is not one.
    var conjuncts: [AssetPredicate] {
        if case .and(let a, let b) = self { return a.conjuncts + b.conjuncts }
        return [self]
    }

    /// Whether a search's words are among the terms that must all hold.
    var searchesText: Bool {
        conjuncts.contains { term in
            switch term {
            case .text: true
            case .or(let a, let b): a.searchesText || b.searchesText
            default: false
            }
        }
    }
}
