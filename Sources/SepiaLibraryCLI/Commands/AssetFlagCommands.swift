import ArgumentParser
import SepiaCommandLine
import SepiaLibrary

/// A command that sets one flag of photos: `sepia favorite` and `sepia hide`.
protocol AssetFlagCommand: AsyncParsableCommand {
    var assets: [String] { get }
    var off: Bool { get }
    var library: LibraryOptions { get }
    /// Records the change of one photo.
    static func set(_ value: Bool, for id: String, in changes: ChangeRequests)
}

extension AssetFlagCommand {
    func run() async throws {
        try await reportingErrors {
            try await library.withLibrary { photos in
                let ids = try photos.assets(matching: assets).map(\.id)
                try await photos.performChanges { changes in
                    for id in ids { Self.set(!off, for: id, in: changes) }
                }
            }
        }
    }
}

/// `sepia favorite ASSET… [--off]`.
struct FavoriteCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark photos as favourites (or not).")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Flag(name: .long, help: "Unmark them.")
    var off = false

    @OptionGroup var library: LibraryOptions

    static func set(_ value: Bool, for id: String, in changes: ChangeRequests) {
        changes.setFavorite(value, for: id)
    }
}

/// `sepia hide ASSET… [--off]`.
struct HideCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide", abstract: "Hide photos from the library's views (or show them again).")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Flag(name: .long, help: "Show them again.")
    var off = false

    @OptionGroup var library: LibraryOptions

    static func set(_ value: Bool, for id: String, in changes: ChangeRequests) {
        changes.setHidden(value, for: id)
    }
}

/// `sepia use-raw ASSET… [--off]`: Photos' "Use RAW as Original" for RAW+JPEG pairs.
struct UseRAWCommand: AssetFlagCommand {
    static let configuration = CommandConfiguration(
        commandName: "use-raw",
        abstract: "Make RAW+JPEG pairs show their RAW file as the original (or their JPEG again).",
        discussion: "The other file stays in the library as the pair's alternate photo. An edited pair is refused: revert the edit first.")

    @Argument(help: "Photos (identifiers or unique prefixes) that are RAW+JPEG pairs.")
    var assets: [String]

    @Flag(name: .long, help: "Show their JPEG again.")
    var off = false

    @OptionGroup var library: LibraryOptions

    static func set(_ value: Bool, for id: String, in changes: ChangeRequests) {
        changes.useRAW(value, for: id)
    }
}
