import ArgumentParser
import SepiaCommandLine
import SepiaLibrary

/// `sepia delete ASSET… --yes`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete photos from the library, with their originals, edits and thumbnails.",
        discussion: "This cannot be undone: export what you want to keep first. --yes confirms.")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Flag(name: [.customShort("y"), .long], help: "Confirm the deletion.")
    var yes = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            let targets = try photos.assets(matching: assets)
            guard yes else {
                for target in targets { Terminal.printError("would delete \(target.id.prefix(8))  \(target.originalFilename)") }
                Terminal.error("deleting removes the originals for good; add --yes to confirm")
                throw ReportedFailure(code: ExitStatus.usage)
            }
            try await photos.performChanges { $0.deleteAssets(targets.map(\.id)) }
            for target in targets { Terminal.print("deleted \(target.id.prefix(8))  \(target.originalFilename)") }
        }
    }
}
