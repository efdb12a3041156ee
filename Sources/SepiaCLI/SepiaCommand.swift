import ArgumentParser

/// The `sepia` command: decode, inspect, filter, thumbnail and convert photos.
@main
struct SepiaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sepia",
        abstract: "Photo filters, thumbnails and conversions with Core Image's filters, on Linux.",
        discussion: """
            Exit codes: 0 success, 64 usage error, 65 an input could not be decoded, 66 an input file is \
            missing or unreadable, 70 internal error, 73 an output could not be written.
            """,
        version: "0.1.0",
        subcommands: [
            InfoCommand.self, ThumbnailCommand.self, ApplyCommand.self, StripCommand.self, ConvertCommand.self, FiltersCommand.self,
        ])
}
