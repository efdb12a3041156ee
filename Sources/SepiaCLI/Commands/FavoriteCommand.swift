import ArgumentParser
import SepiaLibrary

/// `sepia favorite ASSET… [--off]`.
struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark photos as favourites (or not).")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Flag(name: .long, help: "Unmark them.")
    var off = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            let ids = try assets.map { (reference) throws(LibraryError) in try photos.asset(matching: reference).id }
            try await photos.performChanges { changes in
                for id in ids { changes.setFavorite(!off, for: id) }
            }
        }
    }
}
