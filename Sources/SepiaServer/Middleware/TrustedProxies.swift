import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The proxies whose forwarding headers are believed: addresses and CIDR ranges, IPv4 or IPv6.
struct TrustedProxies: Sendable {
    private struct Range: Sendable {
        var bytes: [UInt8]
        var prefixLength: Int
    }

    private let ranges: [Range]

    /// Parses `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`.
    init(_ specifications: [String]) throws {
        ranges = try specifications.map { spec in
            let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.parse(parts[0]) else {
                throw APIError.badRequest("--trusted-proxy '\(spec)' is not an IP address or CIDR range")
            }
            var length = bytes.count * 8
            if parts.count == 2 {
                guard let n = Int(parts[1]), (0...bytes.count * 8).contains(n) else {
                    throw APIError.badRequest("--trusted-proxy '\(spec)' has an invalid prefix length")
                }
                length = n
            }
            return Range(bytes: bytes, prefixLength: length)
        }
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is one of the proxies.
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.parse(address) else { return false }
        return ranges.contains { range in
            guard range.bytes.count == bytes.count else { return false }
            var remaining = range.prefixLength
            for i in bytes.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if bytes[i] & mask != range.bytes[i] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    /// The bytes of an IPv4 or IPv6 address (IPv4-mapped IPv6 addresses as IPv4).
    static func parse(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, trimmed, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
            return bytes
        }
        return nil
    }

    /// Whether `address` is a loopback address.
    static func isLoopback(_ address: String?) -> Bool {
        guard let address, let bytes = parse(address) else { return false }
        if bytes.count == 4 { return bytes[0] == 127 }
        return bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
    }
}
