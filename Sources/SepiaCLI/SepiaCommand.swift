import ArgumentParser

/// The `sepia` command: decode, inspect, filter, thumbnail and convert photos, and keep them in a library.
@main
struct SepiaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sepia",
        abstract: "Core Image's filters and a PhotoKit-style photo library, on Linux.",
        discussion: """
            Exit codes: 0 success, 64 usage error, 65 an input could not be decoded, 66 an input file is \
            missing or unreadable (or a photo is not in the library), 70 internal error, 73 an output could not \
            be written, 74 the library could not be read or written.
            """,
        version: "0.1.0",
        subcommands: [
            InfoCommand.self, ThumbnailCommand.self, ApplyCommand.self, StripCommand.self, ConvertCommand.self, FiltersCommand.self,
            ImportCommand.self, ListCommand.self, AlbumsCommand.self, EditCommand.self, RevertCommand.self, HistoryCommand.self,
            ExportCommand.self, FavoriteCommand.self, HideCommand.self, DeleteCommand.self, CheckCommand.self, ServeCommand.self, LibraryCommand.self,
        ])
}
