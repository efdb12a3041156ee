import Foundation

/// Text as the search index holds it and queries ask for it: case, accents and width folded ("Julià" and
/// "JULIA" are "julia"), and every run of letters and digits a word, whatever separates them ("IMG_0042.jpg" is
/// "img 0042 jpg"). Both databases are given words already folded and split, so SQLite's FTS5 and PostgreSQL's
/// full-text search find the same words, and PostgreSQL needs no `unaccent` extension in each library's schema.
enum SearchText {
    /// Letters that folding keeps, though a person types them as Latin ones: Unicode decomposes "é" into "e" and
    /// an accent, but "ø", "æ" or "ß" are letters of their own.
    static let latinLetters: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    ]

    /// The folded words of `text`, in order.
    static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if let latin = latinLetters[scalar] {
                current += latin
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The longest document the index keeps for one asset, in characters: a title, a caption of 5 000
    /// characters, 200 keywords and the names beside them fit.
    static let maximumDocumentLength = 64_000

    /// The document of an asset: its folded words, separated by spaces.
    static func document(_ parts: [String?]) -> String {
        var document = parts.compactMap { $0 }.flatMap(words).joined(separator: " ")
        if document.count > maximumDocumentLength { document = String(document.prefix(maximumDocumentLength)) }
        return document
    }
}
