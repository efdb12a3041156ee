import ArgumentParser
import SepiaLibrary

/// `sepia hide ASSET… [--off]`.
struct HideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide", abstract: "Hide photos from the library's views (or show them again).")

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Flag(name: .long, help: "Show them again.")
    var off = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open()
            defer { photos.close() }
            let ids = try assets.map { (reference) throws(LibraryError) in try photos.asset(matching: reference).id }
            try await photos.performChanges { changes in
                for id in ids { changes.setHidden(!off, for: id) }
            }
        }
    }
}
