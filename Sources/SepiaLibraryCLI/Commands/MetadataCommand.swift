import ArgumentParser
import Foundation
import SepiaCodecs
import SepiaCommandLine
import SepiaLibrary

/// `sepia metadata PHOTO… [--title T] [--keyword K]… [--rating N] [--date D] [--shift S] [--location LAT,LON] …`:
/// Photos' Info panel and Adjust Date & Time.
struct MetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Set or clear the title, caption, keywords, rating, capture date and time zone, or location of photos.",
        discussion: """
            Every change is kept beside the file's own date and location, which `sepia info PHOTO` shows too and \
            --revert-date and --revert-location bring back; the original file is never rewritten. A keyword may be \
            hierarchical, its levels from the top separated by | (Places|France|Paris). --date sets one photo's \
            date and time (YYYY-MM-DDTHH:MM[:SS], with a zone such as +02:00, or else in the zone --time-zone \
            gives or the photo has). --shift moves several photos' dates and times by the same interval \
            (+1h30m, -2d, 3600), each keeping its own time zone unless --time-zone gives one, in which the \
            shifted times are read. --time-zone alone keeps each photo's clock time and changes its zone. \
            Limits: title 500 characters, caption 5000, 200 keywords of 200 characters, rating 0-5, time zones \
            within ±14:00.
            """)

    @Argument(help: "Photos (identifiers or unique prefixes).")
    var assets: [String]

    @Option(name: .long, help: "Set the title.")
    var title: String?

    @Flag(name: .customLong("clear-title"), help: "Remove the title.")
    var clearTitle = false

    @Option(name: .long, help: "Set the caption.")
    var caption: String?

    @Flag(name: .customLong("clear-caption"), help: "Remove the caption.")
    var clearCaption = false

    @Option(name: .customLong("keyword"), help: "Replace the keywords with these (repeat the option for each).")
    var keywords: [String] = []

    @Flag(name: .customLong("clear-keywords"), help: "Remove every keyword.")
    var clearKeywords = false

    @Option(name: .customLong("add-keyword"), help: "Add a keyword (repeat for several).")
    var addKeywords: [String] = []

    @Option(name: .customLong("remove-keyword"), help: "Remove a keyword (repeat for several).")
    var removeKeywords: [String] = []

    @Option(name: .long, help: "Set the rating: 0 (none) to 5 stars.")
    var rating: Int?

    @Option(name: .long, help: "Set the date and time one photo was taken (2024-05-01T14:30:00+02:00).")
    var date: String?

    // Values may start with a minus sign: taken as they come, not as options.
    @Option(name: .customLong("time-zone"), parsing: .unconditional, help: "The time zone: +02:00, -05:30, Z, or unknown.")
    var timeZone: String?

    @Option(name: .long, parsing: .unconditional, help: "Shift the dates and times of the photos by an interval: +1h30m, -2d, -90s, 3600.")
    var shift: String?

    @Flag(name: .customLong("revert-date"), help: "Give the photos back the date and time zone their files carry.")
    var revertDate = false

    @Option(name: .long, parsing: .unconditional, help: "Set the location: LATITUDE,LONGITUDE[,ALTITUDE] in degrees and metres.")
    var location: String?

    @Flag(name: .customLong("remove-location"), help: "Remove the location.")
    var removeLocation = false

    @Flag(name: .customLong("revert-location"), help: "Give the photos back the location their files carry.")
    var revertLocation = false

    @Flag(name: .long, help: "Print the changed photos as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if assets.isEmpty { throw ValidationError("name at least one photo") }
        if title != nil && clearTitle { throw ValidationError("give --title or --clear-title, not both") }
        if caption != nil && clearCaption { throw ValidationError("give --caption or --clear-caption, not both") }
        if !keywords.isEmpty && clearKeywords { throw ValidationError("give --keyword or --clear-keywords, not both") }
        if (!keywords.isEmpty || clearKeywords) && !(addKeywords.isEmpty && removeKeywords.isEmpty) {
            throw ValidationError("--keyword and --clear-keywords replace the keywords: do not combine them with --add-keyword or --remove-keyword")
        }
        if [date != nil, shift != nil, revertDate].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --date, --shift and --revert-date")
        }
        if revertDate && timeZone != nil { throw ValidationError("--revert-date brings back the file's time zone: leave out --time-zone") }
        if date != nil && assets.count > 1 {
            throw ValidationError("--date sets one photo's date; to move several photos' dates by the same interval use --shift")
        }
        if [location != nil, removeLocation, revertLocation].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --location, --remove-location and --revert-location")
        }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating is 0 (none) to 5, not \(rating)") }
        let changes: [Bool] = [
            title != nil, clearTitle, caption != nil, clearCaption, !keywords.isEmpty, clearKeywords, !addKeywords.isEmpty,
            !removeKeywords.isEmpty, rating != nil, date != nil, timeZone != nil, shift != nil, revertDate, location != nil,
            removeLocation, revertLocation,
        ]
        if !changes.contains(true) { throw ValidationError("say what to change: see sepia metadata --help") }
        if let shift { _ = try Self.interval(shift) }
        if let location { _ = try Self.location(location) }
    }

    func run() async throws {
        try await reportingErrors {
            try await library.withLibrary { photos in
                let targets = try photos.assets(matching: assets)
                let ids = targets.map(\.id)
                let zone: Int?? = try timeZone.map { text throws(LibraryError) in try CaptureDateTime.offset(parsing: text) }
                let localDate = try date.map { text throws(LibraryError) in try CaptureDateTime(parsing: text) }
                if localDate?.secondsFromGMT != nil && zone != nil {
                    throw ValidationError("--date already gives a time zone: leave out --time-zone, or write the date without one")
                }
                try await photos.performChanges { changes in
                    if let title { changes.setTitle(title, for: ids) }
                    if clearTitle { changes.setTitle(nil, for: ids) }
                    if let caption { changes.setCaption(caption, for: ids) }
                    if clearCaption { changes.setCaption(nil, for: ids) }
                    if !keywords.isEmpty || clearKeywords { changes.setKeywords(keywords, for: ids) }
                    if !addKeywords.isEmpty { changes.addKeywords(addKeywords, to: ids) }
                    if !removeKeywords.isEmpty { changes.removeKeywords(removeKeywords, from: ids) }
                    if let rating { changes.setRating(rating, for: ids) }
                    if let localDate, let asset = targets.first {
                        // The zone the text gave, else --time-zone's, else the photo's own.
                        let offset = localDate.secondsFromGMT ?? zone ?? asset.creationDateOffset
                        changes.setCreationDate(localDate.date(secondsFromGMT: offset), offset: offset, for: asset.id)
                    } else if let shift {
                        let interval = (try? Self.interval(shift)) ?? 0
                        if let zone, zone == nil {
                            // Into an unknown zone: shift each, then keep its clock time as UTC's.
                            for asset in targets {
                                let local = asset.creationDate.addingTimeInterval(Double(asset.creationDateOffset ?? 0) + interval)
                                changes.setCreationDate(local, offset: nil, for: asset.id)
                            }
                        } else {
                            changes.shiftCreationDates(of: ids, by: interval, offset: zone ?? nil)
                        }
                    } else if let zone {
                        // A new zone alone: each photo keeps its clock time.
                        for asset in targets {
                            let local = asset.creationDate.addingTimeInterval(Double(asset.creationDateOffset ?? 0))
                            changes.setCreationDate(local.addingTimeInterval(-Double(zone ?? 0)), offset: zone, for: asset.id)
                        }
                    }
                    if revertDate { changes.revertCreationDate(of: ids) }
                    if let location, let place = try? Self.location(location) { changes.setLocation(place, for: ids) }
                    if removeLocation { changes.setLocation(nil, for: ids) }
                    if revertLocation { changes.revertLocation(of: ids) }
                }
                let changed = try photos.assets(ids)
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    Terminal.print(String(decoding: try encoder.encode(changed.map { AssetJSON($0) }), as: UTF8.self))
                } else {
                    for asset in changed { Terminal.print(AssetFormatting.line(asset)) }
                }
            }
        }
    }

    /// Seconds from `+1h30m`, `-2d`, `90s`, `-3600`.
    static func interval(_ text: String) throws -> TimeInterval {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite { return seconds }
        guard let match = trimmed.wholeMatch(of: /([+-]?)(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?/),
            match.2 != nil || match.3 != nil || match.4 != nil || match.5 != nil
        else {
            throw ValidationError("--shift takes an interval such as +1h30m, -2d, 90s or a number of seconds, not \(text)")
        }
        let parts = [(match.2, 86_400.0), (match.3, 3600), (match.4, 60), (match.5, 1)]
        let total = parts.reduce(0.0) { sum, part in sum + (part.0.flatMap { Double($0) } ?? 0) * part.1 }
        return match.1 == "-" ? -total : total
    }

    /// A location from `LATITUDE,LONGITUDE[,ALTITUDE]`.
    static func location(_ text: String) throws -> GPSLocation {
        let numbers = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(numbers.count), numbers.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--location takes LATITUDE,LONGITUDE[,ALTITUDE] in degrees and metres, such as 48.8584,2.2945, not \(text)")
        }
        guard let location = GPSLocation(latitude: numbers[0] ?? .nan, longitude: numbers[1] ?? .nan, altitude: numbers.count == 3 ? numbers[2] : nil)
        else {
            throw ValidationError("--location: latitude is -90 to 90 and longitude -180 to 180 degrees, not \(text)")
        }
        return location
    }
}
