import Foundation
public import Hummingbird
public import Logging
import SepiaImage
import SepiaLibrary
import ServiceLifecycle

/// What a running server tells whoever started it.
public struct ServerEvents: Sendable {
    /// Called while the application is built, when no account exists yet, with the one-time setup token of
    /// the owner's account (the link is `<base URL>/setup?token=<token>`).
    public var setupTokenCreated: @Sendable (_ token: String) -> Void
    /// Called once the server listens, with its base URL and, while no account exists, the setup link.
    public var serverRunning: @Sendable (_ baseURL: String, _ setupURL: String?) -> Void

    /// Events; by default nobody listens.
    public init(
        setupTokenCreated: @escaping @Sendable (String) -> Void = { _ in },
        serverRunning: @escaping @Sendable (String, String?) -> Void = { _, _ in }
    ) {
        self.setupTokenCreated = setupTokenCreated
        self.serverRunning = serverRunning
    }
}

/// Builds Sepia's server: the JSON API under `/api/v1`, the change stream, share links, health and metrics,
/// and the web app — on the owner's library and the server's own database, both opened (and created) here,
/// so that a broken library or data folder stops the server before it listens.
///
/// Tests call it and run the result in process (`app.test(.router)`) or live (`app.test(.live)`); `sepia
/// serve` runs it with graceful shutdown on SIGTERM and SIGINT.
///
/// ```swift
/// let app = try await buildApplication(ServerConfiguration(libraryPath: "/srv/photos"))
/// try await app.runService()
/// ```
public func buildApplication(
    _ configuration: ServerConfiguration, logger: Logger = Logger(label: "sepia.server"), events: ServerEvents = ServerEvents()
) async throws -> some ApplicationProtocol {
    try buildApplication(services: try makeServices(configuration), logger: logger, events: events)
}

/// Builds the application on services made by ``makeServices(_:)``.
func buildApplication(services: ServerServices, logger: Logger, events: ServerEvents) throws -> some ApplicationProtocol {
    let configuration = services.configuration
    let accounts = services.accounts
    var created: String?
    if try accounts.userCount() == 0 {
        let (secret, _) = try accounts.createSetupToken(kind: .owner, lifetime: configuration.setupLinkLifetime, createdBy: nil)
        created = secret
        events.setupTokenCreated(secret)
    }
    let setupToken = created

    let router = buildRouter(services: services, logger: logger)
    let resolver = CachedRenditionResolver(services: services)
    let app = Application(
        router: router,
        server: SepiaHTTP1Channel.builder(resolver: resolver),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Sepia"),
        services: backgroundServices(services, logger: logger),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            let base =
                configuration.publicURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString }
                ?? "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(port)"
            events.serverRunning(base, setupToken.map { base + "/setup?token=" + $0 })
        },
        logger: logger)
    return app
}

/// What runs beside the server: the job workers, the purges of Recently Deleted and the face indexing they do, the sweeper of shared
/// storage, and the libraries' closing (services stop last to first, so the libraries close after the workers
/// have stopped).
func backgroundServices(_ services: ServerServices, logger: Logger) -> [any Service] {
    let configuration = services.configuration
    var background: [any Service] = [LibraryShutdown(libraries: services.libraries)]
    if configuration.jobWorkers > 0 {
        // Queued by the servers that do jobs (a deployment has at least one, or uploads get no previews).
        for (kind, adding, work) in [
            (Job.Kind.purgeRecentlyDeleted, EveryLibraryJob.Adding.enqueue, "the purge of Recently Deleted"),
            (.faces, .request, "the indexing of faces"),
        ] {
            background.append(
                EveryLibraryJob(
                    kind: kind, adding: adding, work: work, queue: services.jobs, accounts: services.accounts,
                    interval: configuration.purgeInterval, wakeUps: services.jobWakeUps, logger: logger))
        }
        var runner = JobRunner(
            queue: services.jobs, accounts: services.accounts, libraries: services.libraries, metrics: services.metrics,
            workers: configuration.jobWorkers, longWorkers: configuration.longJobWorkers, longEncodePixels: configuration.longEncodePixels,
            lease: configuration.jobLease, pollInterval: configuration.jobPollInterval, wakeUps: services.jobWakeUps, logger: logger)
        runner.faceIndexingState = services.faceIndexing
        runner.faceIndexing = configuration.faceIndexing
        runner.faceBatch = configuration.faceIndexBatch
        background.append(runner)
    }
    if configuration.objectStorage != nil || configuration.database != nil {
        background.append(StorageSweeper(libraries: services.libraries, interval: configuration.sweepInterval, logger: logger))
    }
    return background
}

/// Opens the server's database and the owner's library and gathers what the controllers share.
func makeServices(_ configuration: ServerConfiguration) throws -> ServerServices {
    do {
        try FileManager.default.createDirectory(atPath: configuration.dataPath, withIntermediateDirectories: true)
    } catch {
        throw APIError.internalError("cannot create the data folder \(configuration.dataPath): \(error.localizedDescription)")
    }
    let accounts =
        if let database = configuration.database {
            try AccountStore(postgreSQL: database)
        } else {
            try AccountStore(path: configuration.dataPath + "/server.sqlite")
        }
    let libraries = LibraryRegistry(configuration: configuration, renderContext: configuration.renderContext ?? RenderContext())
    _ = try libraries.openOwnerLibrary()
    var catalog = try FilterCatalog.bundled().map { ServerServices.CatalogEntry(item: $0, group: "FilterData") }
    catalog += FilterCatalog.instafilter.map { ServerServices.CatalogEntry(item: $0, group: "Instafilter") }
    let metrics = ServerMetrics()
    return ServerServices(
        configuration: configuration, accounts: accounts, libraries: libraries, hasher: PasswordHasher(cost: configuration.passwordCost),
        throttle: LoginThrottle(), metrics: metrics,
        json: JSONBody(maximumBytes: configuration.maximumJSONBytes, maximumDepth: configuration.maximumJSONDepth),
        imports: RenderLanes(count: max(2, ProcessInfo.processInfo.activeProcessorCount), sharing: libraries.renderContext), catalog: catalog,
        proxies: try TrustedProxies(configuration.trustedProxies), jobs: JobQueue(database: accounts.database),
        changeStreams: StreamSlots(maximumPerKey: configuration.maximumChangeStreamsPerUser),
        downloads: StreamSlots(maximumPerKey: configuration.maximumDownloadsPerUser),
        renders: RenderAdmission(limits: configuration.renderLimits, metrics: metrics),
        jobProgress: JobProgressFeed(queue: JobQueue(database: accounts.database)))
}

/// The routes, each under the permission it needs, and the middleware every request goes through.
func buildRouter(services: ServerServices, logger: Logger) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ResponseMiddleware(metrics: services.metrics, mapTiles: services.configuration.mapTiles))
    router.add(middleware: ClientAddressMiddleware(proxies: services.proxies, publicURLIsSecure: services.configuration.isSecure))
    router.add(
        middleware: AuthenticationMiddleware(
            accounts: services.accounts, libraries: services.libraries, sessionLifetime: services.configuration.sessionLifetime))

    let api = "/api/v1"
    router.addRoutes(AuthController(services: services).endpoints, atPath: RouterPath(api))
    router.addRoutes(TwoFactorController(services: services).endpoints, atPath: RouterPath(api))
    router.addRoutes(SessionListController(services: services).endpoints, atPath: RouterPath(api))
    router.addRoutes(TokenController(services: services).endpoints, atPath: RouterPath(api + "/tokens"))
    router.addRoutes(ShareController(services: services).endpoints, atPath: RouterPath(api + "/shares"))
    router.addRoutes(SharedController(services: services).endpoints, atPath: RouterPath(api + "/shared"))
    router.addRoutes(UserController(services: services).endpoints, atPath: RouterPath(api + "/users"))
    router.addRoutes(AssetController(services: services).endpoints, atPath: RouterPath(api + "/assets"))
    router.addRoutes(RecentlyDeletedController(services: services).endpoints, atPath: RouterPath(api + "/recently-deleted"))
    router.addRoutes(RenditionController(services: services).endpoints, atPath: RouterPath(api + "/assets"))
    router.addRoutes(EditController(services: services).endpoints, atPath: RouterPath(api + "/assets"))
    router.addRoutes(FilterController(services: services).endpoints, atPath: RouterPath(api + "/filters"))
    router.addRoutes(PresetController(services: services).endpoints, atPath: RouterPath(api + "/presets"))
    router.addRoutes(PeopleController(services: services).endpoints, atPath: RouterPath(api + "/people"))
    router.addRoutes(FaceController(services: services).endpoints, atPath: RouterPath(api))
    router.addRoutes(PlaceController(services: services).endpoints, atPath: RouterPath(api + "/places"))
    router.addRoutes(SearchController(services: services).endpoints, atPath: RouterPath(api + "/search"))
    router.addRoutes(DuplicateController(services: services).endpoints, atPath: RouterPath(api + "/duplicates"))
    router.addRoutes(SavedSearchController(services: services).endpoints, atPath: RouterPath(api + "/searches"))
    router.addRoutes(MapController(services: services).endpoints, atPath: RouterPath(api + "/map"))
    router.addRoutes(MapAssetsController(configuration: services.configuration).endpoints)
    router.addRoutes(AlbumController(services: services).endpoints, atPath: RouterPath(api + "/albums"))
    router.addRoutes(CollectionController(services: services).endpoints, atPath: RouterPath(api + "/collections"))
    router.addRoutes(ChangeController(services: services).endpoints, atPath: RouterPath(api + "/changes"))
    router.addRoutes(DownloadController(services: services).endpoints, atPath: RouterPath(api + "/downloads"))
    router.addRoutes(OperationsController(services: services).endpoints)
    router.addRoutes(WebAppController(root: webRoot(services.configuration)).endpoints)
    return router
}

/// The folder the web app is served from.
func webRoot(_ configuration: ServerConfiguration) -> String {
    if let root = configuration.webRoot { return root }
    if let root = ProcessInfo.processInfo.environment["SEPIA_WEB_ROOT"], !root.isEmpty { return root }
    return (Bundle.module.resourcePath ?? Bundle.module.bundlePath) + "/Web"
}

/// Closes the libraries once the server has finished its requests (services shut down after the server).
struct LibraryShutdown: Service {
    let libraries: LibraryRegistry

    func run() async throws {
        try? await gracefulShutdown()
        libraries.closeAll()
    }
}
