import Foundation

/// A tile server's URL template (`https://tile.example.org/{z}/{x}/{y}.png`), checked once: HTTPS or HTTP, a host,
/// the three placeholders, and nothing that could end the content security policy it is written into.
public struct MapTiles: Sendable, Hashable {
    /// The template, as the map's library takes it.
    public let template: String
    /// `scheme://host[:port]`: what the pages' `img-src` allows beside the server itself.
    public let origin: String

    /// Checks `template`; the error says what is wrong with it.
    public init(_ template: String) throws {
        guard template.count <= 500,
            let url = URL(string: template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else {
            throw MapTilesError("--map-tiles takes a tile URL such as https://tile.example.org/{z}/{x}/{y}.png")
        }
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains) else {
            throw MapTilesError("--map-tiles needs {z}, {x} and {y} in the URL, where the map puts a tile's zoom and place")
        }
        guard !template.contains(where: { $0.isWhitespace || "'\";,\\<>`".contains($0) }) else {
            throw MapTilesError("--map-tiles may not hold spaces, quotes, commas, semicolons or angle brackets")
        }
        self.template = template
        self.origin = scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }
}

/// Why a tile URL was refused.
public struct MapTilesError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, and what to give instead.
    public let description: String

    init(_ description: String) { self.description = description }
}
