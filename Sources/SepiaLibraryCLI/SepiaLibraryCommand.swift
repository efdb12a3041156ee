import ArgumentParser
import SepiaCommandLine

/// Starts `sepia-library`.
@main
enum SepiaLibraryMain {
    static func main() async {
        await SepiaLibraryCommand.main()
    }
}

/// Every `sepia` command, the library's and the server's included. `sepia` runs the image commands itself and
/// hands the rest to this executable, so its help lists them all.
struct SepiaLibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sepia",
        abstract: CommandSet.abstract,
        discussion: CommandSet.exitCodes,
        version: CommandSet.version,
        // `info` here reads library photos too (and files, as the image command does).
        subcommands: [AssetInfoCommand.self] + CommandSet.imageCommands.filter { ObjectIdentifier($0) != ObjectIdentifier(InfoCommand.self) } + [
            ImportCommand.self, ListCommand.self, AlbumsCommand.self, MetadataCommand.self, EditCommand.self, RevertCommand.self,
            HistoryCommand.self, PresetsCommand.self, FacesCommand.self, PlacesCommand.self, SearchCommand.self, DuplicatesCommand.self,
            ExportCommand.self, FavoriteCommand.self, HideCommand.self, UseRAWCommand.self, DeleteCommand.self,
            RecentlyDeletedCommand.self, CheckCommand.self, ServeCommand.self,
            LibraryCommand.self,
            PlayableCommand.self,
        ])
}
