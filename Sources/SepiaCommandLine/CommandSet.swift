package import ArgumentParser
import SepiaImage

/// What both executables say about `sepia`, and the commands `sepia` runs itself.
package enum CommandSet {
    package static let abstract = "Core Image's filters and a PhotoKit-style photo library, on Linux."

    package static let exitCodes = """
        Exit codes: 0 success, 64 usage error, 65 an input could not be decoded, 66 an input file is \
        missing or unreadable (or a photo is not in the library), 70 internal error, 73 an output could not \
        be written, 74 the library could not be read or written.
        """

    package static let version = SepiaVersion.current

    /// The commands that need only the engine and the codecs.
    package static let imageCommands: [any ParsableCommand.Type] = [
        InfoCommand.self, ThumbnailCommand.self, ApplyCommand.self, StripCommand.self, ConvertCommand.self, FiltersCommand.self,
    ]

    /// The names a user types for ``imageCommands``.
    package static let imageCommandNames: Set<String> = Set(imageCommands.compactMap { $0.configuration.commandName })
}
