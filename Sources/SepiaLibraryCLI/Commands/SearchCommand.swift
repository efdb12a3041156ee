import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia search QUERY…`: the web app's search box from the command line.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find photos and videos by what, where, when and who, newest first.",
        discussion: """
            Words match the start of a word of a title, caption, keyword, file name, camera, place (city, region, \
            country), album name or person's name, whatever their case and accents ("julia" finds "Julià"). Kinds \
            (videos, photos, live, raw, favorites, edited, screenshots, panoramas) and dates (2023, june 2023, june, \
            jun, 2023-06, 2023-06-14, summer 2023: seasons are the northern hemisphere's) narrow the search; every \
            term must hold. Example: sepia search lisbon summer 2023 videos

            --save TITLE keeps the search as a smart album (its photos are what it finds whenever it is opened, \
            here or in the web app); --saved lists the smart albums; --album TITLE searches with a smart album's \
            query; --delete-saved TITLE deletes one.
            """)

    @Argument(help: "The words, kinds and dates.")
    var query: [String] = []

    @Option(name: .long, help: "At most this many.")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("rebuild-index"), help: "Write every photo's search document anew (when `sepia check` says the index is short).")
    var rebuildIndex = false

    @Option(name: .long, help: "Keep the search as a smart album with this title.")
    var save: String?

    @Flag(name: .long, help: "List the smart albums made from searches.")
    var saved = false

    @Option(name: .long, help: "Search with the query of the smart album of this title.")
    var album: String?

    @Option(name: .customLong("delete-saved"), help: "Delete the smart album of this title.")
    var deleteSaved: String?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be positive") }
        if query.isEmpty && !rebuildIndex && !saved && album == nil && deleteSaved == nil {
            throw ValidationError("say what to search for, e.g. sepia search lisbon 2023")
        }
        if save != nil && query.isEmpty { throw ValidationError("--save keeps a search: give its words too, e.g. sepia search lisbon --save Lisbon") }
    }

    /// The saved search titled `title` (case and accents ignored).
    static func savedSearch(titled title: String, in photos: PhotoLibrary) throws -> SavedSearch {
        let same = { (other: String) in other.compare(title, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
        guard let found = try photos.savedSearches().first(where: { same($0.title) }) else {
            throw ValidationError("no smart album is titled \"\(title)\"; sepia search --saved lists them")
        }
        return found
    }

    func run() async throws {
        try await reportingErrors {
            try await library.withLibrary(quiet: json) { photos in
                if saved {
                    let searches = try photos.savedSearches()
                    if json { return try printJSON(searches) }
                    for search in searches { Terminal.print("\(search.title): \(search.query)") }
                    if searches.isEmpty { Terminal.printError("no smart album from a search yet; sepia search WORDS --save TITLE keeps one") }
                    return
                }
                if let deleteSaved {
                    try photos.deleteSavedSearch(try Self.savedSearch(titled: deleteSaved, in: photos).id)
                    Terminal.printError("deleted the smart album \"\(deleteSaved)\"")
                    return
                }
                if let save {
                    let search = try photos.saveSearch(title: save, query: query.joined(separator: " "))
                    Terminal.printError("saved \"\(search.title)\" as a smart album")
                }
                if rebuildIndex {
                    let count = try photos.rebuildSearchIndex()
                    Terminal.printError("indexed \(count) photos and videos")
                    if query.isEmpty { return }
                }
                var options = FetchOptions()
                options.fetchLimit = limit ?? 0
                let text = try album.map { try Self.savedSearch(titled: $0, in: photos).query } ?? query.joined(separator: " ")
                let result = try photos.search(text, options: options)
                let assets = try result.allObjects()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    let places = try photos.places(of: assets)
                    Terminal.print(String(decoding: try encoder.encode(assets.map { AssetJSON($0, place: places[$0.id]) }), as: UTF8.self))
                } else {
                    for asset in assets { Terminal.print(AssetFormatting.line(asset)) }
                    if assets.isEmpty { Terminal.printError("nothing found") }
                }
            }
        }
    }
}

private func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    Terminal.print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
