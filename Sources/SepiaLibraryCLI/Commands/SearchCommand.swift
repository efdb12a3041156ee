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
            """)

    @Argument(help: "The words, kinds and dates.")
    var query: [String] = []

    @Option(name: .long, help: "At most this many.")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("rebuild-index"), help: "Write every photo's search document anew (when `sepia check` says the index is short).")
    var rebuildIndex = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be positive") }
        if query.isEmpty && !rebuildIndex { throw ValidationError("say what to search for, e.g. sepia search lisbon 2023") }
    }

    func run() async throws {
        try await reportingErrors {
            try await library.withLibrary(quiet: json) { photos in
                if rebuildIndex {
                    let count = try photos.rebuildSearchIndex()
                    Terminal.printError("indexed \(count) photos and videos")
                    if query.isEmpty { return }
                }
                var options = FetchOptions()
                options.fetchLimit = limit ?? 0
                let result = try photos.search(query.joined(separator: " "), options: options)
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
