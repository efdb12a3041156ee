import ArgumentParser
import Foundation
import SepiaImage

/// `sepia filters`: every filter with its parameters and their Core Image attributes.
struct FiltersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters and their parameters (default, range, slider range, identity).")

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    struct ParameterInfo: Encodable {
        let key: String
        let coreImageKey: String
        let kind: String
        let summary: String
        let defaultValue: FilterValue
        let minimum: Double?
        let maximum: Double?
        let sliderMinimum: Double?
        let sliderMaximum: Double?
        let identity: FilterValue?
    }

    struct FilterInfo: Encodable {
        let name: String
        let coreImageName: String
        let displayName: String
        let categories: [String]
        let summary: String
        let inputKeys: [String]
        let parameters: [ParameterInfo]
    }

    struct Listing: Encodable {
        let catalog: [FilterItem]
        let instafilter: [FilterItem]
        let filters: [FilterInfo]
    }

    func run() async throws {
        let catalog = try FilterCatalog.bundled()
        let infos = FilterRegistry.descriptors.map { d in
            FilterInfo(
                name: d.name, coreImageName: d.coreImageName, displayName: d.displayName,
                categories: d.categories.map(\.rawValue), summary: d.summary, inputKeys: d.inputKeys,
                parameters: d.parameters.map { p in
                    ParameterInfo(
                        key: p.key, coreImageKey: p.coreImageKey, kind: p.kind.rawValue, summary: p.summary,
                        defaultValue: p.defaultValue, minimum: p.minimum, maximum: p.maximum,
                        sliderMinimum: p.sliderMinimum, sliderMaximum: p.sliderMaximum, identity: p.identity)
                })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let listing = Listing(catalog: catalog, instafilter: FilterCatalog.instafilter, filters: infos)
            Terminal.print(String(decoding: try encoder.encode(listing), as: UTF8.self))
            return
        }
        Terminal.print("Catalog (FilterData.plist): " + catalog.map { "\($0.name) (\($0.filter))" }.joined(separator: ", "))
        Terminal.print("Instafilter: " + FilterCatalog.instafilter.map(\.filter).joined(separator: ", "))
        Terminal.print("")
        func format(_ d: Double?) -> String {
            guard let d else { return "-" }
            return d == d.rounded() && abs(d) < 1e9 ? String(Int(d)) : String(format: "%g", d)
        }
        for info in infos {
            Terminal.print("\(info.coreImageName) (\(info.displayName)): \(info.summary)")
            for p in info.parameters {
                var line = "    \(p.coreImageKey)  \(p.kind), default \(p.defaultValue)"
                if p.minimum != nil || p.maximum != nil { line += ", range \(format(p.minimum))...\(format(p.maximum))" }
                if p.sliderMinimum != nil || p.sliderMaximum != nil { line += ", slider \(format(p.sliderMinimum))...\(format(p.sliderMaximum))" }
                if let identity = p.identity { line += ", identity \(identity)" }
                Terminal.print(line)
            }
        }
    }
}
