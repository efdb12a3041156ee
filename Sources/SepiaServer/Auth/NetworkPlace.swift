/// Where a client's address is, in words: this computer, the local network, or the internet. Said beside the
/// address itself in the list of signed-in devices; the server looks nothing up elsewhere.
enum NetworkPlace {
    /// Private, shared and link-local ranges: RFC 1918, RFC 6598 (carrier-grade NAT), RFC 3927, RFC 4193, RFC 4291.
    private static let localRanges = try! TrustedProxies([
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "fc00::/7", "fe80::/10",
    ])

    /// "This computer", "Local network", "Internet", or "Unknown" for an address that is missing or not an address.
    static func of(_ address: String?) -> String {
        guard let address, TrustedProxies.parse(address) != nil else { return "Unknown" }
        if TrustedProxies.isLoopback(address) { return "This computer" }
        if localRanges.contains(address) { return "Local network" }
        return "Internet"
    }
}
