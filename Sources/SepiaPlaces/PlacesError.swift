/// Why the GeoNames tables could not be loaded.
public struct PlacesError: Error, Sendable, CustomStringConvertible {
    /// The file that failed.
    public var path: String
    /// What is wrong with it, and what to do.
    public var reason: String

    /// An error about `path`.
    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The file and what is wrong with it, in one line.
    public var description: String { "\(path): \(reason)" }
}
