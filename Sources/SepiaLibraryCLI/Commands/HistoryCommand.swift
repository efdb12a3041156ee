import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaImage
import SepiaLibrary

/// `sepia history ASSET`.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show a photo's edits, oldest first; the current one is marked.")

    @Argument(help: "The photo (identifier or unique prefix).")
    var asset: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    struct Entry: Encodable {
        let id: String
        let date: String
        let formatIdentifier: String
        let formatVersion: String
        let recipe: String?
        let isCurrent: Bool
    }

    func run() async throws {
        try await reportingErrors {
            let photos = try library.open(quiet: json)
            defer { photos.close() }
            let target = try photos.asset(matching: asset)
            let entries = try photos.adjustments(of: target).map { adjustment in
                Entry(
                    id: adjustment.id, date: AssetFormatting.isoDate(adjustment.creationDate, offset: 0),
                    formatIdentifier: adjustment.data.formatIdentifier, formatVersion: adjustment.data.formatVersion,
                    recipe: adjustment.data.isEditRecipe ? String(decoding: adjustment.data.data, as: UTF8.self) : nil,
                    isCurrent: adjustment.id == target.currentAdjustmentID)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Terminal.print(String(decoding: try encoder.encode(entries), as: UTF8.self))
                return
            }
            if entries.isEmpty { Terminal.print("no edits: the photo shows its original") }
            for entry in entries {
                let steps =
                    (try? AdjustmentData(
                        formatIdentifier: entry.formatIdentifier, formatVersion: entry.formatVersion,
                        data: Data((entry.recipe ?? "").utf8)
                    ).recipe().steps.map(\.filter).joined(separator: " → "))
                    ?? "\(entry.formatIdentifier) \(entry.formatVersion)"
                Terminal.print("\(entry.isCurrent ? "*" : " ") \(entry.date)  \(entry.id.prefix(8))  \(steps)")
            }
            if !entries.isEmpty && target.currentAdjustmentID == nil { Terminal.print("  (reverted: the photo shows its original)") }
        }
    }
}
