import Foundation
import Hummingbird
import NIOCore
import SepiaImage
import SepiaLibrary

/// What the controllers share: the configuration, the account store, the libraries, the password hasher,
/// the login throttle, the metrics, the limits and the job queue.
struct ServerServices: Sendable {
    let configuration: ServerConfiguration
    let accounts: AccountStore
    let libraries: LibraryRegistry
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let metrics: ServerMetrics
    let json: JSONBody
    /// The lanes uploads are decoded and rendered on: one upload per lane at a time (each holds a whole file
    /// and a preview), each lane with its share of the render threads.
    let imports: RenderLanes
    /// The filter catalog: FilterData's entries, then Instafilter's.
    let catalog: [CatalogEntry]
    /// The proxies whose forwarding headers are believed.
    let proxies: TrustedProxies
    /// The deployment's deferred work, in the server database.
    let jobs: JobQueue
    /// Wakes this server's idle job workers when it adds a job.
    let jobWakeUps = JobWakeUps()
    /// The live change streams open on this server, per account.
    let changeStreams: StreamSlots
    /// The ZIP downloads streaming from this server, per account and per share link.
    let downloads: StreamSlots
    /// The renders in flight and waiting on this server, per account and per share link.
    let renders: RenderAdmission
    /// The searches, suggestions, map markers, Places and Duplicates queries running on this server, per account
    /// (``admitQuery(for:)``): each reads a large part of a library, so an account runs a few at once.
    let libraryQueries = StreamSlots(maximumPerKey: ServerServices.maximumQueriesPerAccount)
    /// How far the playable versions being made on any server have come, for the change streams.
    let jobProgress: JobProgressFeed
    /// This server's face indexing: where each library's pass is, and why faces cannot be found, if they cannot.
    let faceIndexing = FaceIndexingState()
    /// The face pictures this server made lately (People's cards, a photo's faces), by account and picture tag:
    /// the People view shows dozens at once, and each is otherwise cut again from its photo's preview.
    let faceCrops = LRUCache<String, Rendition>(costLimit: 16 << 20)

    /// One entry of the catalog with where it comes from.
    struct CatalogEntry: Sendable {
        var item: FilterItem
        /// `FilterData` (the LetsEat catalog) or `Instafilter`.
        var group: String
        /// Where the Intensity slider starts when the entry is chosen: Instafilter's 0.5 for its filters, the
        /// entry's own intensity (else 1) for the catalog's.
        var intensity: Double

        init(item: FilterItem, group: String) {
            self.item = item
            self.group = group
            if group == "Instafilter" {
                intensity = 0.5
            } else {
                intensity = item.parameters["inputIntensity"]?.number ?? item.parameters["intensity"]?.number ?? 1
            }
        }

        /// The recipe step the entry applies with the slider at `t`: its preset parameters, and the keys the
        /// slider drives set from `t`; a filter the slider has no keys of (the looks) gets `t` as the step's
        /// intensity instead, left out at 1. Nil for None.
        func step(intensity t: Double) -> EditRecipe.Step? {
            guard !item.isNone, let descriptor = FilterRegistry.type(named: item.filter)?.descriptor else { return nil }
            var parameters = item.parameters
            let driven = FilterRegistry.sliderParameters(for: descriptor, intensity: t)
            for (key, value) in driven {
                guard let parameter = descriptor.parameter(forKey: key) else { continue }
                parameters[parameter.key] = nil
                parameters[parameter.coreImageKey] = value
            }
            let intensity = driven.isEmpty && t < 1 ? max(0, t) : nil
            return EditRecipe.Step(filter: item.filter, parameters: parameters, intensity: intensity)
        }
    }

    /// The base of links the server prints and shares: the public URL, else the address the client reached.
    ///
    /// The `Host` header is the client's to choose, so a link built from whatever it sends could point anywhere
    /// (`Host: evil.example` would make `http://evil.example/s/…`, a link someone then trusts). Without a public
    /// URL, the header is used only when it names this server as the connection reached it — its IP address,
    /// or `localhost` on a loopback address, with the port the connection reached; otherwise links use that
    /// address and port themselves.
    func baseURL(for request: Request, context: AppRequestContext) -> String {
        if let url = configuration.publicURL?.absoluteString {
            return url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        let scheme = context.isSecure ? "https://" : "http://"
        guard let local = context.localAddress, let ip = local.ipAddress, let port = local.port else {
            return scheme + (configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host) + ":\(configuration.port)"
        }
        let reached = (ip.contains(":") ? "[\(ip)]" : ip) + ":\(port)"
        if let authority = request.head.authority, Self.authority(authority, names: ip, port: port) { return scheme + authority }
        return scheme + reached
    }

    /// Whether a `Host` value names the address `ip` and `port`: that address written as a literal (IPv6 in
    /// brackets), or `localhost` when it is a loopback address; without a port, the port must be 80.
    static func authority(_ authority: String, names ip: String, port: Int) -> Bool {
        var host = Substring(authority.lowercased())
        var given = 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return false }
                given = number
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return false }
            given = number
            host = host[..<colon]
        }
        guard given == port else { return false }
        if host == "localhost" { return ip == "127.0.0.1" || ip == "::1" || ip.hasPrefix("::ffff:127.") || ip.hasPrefix("127.") }
        return Self.sameAddress(String(host), ip)
    }

    /// Whether two IP address literals are the same address (IPv6 may be written in several ways).
    private static func sameAddress(_ a: String, _ b: String) -> Bool {
        guard let x = try? SocketAddress(ipAddress: a, port: 0), let y = try? SocketAddress(ipAddress: b, port: 0) else { return false }
        return x.ipAddress == y.ipAddress
    }

    /// The `Set-Cookie` value of a session, or of its removal when `secret` is nil.
    func sessionCookie(_ secret: String?, context: AppRequestContext) -> String {
        var cookie = AuthenticationMiddleware.cookieName + "=" + (secret ?? "") + "; Path=/; HttpOnly; SameSite=Strict"
        cookie += secret == nil ? "; Max-Age=0" : "; Max-Age=\(Int(configuration.sessionLifetime))"
        if configuration.isSecure || context.isSecure { cookie += "; Secure" }
        return cookie
    }
}
