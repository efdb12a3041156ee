import Foundation

/// A search as a person types it into one box, read into terms: kinds ("videos", "live", "raw", "favorites",
/// "edited", "screenshots"), dates ("2023", "june 2023", "june", "2023-06", "2023-06-14", "summer 2023"), and
/// words, which match titles, captions, keywords, file names, cameras, places, album names and people's names,
/// case and accents folded, each as the start of a word. Every term must hold (AND).
///
/// ```swift
/// SearchQuery("Lisbon summer 2023 videos").terms
/// // [.word("lisbon"), .season(.summer, year: 2023), .kind(.video)]
/// ```
///
/// Seasons are the northern hemisphere's meteorological ones: summer is June to August, winter December to
/// February (winter 2023 is December 2023 to February 2024).
public struct SearchQuery: Sendable, Hashable {
    /// What a photo or video is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case photo, video, live, raw, favorite, edited, screenshot, panorama
    }

    /// A meteorological season.
    public enum Season: String, Sendable, Hashable, CaseIterable {
        case spring, summer, autumn, winter

        /// Its months, the first one's year being the season's.
        var months: [(yearOffset: Int, month: Int)] {
            switch self {
            case .spring: [(0, 3), (0, 4), (0, 5)]
            case .summer: [(0, 6), (0, 7), (0, 8)]
            case .autumn: [(0, 9), (0, 10), (0, 11)]
            case .winter: [(0, 12), (1, 1), (1, 2)]
            }
        }
    }

    /// One thing the search asks for.
    public enum Term: Sendable, Hashable {
        /// A folded word, matched as the start of a word.
        case word(String)
        case kind(Kind)
        case year(Int)
        /// A month, of a year or of every year.
        case month(Int, year: Int?)
        case day(year: Int, month: Int, day: Int)
        /// A season, of a year or of every year.
        case season(Season, year: Int?)
    }

    /// The terms, in the order typed.
    public var terms: [Term]

    /// The most terms one search is read into; the rest of a longer text is ignored.
    public static let maximumTerms = 16

    /// Reads `text`.
    public init(_ text: String) {
        var terms: [Term] = []
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var index = 0
        func nextYear() -> Int? {
            guard index + 1 < tokens.count, let year = Self.year(tokens[index + 1]) else { return nil }
            index += 1
            return year
        }
        while index < tokens.count && terms.count < Self.maximumTerms {
            let token = tokens[index]
            let folded = SearchText.words(token).joined()
            if let (year, month, day) = Self.isoDate(token) {
                terms.append(day.map { .day(year: year, month: month, day: $0) } ?? .month(month, year: year))
            } else if let year = Self.year(token) {
                terms.append(.year(year))
            } else if let month = Self.month(folded) {
                terms.append(.month(month, year: nextYear()))
            } else if let season = Self.season(folded) {
                terms.append(.season(season, year: nextYear()))
            } else if let kind = Self.kind(folded) {
                terms.append(.kind(kind))
            } else {
                for word in SearchText.words(token) where terms.count < Self.maximumTerms { terms.append(.word(word)) }
            }
            index += 1
        }
        self.terms = terms
    }

    /// The words among the terms.
    public var words: [String] {
        terms.compactMap { if case .word(let word) = $0 { word } else { nil } }
    }

    static func year(_ token: String) -> Int? {
        guard token.count == 4, token.allSatisfy(\.isASCII), let year = Int(token), (1800...2200).contains(year) else { return nil }
        return year
    }

    /// `2023-06-14` or `2023-06`.
    static func isoDate(_ token: String) -> (Int, Int, Int?)? {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let year = year(String(parts[0])),
            parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month)
        else { return nil }
        guard parts.count == 3 else { return (year, month, nil) }
        guard parts[2].count == 2, let day = Int(parts[2]), (1...31).contains(day) else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = Calendar(identifier: .gregorian)
        guard components.isValidDate else { return nil }
        return (year, month, day)
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]

    static func month(_ word: String) -> Int? {
        if let index = monthNames.firstIndex(of: word) { return index + 1 }
        // Three-letter abbreviations, and "sept".
        if word == "sept" { return 9 }
        guard word.count == 3, word != "may" else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    static func season(_ word: String) -> Season? {
        word == "fall" ? .autumn : Season(rawValue: word)
    }

    static func kind(_ word: String) -> Kind? {
        switch word {
        case "photo", "photos", "picture", "pictures", "image", "images": .photo
        case "video", "videos", "movie", "movies": .video
        case "live", "livephoto", "livephotos": .live
        case "raw", "raws": .raw
        case "favorite", "favorites", "favourite", "favourites": .favorite
        case "edited": .edited
        case "screenshot", "screenshots": .screenshot
        case "panorama", "panoramas": .panorama
        default: nil
        }
    }
}
