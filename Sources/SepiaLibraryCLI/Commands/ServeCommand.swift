import ArgumentParser
import Foundation
import Logging
import SepiaCommandLine
import SepiaLibrary
import SepiaObjectStore
import SepiaServer
import ServiceLifecycle
import UnixSignals

/// `sepia serve`: the web app and the HTTP API on a library.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app and the HTTP API on a library.",
        discussion: """
            The library is the one the other commands use (--library, $SEPIA_LIBRARY or the default), so a \
            `sepia import` into it appears in open browsers at once. The server's own database (accounts, \
            sessions, API tokens, share links) and invited users' libraries live in --data, by default beside the \
            library (LIBRARY-server). On the first start it prints a one-time link that creates the owner's \
            account. SIGTERM or SIGINT lets requests in flight finish (up to 30 seconds), then exits. For HTTPS, \
            run it behind a reverse proxy (docs/nginx.conf) with --trusted-proxy and --public-url. The HTTP API \
            is described in docs/api.md and docs/openapi.yaml.
            """)

    @OptionGroup var library: LibraryOptions

    @Option(
        name: .long, help: ArgumentHelp("The server's data folder (default: the library's folder name + '-server', beside it).", valueName: "dir"))
    var data: String?

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .customLong("public-url"), help: ArgumentHelp("The URL people reach the server by, when it is behind a proxy.", valueName: "url"))
    var publicURL: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy whose X-Forwarded-For and X-Forwarded-Proto to believe: an address or CIDR range (repeatable).", valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("max-upload-bytes"), help: ArgumentHelp("The largest photo upload (default 256 MiB).", valueName: "bytes"))
    var maximumUploadBytes: Int?

    @Option(
        name: .customLong("max-video-upload-bytes"), help: ArgumentHelp("The largest video upload (default 16 GiB).", valueName: "bytes"))
    var maximumVideoUploadBytes: Int?

    @Option(name: .customLong("max-pixels"), help: ArgumentHelp("The most pixels an uploaded photo may have (default 100 000 000).", valueName: "n"))
    var maximumPixels: Int?

    @Option(
        name: .customLong("cache-size"), help: ArgumentHelp("The disk budget of each library's rendition cache, e.g. 4G, 500M.", valueName: "size"))
    var cacheSize: String?

    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a client has to send a whole request head, from its first byte; a silent new connection is closed after as long (default 30).",
            valueName: "seconds"))
    var headerTimeout: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp("Seconds a kept-alive connection may wait, idle, for its next request (default 75).", valueName: "seconds"))
    var idleTimeout: Int?

    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "The most connections one client address may hold open; trusted proxies are not counted (default 128, 0 for no limit).",
            valueName: "n"))
    var maximumConnectionsPerAddress: Int?

    @Option(
        name: .customLong("job-workers"),
        help: ArgumentHelp(
            "How many deferred jobs (upload previews) this server does at once; 0 leaves them to the other servers (default 1).", valueName: "n"))
    var jobWorkers: Int?

    @Option(
        name: .customLong("long-job-workers"),
        help: ArgumentHelp(
            "How many long video encodes (over 16 s of 1080p) this server does at once, beside the job workers; 0 leaves them to the job workers (default 1).",
            valueName: "n"))
    var longJobWorkers: Int?

    @Option(
        name: .customLong("job-lease"),
        help: ArgumentHelp(
            "Seconds a job this server takes stays its own; a server killed mid-job leaves it to another after this (default 60).",
            valueName: "seconds"))
    var jobLease: Int?

    @Option(
        name: .customLong("face-search-megapixels"),
        help: ArgumentHelp(
            "The most megapixels searched for faces in one item (default \(FaceIndexing.defaultMaximumSearchedPixels / 1_000_000)): more finds smaller faces in large photos, and takes longer.",
            valueName: "MP"))
    var faceSearchMegapixels: Int?

    @OptionGroup var recentlyDeleted: RecentlyDeletedOptions

    @OptionGroup var renders: RenderLimitOptions

    @Option(
        name: .customLong("map-tiles"),
        help: ArgumentHelp(
            "Draw the Map view on a tile server you have, such as https://tile.example.org/{z}/{x}/{y}.png (default: country shapes "
                + "alone, and no request leaves the server; $SEPIA_MAP_TILES).",
            valueName: "url"))
    var mapTiles: String?

    @Option(
        name: .customLong("web-root"), help: ArgumentHelp("Serve the web app from this folder instead of the built-in copy.", visibility: .hidden))
    var webRoot: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    /// The tile server chosen, checked.
    var chosenMapTiles: MapTiles? {
        get throws {
            let environment = ProcessInfo.processInfo.environment["SEPIA_MAP_TILES"].flatMap { $0.isEmpty ? nil : $0 }
            guard let template = mapTiles ?? environment else { return nil }
            do {
                return try MapTiles(template)
            } catch let error as MapTilesError {
                throw ValidationError(error.description)
            }
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        _ = try chosenMapTiles
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--public-url must be an http or https URL, such as https://photos.example.org")
            }
        }
        if let cacheSize, Self.bytes(cacheSize) == nil { throw ValidationError("--cache-size must be a size such as 4G, 500M or 1073741824") }
        if let maximumUploadBytes, maximumUploadBytes < 1024 { throw ValidationError("--max-upload-bytes must be at least 1024") }
        if let maximumVideoUploadBytes, maximumVideoUploadBytes < 1024 {
            throw ValidationError("--max-video-upload-bytes must be at least 1024")
        }
        if let maximumPixels, maximumPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
        if let jobWorkers, !(0...64).contains(jobWorkers) { throw ValidationError("--job-workers must be from 0 to 64") }
        if let longJobWorkers, !(0...64).contains(longJobWorkers) { throw ValidationError("--long-job-workers must be from 0 to 64") }
        if let headerTimeout, !(1...3600).contains(headerTimeout) { throw ValidationError("--header-timeout must be from 1 to 3600 seconds") }
        if let idleTimeout, !(1...86400).contains(idleTimeout) { throw ValidationError("--idle-timeout must be from 1 to 86400 seconds") }
        if let maximumConnectionsPerAddress, maximumConnectionsPerAddress < 0 {
            throw ValidationError("--max-connections-per-address must be 0 (no limit) or more")
        }
        if let jobLease, !(1...86400).contains(jobLease) { throw ValidationError("--job-lease must be from 1 to 86400 seconds") }
        if let faceSearchMegapixels, !(1...64).contains(faceSearchMegapixels) {
            throw ValidationError("--face-search-megapixels must be from 1 to 64")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        try await reportingErrors {
            var configuration = ServerConfiguration(
                libraryPath: library.path, dataPath: data, host: host, port: port, publicURL: publicURL.flatMap(URL.init(string:)),
                trustedProxies: trustedProxies)
            if let maximumUploadBytes { configuration.maximumUploadBytes = maximumUploadBytes }
            if let maximumVideoUploadBytes { configuration.maximumVideoUploadBytes = maximumVideoUploadBytes }
            if let maximumPixels { configuration.maximumPixels = maximumPixels }
            if let size = cacheSize.flatMap(Self.bytes) { configuration.renditionCacheBytes = size }
            if let jobWorkers { configuration.jobWorkers = jobWorkers }
            if let longJobWorkers { configuration.longJobWorkers = longJobWorkers }
            if let headerTimeout { configuration.headerTimeout = .seconds(headerTimeout) }
            if let idleTimeout { configuration.idleTimeout = .seconds(idleTimeout) }
            if let maximumConnectionsPerAddress { configuration.maximumConnectionsPerAddress = maximumConnectionsPerAddress }
            if let jobLease { configuration.jobLease = TimeInterval(jobLease) }
            if let faceSearchMegapixels { configuration.faceIndexing.maximumSearchedPixels = faceSearchMegapixels * 1_000_000 }
            configuration.recentlyDeletedRetention = try recentlyDeleted.retention()
            renders.apply(to: &configuration)
            if let bucket = try library.objectStorage() {
                // Fail at start, with the store's own words, rather than on the first upload.
                guard try await bucket.bucketExists() else {
                    throw S3Error(
                        .notFound, "the bucket does not exist; create it first", subject: "\(bucket.location.bucket) at \(bucket.location.endpoint)")
                }
                configuration.objectStorage = bucket
            }
            configuration.database = try library.postgreSQL()
            configuration.webRoot = webRoot
            configuration.mapTiles = try chosenMapTiles
            var logger = Logger(label: "sepia.server")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            let libraryPath = configuration.libraryPath
            let storage = configuration.objectStorage?.location.description
            let database = configuration.database?.identity
            let dataPath = configuration.dataPath
            let app = try await buildApplication(
                configuration, logger: logger,
                events: ServerEvents(serverRunning: { base, setup in
                    Terminal.print("Sepia is serving the library \(libraryPath) at \(base)")
                    if let bucket = storage { Terminal.print("Originals and edits: \(bucket)") }
                    if let database { Terminal.print("Database: \(database)") }
                    Terminal.print("Server data: \(dataPath)")
                    if let setup {
                        Terminal.print("")
                        Terminal.print("Create the owner's account (the link works once, for 24 hours):")
                        Terminal.print("  \(setup)")
                    }
                    Terminal.print("Stop it with Ctrl-C.")
                }))
            // Services shut down last to first: the watchdog hears the signal first and starts its clock.
            let watchdog = ShutdownWatchdog(deadline: configuration.shutdownGracePeriod + .seconds(10), logger: logger)
            var group = ServiceGroupConfiguration(services: [app, watchdog], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
            group.maximumCancellationDuration = nil
            try await ServiceGroup(configuration: group).run()
            Terminal.printError("Sepia stopped.")
        }
    }

    /// `4G`, `500M`, `64K` or a number of bytes.
    static func bytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "IB", with: "").replacingOccurrences(
            of: "B", with: "")
        if let last = trimmed.last, let unit = units[last], let value = Double(trimmed.dropLast()), value > 0 { return Int(value * Double(unit)) }
        return Int(trimmed).flatMap { $0 > 0 ? $0 : nil }
    }
}

/// Ends the process if shutting down takes longer than `deadline` (a request that ignores cancellation, a
/// render of an enormous photo): every write of the library is atomic, so exiting then loses nothing; the
/// exit status says it was not clean.
struct ShutdownWatchdog: Service {
    let deadline: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        let seconds = Double(deadline.components.seconds)
        let logger = self.logger
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            logger.error("requests were still running \(Int(seconds)) seconds after the signal; exiting without them")
            exit(75)
        }
    }
}
