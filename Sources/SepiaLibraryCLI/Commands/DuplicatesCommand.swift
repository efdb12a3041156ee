import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia duplicates`: the Duplicates view from the command line.
struct DuplicatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List groups of near-identical photos and videos, with the one to keep first.",
        discussion: """
            Copies of one shot (resized, recompressed, re-exported, converted, slightly cropped or brightened) and a \
            burst's frames are grouped by a perceptual hash of each item's thumbnail, made once after import: this \
            command first hashes the items that have none yet. In each group the item to keep comes first: the \
            largest, then the one with the most metadata, then one in a camera's format, then the earliest, then \
            the largest file, then the first added. --delete-others moves every group's other items to Recently Deleted, where \
            `sepia recently-deleted recover` brings them back.
            """)

    @Option(name: .long, help: "The largest number of the 64 hash bits in which two duplicates differ (0-32).")
    var threshold = PhotoLibrary.defaultDuplicateThreshold

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("delete-others"), help: "Move every group's other items to Recently Deleted.")
    var deleteOthers = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if !(0...32).contains(threshold) { throw ValidationError("--threshold must be between 0 and 32 bits") }
    }

    func run() async throws {
        try await reportingErrors {
            try await library.withLibrary(quiet: json) { photos in
                let hashed = try await photos.hashAllWaitingAssets()
                if hashed > 0 && !json { Terminal.printError("compared \(hashed) new photos and videos") }
                let groups = try photos.duplicateGroups(threshold: threshold)
                let status = try photos.duplicatesStatus()
                if json {
                    let places = try photos.places(of: groups.flatMap(\.assets))
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    let report = Report(
                        groups: groups.map { group in
                            Group(
                                id: group.id, keep: group.keep.id, keepReason: group.keepReason,
                                assets: group.assets.map { Item(distance: group.distances[$0.id] ?? 0, asset: AssetJSON($0, place: places[$0.id])) })
                        }, hashedAssets: status.hashedAssets, waitingAssets: status.waitingAssets, unreadableAssets: status.unreadableAssets)
                    Terminal.print(String(decoding: try encoder.encode(report), as: UTF8.self))
                } else {
                    for group in groups {
                        Terminal.print("Keep \(AssetFormatting.line(group.keep))  (\(group.keepReason))")
                        for other in group.others {
                            Terminal.print("  \(group.distances[other.id] ?? 0) bits  \(AssetFormatting.line(other))")
                        }
                    }
                    let copies = groups.reduce(0) { $0 + $1.others.count }
                    Terminal.print(
                        groups.isEmpty
                            ? "No duplicates among \(status.hashedAssets) photos and videos."
                            : "\(groups.count) \(groups.count == 1 ? "group" : "groups"), \(copies) \(copies == 1 ? "item" : "items") that could go.")
                    if status.unreadableAssets > 0 {
                        Terminal.printError(
                            "\(status.unreadableAssets) photos and videos could not be read for comparing; `sepia check` looks at their files")
                    }
                }
                if deleteOthers {
                    let others = groups.flatMap { $0.others.map(\.id) }
                    if !others.isEmpty { try await photos.performChanges { $0.deleteAssets(others) } }
                    Terminal.printError("moved \(others.count) items to Recently Deleted; `sepia recently-deleted recover` brings them back")
                }
            }
        }
    }

    struct Report: Encodable {
        var groups: [Group]
        var hashedAssets: Int
        var waitingAssets: Int
        var unreadableAssets: Int
    }

    struct Group: Encodable {
        var id: String
        var keep: String
        var keepReason: String
        var assets: [Item]
    }

    /// An asset as `sepia list --json` prints it, with its distance from the one to keep.
    struct Item: Encodable {
        var distance: Int
        var asset: AssetJSON

        enum CodingKeys: String, CodingKey { case distance }

        func encode(to encoder: any Encoder) throws {
            try asset.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(distance, forKey: .distance)
        }
    }
}
