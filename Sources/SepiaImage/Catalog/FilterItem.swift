/// One entry of a filter menu: a Core Image filter name and the label people see. The LetsEat app's
/// `FilterItem(filter:name:)`; the filter `None` stands for the unfiltered image. An entry may also preset
/// parameters (an optional `parameters` dictionary in the property list, by Core Image key).
public struct FilterItem: Sendable, Hashable, Codable {
    /// A Core Image filter name, or `None`.
    public var filter: String
    /// The label.
    public var name: String
    /// Preset parameter values; missing ones take their defaults.
    public var parameters: [String: FilterValue]

    /// Creates an item.
    public init(filter: String, name: String, parameters: [String: FilterValue] = [:]) {
        self.filter = filter
        self.name = name
        self.parameters = parameters
    }

    /// Whether this item means "no filter".
    public var isNone: Bool { filter == "None" }

    /// The filter with the preset parameters; nil for `None`.
    public func makeFilter() throws(FilterError) -> (any Filter)? {
        isNone ? nil : try FilterRegistry.makeFilter(named: filter, parameters: parameters)
    }

    /// `image` with the item's filter (or unchanged for `None`).
    public func apply(to image: Image) throws(FilterError) -> Image {
        guard let filter = try makeFilter() else { return image }
        return image.applying(filter)
    }
}
