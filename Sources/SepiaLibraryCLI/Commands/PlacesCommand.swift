import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary
import SepiaPlaces

/// `sepia places [list|status|update]`: the Places album from the command line.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "List the countries and cities the library's photos were taken in.",
        discussion: """
            Places are found on this machine, in GeoNames' tables of cities (Debian's libtimezonemap-data, which \
            scripts/setup installs; SEPIA_GEONAMES names another folder of GeoNames tables, such as one with \
            cities1000.txt for towns of 1 000 people): the city nearest a photo's location, within 100 km, with its \
            region and country, in English. A photo is placed when it is imported or its location is edited; \
            `sepia places update` places those located before the tables were there. Nothing is downloaded.
            """,
        subcommands: [List.self, Status.self, Update.self],
        defaultSubcommand: List.self)

    /// `sepia places list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Print the countries, most photos first, with their cities.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                try await library.withLibrary(quiet: json) { photos in
                    let countries = try photos.placeSummaries()
                    if json { return try printJSON(countries) }
                    if countries.isEmpty {
                        Terminal.print("No photo has a place yet. Photos are placed by their GPS location; see: sepia places status")
                        return
                    }
                    for country in countries {
                        Terminal.print("\(country.country) (\(country.countryCode)): \(counted(country.assetCount))")
                        for city in country.cities {
                            let region = city.place.region.map { $0 == city.place.city ? "" : ", \($0)" } ?? ""
                            Terminal.print("  \(city.place.city)\(region): \(counted(city.assetCount))  [place \(city.place.id)]")
                        }
                    }
                }
            }
        }
    }

    /// `sepia places status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say how many photos are located and placed, and which table places come from.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                try await library.withLibrary(quiet: json) { photos in
                    let status = try photos.placesStatus()
                    if json { return try printJSON(status) }
                    Terminal.print("\(counted(status.locatedAssets)) with a location, \(status.placedAssets) placed")
                    if let table = status.citiesTable {
                        Terminal.print("Places come from \(table) (\(status.cityCount) cities).")
                    }
                    if let problem = status.problem {
                        Terminal.warning("places cannot be found: \(problem)")
                    } else if status.waitingAssets > 0 {
                        Terminal.print("\(counted(status.waitingAssets)) wait for a place; place them with: sepia places update")
                    }
                }
            }
        }
    }

    /// `sepia places update`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Place the photos located before places could be found, and count the map's cells anew.")

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                try await library.withLibrary { photos in
                    let cells = try photos.rebuildMapCells()
                    let looked = try photos.updatePlaces()
                    let status = try photos.placesStatus()
                    if let problem = status.problem { throw ValidationError("places cannot be found: \(problem)") }
                    Terminal.print("Looked at \(counted(looked)); \(status.placedAssets) of \(status.locatedAssets) located ones have a place.")
                    Terminal.print("The map's kept cells counted anew: \(cells).")
                }
            }
        }
    }
}

/// `value` as the commands print JSON: indented, keys sorted.
private func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    Terminal.print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// "1 photo", "2 photos".
private func counted(_ count: Int) -> String {
    "\(count) \(count == 1 ? "photo" : "photos")"
}
