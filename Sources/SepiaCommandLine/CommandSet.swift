package import ArgumentParser
import Foundation
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

    /// Whether `arguments` (after the command's name) ask the image command `info` about photos of a library
    /// rather than files: a library option is given, or an argument is no file but could be a photo's
    /// identifier or prefix. `sepia-library` runs `info` then.
    package static func namesLibraryPhotos(_ arguments: [String]) -> Bool {
        let libraryOptions: Set<String> = ["--library", "--database", "--storage"]
        if arguments.contains(where: { argument in libraryOptions.contains { argument == $0 || argument.hasPrefix($0 + "=") } }) {
            return true
        }
        // The values of the image command's own options (`--max-pixels 100000000`) are numbers, not identifiers.
        let valueOptions: Set<String> = ["--max-pixels", "--max-decode-bytes"]
        return arguments.indices.contains { index in
            let argument = arguments[index]
            return !argument.hasPrefix("-") && !(index > 0 && valueOptions.contains(arguments[index - 1]))
                && !FileManager.default.fileExists(atPath: argument) && argument.count >= 4
                && argument.allSatisfy { $0.isHexDigit || $0 == "-" }
        }
    }
}
