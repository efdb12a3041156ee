import Foundation

/// One page of a fetch (``PhotoLibrary/fetchAssetPage(_:options:after:limit:)``): the assets, where the next
/// page starts, and how many assets match in all.
public struct AssetPage: Sendable {
    /// The assets of this page, in the fetch's order.
    public var assets: [Asset]
    /// Where the next page starts; nil on the last page.
    public var nextCursor: AssetCursor?
    /// The number of assets the fetch matches, on every page.
    public var total: Int
}

/// A position in the order of a fetch: the sort values of the last asset of a page. Unlike an offset, it
/// stays valid while assets are added and deleted: the next page starts after that position, so nothing
/// repeats and nothing is skipped. Pass it around as its ``token``.
public struct AssetCursor: Sendable, Hashable {
    /// A sort value.
    enum Value: Sendable, Hashable, Codable {
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    /// The ordering the cursor was made for.
    let order: String
    /// The sort values of the last asset, one per ordering term.
    let values: [Value]

    init(order: String, values: [Value]) {
        self.order = order
        self.values = values
    }

    private struct Encoded: Codable {
        var o: String
        var v: [Value]
    }

    /// The cursor as an opaque, URL-safe string.
    public var token: String {
        let data = (try? JSONEncoder().encode(Encoded(o: order, v: values))) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor from its ``token``.
    ///
    /// - Throws: ``LibraryError/Code/invalidRequest`` when the string is not a cursor.
    public init(token: String) throws(LibraryError) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard token.count <= 4096, let data = Data(base64Encoded: base64),
            let decoded = try? JSONDecoder().decode(Encoded.self, from: data), !decoded.v.isEmpty
        else {
            throw LibraryError(.invalidRequest, "the cursor is not one a page of this library gave; start from the first page")
        }
        self.init(order: decoded.o, values: decoded.v)
    }
}
