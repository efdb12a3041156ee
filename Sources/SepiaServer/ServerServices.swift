import Foundation
import Hummingbird
import SepiaImage

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
        /// slider drives set from `t`; nil for None.
        func step(intensity t: Double) -> EditRecipe.Step? {
            guard !item.isNone, let descriptor = FilterRegistry.type(named: item.filter)?.descriptor else { return nil }
            var parameters = item.parameters
            for (key, value) in FilterRegistry.sliderParameters(for: descriptor, intensity: t) {
                guard let parameter = descriptor.parameter(forKey: key) else { continue }
                parameters[parameter.key] = nil
                parameters[parameter.coreImageKey] = value
            }
            return EditRecipe.Step(filter: item.filter, parameters: parameters)
        }
    }

    /// The base of links the server prints and shares: the public URL, else what the client used.
    func baseURL(for request: Request, context: AppRequestContext) -> String {
        if let url = configuration.publicURL?.absoluteString {
            return url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        return (context.isSecure ? "https://" : "http://") + host
    }

    /// The `Set-Cookie` value of a session, or of its removal when `secret` is nil.
    func sessionCookie(_ secret: String?, context: AppRequestContext) -> String {
        var cookie = AuthenticationMiddleware.cookieName + "=" + (secret ?? "") + "; Path=/; HttpOnly; SameSite=Strict"
        cookie += secret == nil ? "; Max-Age=0" : "; Max-Age=\(Int(configuration.sessionLifetime))"
        if configuration.isSecure || context.isSecure { cookie += "; Secure" }
        return cookie
    }
}
