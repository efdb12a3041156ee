import ArgumentParser
import SepiaCommandLine

/// The `sepia` command: decode, inspect, filter, thumbnail and convert photos, and keep them in a library.
///
/// This executable links only the engine and the codecs, so that an image command starts quickly: the library's
/// database drivers and the server would more than double the binary and the runtime's start-up work. Every other
/// command (the library's, the server's, and help for them all) is run by `sepia-library`, installed beside
/// this executable, which this process becomes: the same process, arguments, input, output and exit code.
///
/// The image commands read videos too (their poster frame, and `info` their streams): SepiaVideo loads FFmpeg's
/// libraries when the first video is opened, so a photo command does not pay for them.
@main
enum SepiaCommand {
    static func main() async {
        let arguments = CommandLine.arguments
        if let command = arguments.dropFirst().first, CommandSet.imageCommandNames.contains(command),
            !(command == "info" && CommandSet.namesLibraryPhotos(Array(arguments.dropFirst(2))))
        {
            await ImageCommand.main()
        } else {
            LibraryCommandLauncher.run(arguments)
        }
    }
}

/// The image commands, parsed here.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sepia",
        abstract: CommandSet.abstract,
        discussion: CommandSet.exitCodes,
        version: CommandSet.version,
        subcommands: CommandSet.imageCommands)
}
