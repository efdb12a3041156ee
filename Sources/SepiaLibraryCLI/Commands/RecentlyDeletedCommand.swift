import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia recently-deleted [list|recover|purge]`.
struct RecentlyDeletedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recently-deleted",
        abstract: "List, recover and purge the photos in Recently Deleted.",
        discussion: """
            `sepia delete` moves photos to Recently Deleted, where they keep their originals, edits and albums for \
            30 days (--recently-deleted-days, or $SEPIA_RECENTLY_DELETED_DAYS); `sepia serve` then deletes them for \
            good, and `purge` does it now. `recover` brings photos back, into the albums they were in. To delete \
            photos in Recently Deleted for good at once, use `sepia delete --now`.
            """,
        subcommands: [List.self, Recover.self, Purge.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List Recently Deleted, newest deletion first, with the days each photo has left.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var recentlyDeleted: RecentlyDeletedOptions
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json, retention: try recentlyDeleted.retention())
                defer { photos.close() }
                let assets = try photos.fetchAssets(in: .recentlyDeleted).allObjects()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    let items = assets.map { AssetJSON($0, daysLeft: photos.daysLeftInRecentlyDeleted($0)) }
                    Terminal.print(String(decoding: try encoder.encode(items), as: UTF8.self))
                    return
                }
                for asset in assets { Terminal.print(RecentlyDeletedCommand.line(asset, in: photos)) }
                if assets.isEmpty { Terminal.printError("Recently Deleted is empty") }
            }
        }
    }

    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recover", abstract: "Bring photos back from Recently Deleted, into the albums they were in.")

        @Argument(help: "Photos in Recently Deleted (identifiers or unique prefixes).")
        var assets: [String] = []

        @Flag(name: .long, help: "Recover every photo in Recently Deleted.")
        var all = false

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            if all == !assets.isEmpty { throw ValidationError("name the photos to recover, or give --all") }
        }

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let targets = all ? try photos.fetchAssets(in: .recentlyDeleted).allObjects() : try photos.assets(matching: assets)
                for target in targets where !target.isRecentlyDeleted {
                    throw LibraryError(.invalidRequest, "the photo is not in Recently Deleted", subject: target.id)
                }
                try await photos.performChanges { $0.recoverAssets(targets.map(\.id)) }
                for target in targets { Terminal.print("recovered \(target.id.prefix(8))  \(target.originalFilename)") }
                if targets.isEmpty { Terminal.printError("Recently Deleted is empty") }
            }
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Delete for good, now, the photos that have been in Recently Deleted longer than the retention.",
            discussion: """
                What `sepia serve` does by itself every hour; photos deleted more recently stay. With shared storage, \
                the files go with the server's next sweep.
                """)

        @Flag(name: .long, help: "Print JSON: the identifiers purged.")
        var json = false

        @OptionGroup var recentlyDeleted: RecentlyDeletedOptions
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let days = try recentlyDeleted.resolvedDays()
                let photos = try library.open(quiet: json, retention: try recentlyDeleted.retention())
                defer { photos.close() }
                let due = try photos.fetchAssets(in: .recentlyDeleted).allObjects().filter { photos.daysLeftInRecentlyDeleted($0) == 0 }
                let names = Dictionary(due.map { ($0.id, $0.originalFilename) }, uniquingKeysWith: { a, _ in a })
                let purged = try photos.purgeRecentlyDeleted()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    Terminal.print(String(decoding: try encoder.encode(["purged": purged]), as: UTF8.self))
                    return
                }
                for id in purged { Terminal.print("deleted for good \(id.prefix(8))  \(names[id] ?? "")") }
                if purged.isEmpty { Terminal.printError("nothing has been in Recently Deleted for \(days) days") }
            }
        }
    }

    /// One line: short identifier, capture date, size, flags, name, and when the photo goes for good.
    static func line(_ asset: Asset, in library: PhotoLibrary) -> String {
        let days = library.daysLeftInRecentlyDeleted(asset) ?? 0
        let left = days == 1 ? "1 day left" : "\(days) days left"
        let deleted = asset.trashedDate.map { "deleted " + AssetFormatting.isoDate($0, offset: 0).prefix(10) } ?? ""
        return AssetFormatting.line(asset) + "  — \(deleted), \(left)"
    }
}
