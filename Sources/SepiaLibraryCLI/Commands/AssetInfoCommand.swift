import ArgumentParser
import Foundation
import SepiaCodecs
import SepiaCommandLine
import SepiaLibrary
import SepiaPlaces

/// `sepia info PHOTO…`: a library photo's properties, its edited date and place beside the file's own. `sepia`
/// runs `info` on files itself; it hands the command here when the arguments name photos of the library.
struct AssetInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a library photo's title, caption, keywords, rating, date, time zone and location (or image files' metadata).",
        discussion: """
            With files, shows their format, size, orientation, colour profile and EXIF (see the image commands). \
            With photos of the library (identifiers or unique prefixes), shows their properties; a date, time \
            zone or location that was changed is shown with the file's own value beside it.
            """)

    @Argument(help: "Photos of the library (identifiers or unique prefixes), or image files.")
    var items: [String]

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if items.isEmpty { throw ValidationError("name at least one photo or file") }
    }

    func run() async throws {
        if items.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) {
            let files = try InfoCommand.parse(items + (json ? ["--json"] : []))
            try await files.run()
            return
        }
        try await reportingErrors {
            try await library.withLibrary { photos in
                let assets = try photos.assets(matching: items)
                let places = try photos.places(of: assets)
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    Terminal.print(String(decoding: try encoder.encode(assets.map { AssetJSON($0, place: places[$0.id]) }), as: UTF8.self))
                    return
                }
                for (index, asset) in assets.enumerated() {
                    if index > 0 { Terminal.print("") }
                    for (label, value) in Self.lines(asset, place: places[asset.id]) {
                        Terminal.print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
                    }
                }
            }
        }
    }

    /// The lines `info` prints for a photo, label and value.
    static func lines(_ asset: Asset, place named: Place?) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("id", asset.id),
            ("file", "\(asset.originalFilename) (\(asset.originalFormat.rawValue), \(asset.originalByteCount) bytes)"),
            ("size", "\(asset.pixelWidth)x\(asset.pixelHeight)"),
        ]
        if let title = asset.title { lines.append(("title", title)) }
        if let caption = asset.caption {
            lines.append(("caption", caption.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 12))))
        }
        if !asset.keywords.isEmpty { lines.append(("keywords", asset.keywords.joined(separator: ", "))) }
        if asset.rating > 0 {
            lines.append(("rating", String(repeating: "★", count: asset.rating) + String(repeating: "☆", count: 5 - asset.rating)))
        }
        let taken =
            AssetFormatting.isoDate(asset.creationDate, offset: asset.creationDateOffset)
            + (asset.creationDateOffset == nil ? " (time zone unknown)" : "")
        if asset.isCreationDateEdited, let file = asset.fileMetadata {
            lines.append(("taken", taken + " (adjusted)"))
            lines.append(
                (
                    "file date",
                    AssetFormatting.isoDate(file.creationDate, offset: file.creationDateOffset) + " (from \(file.creationDateSource.rawValue))"
                ))
        } else {
            lines.append(("taken", taken + " (from \(asset.creationDateSource.rawValue))"))
        }
        let place = asset.location.map(Self.place) ?? "none"
        if asset.isLocationEdited, let file = asset.fileMetadata {
            lines.append(("location", place + (asset.location == nil ? " (removed)" : " (adjusted)")))
            lines.append(("file place", file.location.map(Self.place) ?? "none"))
        } else if asset.location != nil {
            lines.append(("location", place))
        }
        if let named { lines.append(("place", named.displayName)) }
        if let camera = [asset.cameraMake, asset.cameraModel].compactMap({ $0 }).joined(separator: " ").nilIfEmpty {
            lines.append(("camera", camera))
        }
        let flags = [asset.isFavorite ? "favourite" : nil, asset.isHidden ? "hidden" : nil, asset.hasAdjustments ? "edited" : nil].compactMap { $0 }
        if !flags.isEmpty { lines.append(("flags", flags.joined(separator: ", "))) }
        lines.append(("added", AssetFormatting.isoDate(asset.addedDate, offset: 0)))
        return lines
    }

    static func place(_ location: GPSLocation) -> String {
        String(format: "%.6f, %.6f", location.latitude, location.longitude) + (location.altitude.map { String(format: ", %.1f m", $0) } ?? "")
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
