import ArgumentParser
import SepiaCommandLine
import SepiaLibrary

/// `sepia revert ASSET…`.
struct RevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert", abstract: "Bring back photos' originals; their edit history is kept.")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            let targets = try photos.assets(matching: assets)
            try await photos.performChanges { changes in
                for target in targets { changes.revertToOriginal(target.id) }
            }
            for target in targets { Terminal.print("reverted \(target.id.prefix(8))") }
        }
    }
}
