public import Foundation

/// The filter menu of the LetsEat app, read from its `FilterData.plist` (bundled byte for byte) with
/// `PropertyListSerialization`: None, Mono, Sepia, Tonal, Noir, Fade, Chrome, Process, Transfer, Instant.
public enum FilterCatalog {
    /// Why a catalog could not be read.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        public let reason: String
        /// A sentence.
        public var description: String { "cannot read the filter catalog: \(reason)" }
    }

    /// Reads a catalog: a property list holding an array of dictionaries with `filter` and `name` strings.
    /// Every filter must be known (or `None`).
    public static func load(propertyList data: Data) throws -> [FilterItem] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw LoadError(reason: "not a property list (\(error.localizedDescription))")
        }
        guard let entries = object as? [[String: Any]] else {
            throw LoadError(reason: "the property list is not an array of dictionaries")
        }
        return try entries.enumerated().map { index, entry in
            guard let filter = entry["filter"] as? String, let name = entry["name"] as? String else {
                throw LoadError(reason: "entry \(index) lacks a 'filter' or 'name' string")
            }
            if filter != "None" && FilterRegistry.type(named: filter) == nil {
                throw LoadError(reason: "entry \(index) names the unknown filter '\(filter)'")
            }
            var parameters: [String: FilterValue] = [:]
            let descriptor = FilterRegistry.type(named: filter)?.descriptor
            for (key, value) in entry["parameters"] as? [String: Any] ?? [:] {
                let kind = descriptor?.parameter(forKey: key)?.kind
                guard let converted = Self.value(value, boolean: kind == .boolean) else {
                    throw LoadError(reason: "entry \(index): parameter '\(key)' is not a number, a list of numbers or a flag")
                }
                parameters[key] = converted
            }
            let item = FilterItem(filter: filter, name: name, parameters: parameters)
            do {
                _ = try item.makeFilter()
            } catch {
                throw LoadError(reason: "entry \(index): \(error)")
            }
            return item
        }
    }

    /// A property-list value as a parameter value; `boolean` says how to read numbers and flags, which
    /// Foundation bridges into each other.
    private static func value(_ any: Any, boolean: Bool) -> FilterValue? {
        if boolean {
            if let b = any as? Bool { return .bool(b) }
            return nil
        }
        switch any {
        case let n as Double: return .number(n)
        case let n as Int: return .number(Double(n))
        case let n as NSNumber: return .number(n.doubleValue)
        case let list as [Any]:
            let numbers = list.compactMap { ($0 as? NSNumber)?.doubleValue ?? ($0 as? Double) ?? ($0 as? Int).map(Double.init) }
            return numbers.count == list.count ? .vector(numbers) : nil
        default: return nil
        }
    }

    /// The bundled LetsEat catalog.
    public static func bundled() throws -> [FilterItem] {
        guard let url = Bundle.module.url(forResource: "FilterData", withExtension: "plist") else {
            throw LoadError(reason: "FilterData.plist is missing from the SepiaImage resources")
        }
        return try load(propertyList: try Data(contentsOf: url))
    }

    /// Instafilter's menu, in its order: Crystallize, Edges, Gaussian Blur, Pixellate, Sepia Tone, Unsharp Mask,
    /// Vignette. Its slider maps onto each with ``FilterRegistry/sliderParameters(for:intensity:)``.
    public static let instafilter: [FilterItem] = [
        FilterItem(filter: "CICrystallize", name: "Crystallize"), FilterItem(filter: "CIEdges", name: "Edges"),
        FilterItem(filter: "CIGaussianBlur", name: "Gaussian Blur"), FilterItem(filter: "CIPixellate", name: "Pixellate"),
        FilterItem(filter: "CISepiaTone", name: "Sepia Tone"), FilterItem(filter: "CIUnsharpMask", name: "Unsharp Mask"),
        FilterItem(filter: "CIVignette", name: "Vignette"),
    ]
}
