public import Foundation
import SepiaCodecs
public import SepiaImage
public import SepiaLibrary
public import SepiaObjectStore
import SepiaVideo

/// How `sepia serve` runs: where the libraries and the server's own data live, where it listens, and the
/// limits it enforces. Every limit is on by default.
public struct ServerConfiguration: Sendable {
    /// The owner's library folder: the same folder the other `sepia` commands use.
    public var libraryPath: String
    /// The server's own data: its database (accounts, sessions, tokens, share links) and invited users'
    /// libraries.
    public var dataPath: String
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The URL people reach the server by, when it differs from `http://host:port` (behind a proxy). Printed
    /// and shared links use it; an `https` URL makes the session cookie `Secure`.
    public var publicURL: URL?
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` headers are believed: addresses or CIDR ranges.
    public var trustedProxies: [String]
    /// The largest photo upload, in bytes.
    public var maximumUploadBytes: Int
    /// The largest video upload, in bytes. An upload is judged by its first bytes as they arrive, so a photo
    /// is held to ``maximumUploadBytes`` and only a video may be larger; either is streamed to disk.
    public var maximumVideoUploadBytes: Int
    /// The most pixels an uploaded image may have.
    public var maximumPixels: Int
    /// The largest JSON body, in bytes.
    public var maximumJSONBytes: Int
    /// The deepest nesting a JSON body may have.
    public var maximumJSONDepth: Int
    /// The most steps an edit recipe may have.
    public var maximumRecipeSteps: Int
    /// The most a render may cost (``RenderCost``): previews, saves, strips and presets are checked before any
    /// pixel is computed, and a recipe over the limit is answered `422` naming its costliest step.
    public var renderCostLimit: RenderCostLimit
    /// The most renders in flight on this server at once (previews, saves, strips, renditions not cached).
    public var maximumRenders: Int
    /// The most renders in flight for one account (a share link's visitors count as one account of their own,
    /// the link's).
    public var maximumRendersPerUser: Int
    /// The most renders that wait for their turn on this server; one account may have half of them waiting. A
    /// waiting render holds no pixels, so the queue is long enough for a grid of thumbnails a browser asks for at
    /// once over HTTP/2.
    public var renderQueueLength: Int
    /// How long a render may wait for its turn before it is answered `503` with `Retry-After`.
    public var renderQueueTimeout: Duration
    /// The on-disk rendition cache's budget per library, in bytes.
    public var renditionCacheBytes: Int
    /// The in-memory rendition cache's budget per library, in bytes.
    public var memoryCacheBytes: Int
    /// The budget, in bytes, of the answers prepared for renditions asked for again and again (a grid's
    /// thumbnails), which the server sends without routing; one for the whole server.
    public var earlyAnswerBytes: Int
    /// How long a client has to send a whole request head, from its first byte; a silent new connection is
    /// closed after as long.
    public var headerTimeout: Duration
    /// How long a kept-alive connection may wait, idle, for its next request.
    public var idleTimeout: Duration
    /// The longest pause allowed between two reads of a request body.
    public var bodyTimeout: Duration
    /// How long an answer may wait for a client that does not read it.
    public var sendTimeout: Duration
    /// The most connections one client address may hold open at once (trusted proxies are not limited).
    public var maximumConnectionsPerAddress: Int
    /// The most live change streams one account may hold open at once, on this server.
    public var maximumChangeStreamsPerUser: Int
    /// The most ZIP downloads one account may stream at once, on this server (a share link's visitors count as
    /// one account of their own, the link's).
    public var maximumDownloadsPerUser: Int
    /// The most photos and videos one ZIP download may hold (a selection, an album, a share link's album).
    public var maximumDownloadItems: Int
    /// How long the link of a selection's ZIP download (`POST /api/v1/downloads`) works.
    public var downloadLinkLifetime: TimeInterval
    /// The bcrypt cost of password hashes (at least 10).
    public var passwordCost: Int
    /// How long a setup link works.
    public var setupLinkLifetime: TimeInterval
    /// How long a session lasts without use.
    public var sessionLifetime: TimeInterval
    /// How long requests in flight may take to finish on shutdown.
    public var shutdownGracePeriod: Duration
    /// The interval between heartbeats on change streams.
    public var heartbeatInterval: Duration
    /// Serve the web app from this folder instead of the bundled copy (for working on the front end).
    public var webRoot: String?
    /// How often libraries look for commits by other processes.
    public var changePollInterval: Duration
    /// The render context every library renders with; nil makes one that uses every core.
    public var renderContext: RenderContext?
    /// Keep the originals and renders of every library in this bucket, each library under
    /// `libraries/<name>/` of the client's prefix (`owner` for the owner's, the user's folder for others);
    /// nil keeps them in each library's folder.
    public var objectStorage: S3Client?
    /// How often the server removes objects no row names (with object storage or a shared database).
    public var sweepInterval: Duration
    /// Keep accounts and every library in this PostgreSQL database, shared by every server started with the
    /// same settings: accounts, sessions, tokens and share links in the location's schema, each library in
    /// a schema of its own beside it (`<schema>_owner`, `<schema>_u_<user>`). Nil keeps them in SQLite files
    /// (`server.sqlite` in the data folder, `library.sqlite` in each library folder).
    public var database: PostgresLocation?
    /// How many jobs (an upload's preview, rendered after the upload answered) this server does at once; 0
    /// does none here, leaving them to the other servers of the deployment.
    public var jobWorkers: Int
    /// How many long encodes (the playable versions of videos with more than ``longEncodePixels`` pixels of
    /// frames) this server does at once, beside the ``jobWorkers``, which then never wait for them; 0 leaves
    /// long encodes to the job workers like any other job. None when ``jobWorkers`` is 0.
    public var longJobWorkers: Int
    /// The pixels of decoded frames (frames × width × height) past which a video's playable version is a long
    /// encode: 10⁹, 16 s of 1080p at 30 frames a second, 4 s of 4K, 2 minutes of 640×360 (an encode of
    /// seconds to tens of seconds on two cores).
    public var longEncodePixels: Int
    /// How long a job this server takes stays its own: a server killed mid-job leaves the job to be taken
    /// again by another once this runs out.
    public var jobLease: TimeInterval
    /// How often an idle job worker looks for jobs the other servers added.
    public var jobPollInterval: Duration
    /// How long deleted photos stay in Recently Deleted before they are deleted for good (30 days by default).
    public var recentlyDeletedRetention: Duration
    /// How often the server queues the purge of Recently Deleted, and asks for the faces job, of every library (it also
    /// does when it starts).
    public var purgeInterval: Duration
    /// How faces are found: where the models are (``SepiaVision/FaceModels/default`` unless set: `SEPIA_FACE_MODELS`,
    /// else the user's data folder) and how much of each asset is searched.
    public var faceIndexing: FaceIndexing
    /// The most assets one run of a library's face job indexes before the job makes way for the jobs added
    /// meanwhile; a run also starts no asset after 2 seconds, so that an upload's preview waits for about one
    /// asset's search.
    public var faceIndexBatch: Int
    /// What time it is for Recently Deleted (deletion dates, days left, purges): tests move it by hand.
    public var clock: @Sendable () -> Date = { Date() }
    /// The map's tiles from a tile server the user has (``MapTiles``); nil draws the base map from country shapes
    /// alone, with no request leaving the server.
    public var mapTiles: MapTiles? = nil
    /// The folder of the base map's country shapes (`countries.geojson`, which `scripts/setup` makes from Natural
    /// Earth); nil: `SEPIA_MAP_DATA`, else the user's data folder (`~/.local/share/sepia/map`).
    public var mapDataPath: String? = nil
    /// Where Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` installed the map's library.
    public var leafletPath = "/usr/share/javascript/leaflet"

    /// The folder of the base map's country shapes this configuration names.
    public var resolvedMapDataPath: String {
        if let mapDataPath { return mapDataPath }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SEPIA_MAP_DATA"], !path.isEmpty { return path }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/sepia/map"
    }

    /// A configuration with the defaults.
    public init(
        libraryPath: String, dataPath: String? = nil, host: String = "127.0.0.1", port: Int = 8080, publicURL: URL? = nil,
        trustedProxies: [String] = []
    ) {
        self.libraryPath = (libraryPath as NSString).standardizingPath
        self.dataPath = dataPath.map { ($0 as NSString).standardizingPath } ?? Self.defaultDataPath(forLibrary: self.libraryPath)
        self.host = host
        self.port = port
        self.publicURL = publicURL
        self.trustedProxies = trustedProxies
        maximumUploadBytes = 256 << 20
        maximumVideoUploadBytes = 16 << 30
        maximumPixels = 100_000_000
        maximumJSONBytes = 1 << 20
        maximumJSONDepth = 32
        maximumRecipeSteps = 64
        renderCostLimit = .default
        maximumRenders = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        maximumRendersPerUser = 2
        renderQueueLength = 256
        renderQueueTimeout = .seconds(15)
        renditionCacheBytes = 4 << 30
        memoryCacheBytes = 128 << 20
        earlyAnswerBytes = 32 << 20
        headerTimeout = .seconds(30)
        idleTimeout = .seconds(75)
        bodyTimeout = .seconds(60)
        sendTimeout = .seconds(60)
        maximumConnectionsPerAddress = 128
        maximumChangeStreamsPerUser = 16
        maximumDownloadsPerUser = 4
        maximumDownloadItems = 10_000
        downloadLinkLifetime = 3600
        passwordCost = 12
        setupLinkLifetime = 24 * 3600
        sessionLifetime = 30 * 24 * 3600
        shutdownGracePeriod = .seconds(30)
        heartbeatInterval = .seconds(15)
        webRoot = nil
        changePollInterval = .milliseconds(250)
        renderContext = nil
        objectStorage = nil
        sweepInterval = .seconds(3600)
        database = nil
        jobWorkers = 1
        longJobWorkers = 1
        longEncodePixels = 1_000_000_000
        jobLease = 60
        jobPollInterval = .seconds(1)
        recentlyDeletedRetention = .seconds(30 * 86_400)
        purgeInterval = .seconds(3600)
        faceIndexing = FaceIndexing()
        faceIndexBatch = 8
    }

    /// The data folder beside a library: `<library>-server`.
    public static func defaultDataPath(forLibrary library: String) -> String {
        let standardized = (library as NSString).standardizingPath
        return standardized + "-server"
    }

    /// The library configuration every library of this server is opened with.
    var libraryConfiguration: LibraryConfiguration {
        var configuration = LibraryConfiguration(
            memoryCacheLimit: memoryCacheBytes, diskCacheLimit: renditionCacheBytes, changePollInterval: changePollInterval)
        configuration.decodeOptions.maximumPixels = maximumPixels
        configuration.decodeOptions.maximumFileBytes = max(configuration.decodeOptions.maximumFileBytes, maximumUploadBytes)
        configuration.videoOptions.maximumFileBytes = max(configuration.videoOptions.maximumFileBytes, maximumVideoUploadBytes)
        configuration.recentlyDeletedRetention = recentlyDeletedRetention
        configuration.renderCostLimit = renderCostLimit
        configuration.clock = clock
        return configuration
    }

    /// The bounds of the renders in flight and waiting.
    var renderLimits: RenderAdmission.Limits {
        RenderAdmission.Limits(
            maximum: max(1, maximumRenders), maximumPerAccount: max(1, maximumRendersPerUser), queueLength: max(0, renderQueueLength),
            queuePerAccount: max(1, renderQueueLength / 2), queueTimeout: renderQueueTimeout)
    }

    /// Whether links and cookies are for HTTPS.
    var isSecure: Bool { publicURL?.scheme?.lowercased() == "https" }
}
