package import ArgumentParser
import Foundation
import SepiaImage

/// `sepia filters`: every filter with its parameters and their Core Image attributes, and the editor's Adjust
/// panel.
package struct FiltersCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters and their parameters (default, range, slider range, identity), and the Adjust sliders.")

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    package struct Listing: Encodable {
        let catalog: [FilterItem]
        let instafilter: [FilterItem]
        let filters: [FilterDescriptor]
        let adjustments: [Adjustment]
    }

    package init() {}

    package func run() async throws {
        let catalog = try FilterCatalog.bundled()
        let descriptors = FilterRegistry.descriptors
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let listing = Listing(catalog: catalog, instafilter: FilterCatalog.instafilter, filters: descriptors, adjustments: Adjustment.panel)
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
        for info in descriptors {
            Terminal.print("\(info.coreImageName) (\(info.displayName)): \(info.summary)")
            for p in info.parameters {
                var line = "    \(p.coreImageKey)  \(p.kind.rawValue), default \(p.defaultValue)"
                if p.minimum != nil || p.maximum != nil { line += ", range \(format(p.minimum))...\(format(p.maximum))" }
                if p.sliderMinimum != nil || p.sliderMaximum != nil { line += ", slider \(format(p.sliderMinimum))...\(format(p.sliderMaximum))" }
                if let identity = p.identity { line += ", identity \(identity)" }
                Terminal.print(line)
            }
        }
        Terminal.print("")
        Terminal.print("Adjust sliders (sepia edit --adjust SLIDER=POSITION):")
        for section in Adjustment.Section.allCases {
            let sliders = Adjustment.panel.filter { $0.section == section }
            let listed = sliders.map { "\($0.id) (\(format($0.minimum))...1, \($0.positive.filter))" }
            Terminal.print("    \(section.title): " + listed.joined(separator: ", "))
        }
    }
}
