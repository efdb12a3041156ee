import ArgumentParser
import Foundation
package import SepiaImage

/// A filter as the command line names it (`CISepiaTone --intensity 0.8 --param inputRadius=3`), or an edit
/// recipe file.
package enum FilterInvocation {
    /// Builds the filter `name` with Instafilter's slider `intensity` and `KEY=VALUE` parameters, which win
    /// over the slider. A filter the slider has no keys of (the looks: `CIPhotoEffectNoir --intensity 0.4`) is
    /// applied at that intensity instead, its result mixed with the input (``FilterAtIntensity``).
    package static func makeFilter(named name: String, intensity: Double?, parameters: [String]) throws -> any Filter {
        guard let type = FilterRegistry.type(named: name) else {
            throw ValidationError(FilterError.unknownFilter(name: name).description)
        }
        if let intensity, !(0...1).contains(intensity) { throw ValidationError("--intensity must be between 0 and 1") }
        var values: [String: FilterValue] = [:]
        var mix: Double?
        if let intensity {
            values = FilterRegistry.sliderParameters(for: type.descriptor, intensity: intensity)
            if values.isEmpty {
                guard !type.descriptor.categories.contains(.geometryAdjustment) else {
                    throw ValidationError("\(type.descriptor.coreImageName) changes the geometry and has no intensity; use --param")
                }
                mix = intensity
            }
        }
        for item in parameters {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw ValidationError("--param takes KEY=VALUE, not '\(item)'")
            }
            let key = String(item[..<eq])
            let value = FilterValue(parsing: String(item[item.index(after: eq)...]))
            if let existing = type.descriptor.parameter(forKey: key) {
                values[existing.key] = value
            } else {
                values[key] = value
            }
        }
        let filter: any Filter
        do {
            filter = try FilterRegistry.makeFilter(named: name, parameters: values)
        } catch {
            throw ValidationError(error.description)
        }
        guard let mix else { return filter }
        return atIntensity(filter, Float(mix))
    }

    private static func atIntensity<F: Filter>(_ filter: F, _ intensity: Float) -> any Filter {
        filter.atIntensity(intensity)
    }

    /// Reads and validates an edit recipe file.
    package static func loadRecipe(_ path: String) throws -> EditRecipe {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the recipe \(path): \(error.localizedDescription)")
        }
        do {
            let recipe = try EditRecipe.decode(data)
            _ = try recipe.makeFilters()
            return recipe
        } catch {
            throw ValidationError("\(path): \(error.description)")
        }
    }
}
