import ArgumentParser
import Foundation
import SepiaLibrary

/// How long deleted photos stay in Recently Deleted, for the commands that purge it or count the days left:
/// `sepia serve` and `sepia recently-deleted`. Give them the same value (or set `$SEPIA_RECENTLY_DELETED_DAYS`).
struct RecentlyDeletedOptions: ParsableArguments {
    /// The retention when neither the option nor the environment gives one, as in Photos.
    static let defaultDays = 30

    @Option(
        name: .customLong("recently-deleted-days"),
        help: ArgumentHelp(
            "Days deleted photos stay in Recently Deleted before they are deleted for good "
                + "(default: $SEPIA_RECENTLY_DELETED_DAYS, else \(RecentlyDeletedOptions.defaultDays)).",
            valueName: "days"))
    var days: Int?

    func validate() throws {
        if let days, !(1...3650).contains(days) { throw ValidationError("--recently-deleted-days must be from 1 to 3650") }
        _ = try resolvedDays()
    }

    /// The days chosen: the option, else the environment, else the default.
    func resolvedDays() throws -> Int {
        if let days { return days }
        guard let text = ProcessInfo.processInfo.environment["SEPIA_RECENTLY_DELETED_DAYS"], !text.isEmpty else { return Self.defaultDays }
        guard let value = Int(text), (1...3650).contains(value) else {
            throw ValidationError("$SEPIA_RECENTLY_DELETED_DAYS must be a number of days from 1 to 3650, not '\(text)'")
        }
        return value
    }

    /// The retention, as a library configuration takes it.
    func retention() throws -> Duration {
        .seconds(try resolvedDays() * 86_400)
    }
}
