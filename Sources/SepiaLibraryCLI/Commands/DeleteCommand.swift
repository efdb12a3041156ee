import ArgumentParser
import SepiaCommandLine
import SepiaLibrary

/// `sepia delete PHOTO… --yes [--now]`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete photos: to Recently Deleted, or for good with --now.",
        discussion: """
            Deleted photos go to Recently Deleted with their originals, edits and albums, and stay there for 30 days \
            (or what --recently-deleted-days gives `sepia serve` and `sepia recently-deleted purge`); `sepia \
            recently-deleted recover` brings them back where they were. --now deletes them for good at once, from \
            Recently Deleted or not: this cannot be undone, so export what you want to keep first. --yes confirms \
            either.
            """)

    @Argument(help: "Photos (identifiers or unique prefixes; photos in Recently Deleted too, for --now).")
    var assets: [String]

    @Flag(name: .long, help: "Delete for good now, with the originals and edits, instead of moving to Recently Deleted.")
    var now = false

    @Flag(name: [.customShort("y"), .long], help: "Confirm the deletion.")
    var yes = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            let targets = try photos.assets(matching: assets)
            guard yes else {
                let verb = now ? "would delete for good" : "would move to Recently Deleted"
                for target in targets { Terminal.printError("\(verb) \(target.id.prefix(8))  \(target.originalFilename)") }
                Terminal.error(
                    now
                        ? "--now deletes the originals and edits for good; add --yes to confirm"
                        : "deleting moves the photos to Recently Deleted, where `sepia recently-deleted` lists them; add --yes to confirm")
                throw ReportedFailure(code: ExitStatus.usage)
            }
            if now {
                try await photos.performChanges { $0.deleteAssetsPermanently(targets.map(\.id)) }
                for target in targets { Terminal.print("deleted for good \(target.id.prefix(8))  \(target.originalFilename)") }
            } else {
                try await photos.performChanges { $0.deleteAssets(targets.map(\.id)) }
                for target in targets {
                    let note = target.isRecentlyDeleted ? " (already there)" : ""
                    Terminal.print("moved to Recently Deleted \(target.id.prefix(8))  \(target.originalFilename)\(note)")
                }
            }
        }
    }
}
