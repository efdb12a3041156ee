import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia list [--album NAME | --favorites | --hidden | --edited] [--year Y [--month M]] …`.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the library's photos, oldest first.",
        discussion: """
            Each line shows the short identifier (commands accept any unique prefix of at least 4 characters), \
            the date and time the photo was taken where it was taken, its size, flags (★ favourite, E edited, \
            H hidden, V video, L Live Photo), its file name, a video's duration and the camera. --keyword, \
            --search and --min-rating find photos by the metadata `sepia metadata` sets. Hidden photos are left out unless --hidden or --include-hidden.
            """)

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case created, added, modified, name
    }

    @Option(name: .long, help: "Only this album (title or identifier).")
    var album: String?

    @Flag(name: .long, help: "Only favourites.")
    var favorites = false

    @Flag(name: .long, help: "Only hidden photos.")
    var hidden = false

    @Flag(name: .long, help: "Only edited photos.")
    var edited = false

    @Flag(name: .long, help: "Only videos (the Videos smart album).")
    var videos = false

    @Flag(name: .long, help: "Only Live Photos (the Live Photos smart album).")
    var live = false

    @Flag(name: .long, help: "Include hidden photos.")
    var includeHidden = false

    @Option(name: .long, help: "Only photos taken in this year.")
    var year: Int?

    @Option(name: .long, help: "Only photos taken in this month (1-12) of --year.")
    var month: Int?

    @Option(
        name: .long,
        help: "Only photos with this keyword, or a level of a hierarchical one (France finds Places|France|Paris); repeat to require several.")
    var keyword: [String] = []

    @Option(name: .long, help: "Only photos whose title, caption or keywords contain this text.")
    var search: String?

    @Option(name: .customLong("min-rating"), help: "Only photos rated at least this many stars (1-5).")
    var minRating: Int?

    @Option(name: .long, help: "Sort by created (default), added, modified or name.")
    var sort: Sort?

    @Flag(name: .long, help: "Newest (or last) first.")
    var reverse = false

    @Option(name: .long, help: "At most this many.")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if [album != nil, favorites, hidden, edited, videos, live].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --album, --favorites, --hidden, --edited, --videos and --live")
        }
        if month != nil && year == nil { throw ValidationError("--month needs --year") }
        if let month, !(1...12).contains(month) { throw ValidationError("--month must be between 1 and 12") }
        if let limit, limit < 1 { throw ValidationError("--limit must be positive") }
        if let minRating, !(1...5).contains(minRating) { throw ValidationError("--min-rating must be between 1 and 5") }
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            var options = FetchOptions(includeHiddenAssets: includeHidden)
            if let sort {
                let key: AssetSortDescriptor.Key =
                    switch sort {
                    case .created: .creationDate
                    case .added: .addedDate
                    case .modified: .modificationDate
                    case .name: .originalFilename
                    }
                options.sortDescriptors = [AssetSortDescriptor(key, ascending: !reverse)]
            } else if reverse {
                options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)]
            }
            var predicates: [AssetPredicate] = keyword.map { .keyword($0) }
            if let year { predicates.append(month.map { .creationMonth(year: year, month: $0) } ?? .creationYear(year)) }
            if let search { predicates.append(.metadataContains(search)) }
            if let minRating { predicates.append(.rating(.greaterThanOrEqual, minRating)) }
            options.predicate = predicates.reduce(nil) { combined, next in combined.map { $0 && next } ?? next }
            options.fetchLimit = limit ?? 0
            let result: FetchResult<Asset>
            if let album {
                result = try photos.fetchAssets(in: try photos.album(album), options: options)
            } else if favorites {
                result = try photos.fetchAssets(in: .favorites, options: options)
            } else if hidden {
                result = try photos.fetchAssets(in: .hidden, options: options)
            } else if edited {
                result = try photos.fetchAssets(in: .edited, options: options)
            } else if videos {
                result = try photos.fetchAssets(in: .videos, options: options)
            } else if live {
                result = try photos.fetchAssets(in: .livePhotos, options: options)
            } else {
                result = try photos.fetchAssets(options)
            }
            let assets = try result.allObjects()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Terminal.print(String(decoding: try encoder.encode(assets.map { AssetJSON($0) }), as: UTF8.self))
            } else {
                for asset in assets { Terminal.print(AssetFormatting.line(asset)) }
                if assets.isEmpty { Terminal.printError("no photos") }
            }
        }
    }
}
