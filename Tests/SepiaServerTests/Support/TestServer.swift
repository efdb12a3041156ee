import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SepiaCodecs
import SepiaImage
import Synchronization
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// A server on a library and a data folder of its own, in a temporary folder, built as `sepia serve` builds
/// it (with the lowest bcrypt cost allowed, so that tests sign in quickly).
struct TestServer {
    let root: String
    var configuration: ServerConfiguration

    static let renderContext = RenderContext(options: RenderOptions(threadCount: 2))

    static let testBaseMap = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Square"},
        "geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[10,0],[10,10],[0,10],[0,0]]]]}}]}
        """

    init(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-server-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(libraryPath: root + "/library", dataPath: root + "/data", port: 0)
        configuration.passwordCost = 10
        configuration.heartbeatInterval = .milliseconds(500)
        configuration.changePollInterval = .milliseconds(50)
        configuration.renderContext = Self.renderContext
        // Hummingbird's in-process test client does not reconnect when the server closes a connection it has
        // left idle; the deadlines themselves are tested with raw sockets (ConnectionLimitTests).
        configuration.headerTimeout = .seconds(600)
        configuration.idleTimeout = .seconds(600)
        configuration.webRoot =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/SepiaServer/Web").path
        // A base map of one square country, in the server's own folder, so that tests never read the user's.
        configuration.mapDataPath = root + "/map"
        try? FileManager.default.createDirectory(atPath: root + "/map", withIntermediateDirectories: true)
        try? Data(Self.testBaseMap.utf8).write(to: URL(fileURLWithPath: root + "/map/countries.geojson"))
        if let url = ProcessInfo.processInfo.environment["SEPIA_TEST_DATABASE"], !url.isEmpty {
            // The same tests on PostgreSQL: a deployment of its own, in schemas named after this server.
            let name = "s" + UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(16)
            configuration.database = try! PostgresLocation(parsing: url).schema(name)
        }
        adjust(&configuration)
        self.configuration = configuration
    }

    /// How to open the owner's library beside the server, as `sepia` commands on the same deployment do.
    var ownerLibraryConfiguration: LibraryConfiguration {
        var library = LibraryConfiguration(watchesMemoryPressure: false)
        if let database = configuration.database {
            library.database = .postgreSQL(try! database.schema(database.schema + "_owner"))
        }
        return library
    }

    /// Builds the application; the owner's setup token comes with it on a server without accounts.
    func build() async throws -> (app: some ApplicationProtocol, setupToken: String?) {
        let (app, token, _) = try buildWithServices()
        return (app, token)
    }

    /// Builds the application and keeps its services, for tests that look inside.
    func buildWithServices() throws -> (app: some ApplicationProtocol, setupToken: String?, services: ServerServices) {
        let token = Mutex<String?>(nil)
        let services = try makeServices(configuration)
        let app = try buildApplication(
            services: services, logger: Logger(label: "test"),
            events: ServerEvents(setupTokenCreated: { secret in token.withLock { $0 = secret } }))
        return (app, token.withLock { $0 }, services)
    }

    /// Runs `body` against the application in process, with the owner signed in.
    func withOwner<T: Sendable>(_ body: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        try await withOwnerAndServices { owner, _ in try await body(owner) }
    }

    /// Runs `body` against the application in process, with the owner signed in, and its services.
    func withOwnerAndServices<T: Sendable>(_ body: @escaping @Sendable (Client, ServerServices) async throws -> T) async throws -> T {
        let (app, token, services) = try buildWithServices()
        return try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            return try await body(owner, services)
        }
    }

    /// The owner's library folder.
    var libraryPath: String { configuration.libraryPath }

    /// Files in the library's originals, renders and tmp folders.
    func storedFiles() -> [String] {
        ["originals", "renders", "tmp"].flatMap { folder -> [String] in
            let path = libraryPath + "/" + folder
            return (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder) && !isFolder.boolValue
            }
        }
    }
}

/// A test client with a credential: a session (cookie and CSRF token), an API token, or nothing.
struct Client: Sendable {
    let client: any TestClientProtocol
    var cookie: String?
    var csrf: String?
    var bearer: String?

    init(_ client: any TestClientProtocol, cookie: String? = nil, csrf: String? = nil, bearer: String? = nil) {
        self.client = client
        self.cookie = cookie
        self.csrf = csrf
        self.bearer = bearer
    }

    /// The same connection without credentials.
    var anonymous: Client { Client(client) }

    var headers: HTTPFields {
        var fields: HTTPFields = [:]
        if let cookie { fields[.cookie] = "sepia_session=" + cookie }
        if let csrf { fields[.init("X-CSRF-Token")!] = csrf }
        if let bearer { fields[.authorization] = "Bearer " + bearer }
        return fields
    }

    /// Sends a request with this client's credential.
    @discardableResult
    func request(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, body: [UInt8]? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        for field in extra { fields[field.name] = field.value }
        var buffer: ByteBuffer?
        if let json {
            fields[.contentType] = "application/json"
            buffer = ByteBuffer(string: json)
        } else if let body {
            buffer = ByteBuffer(bytes: body)
        }
        return try await client.execute(uri: uri, method: method, headers: fields, body: buffer)
    }

    /// Sends a request and decodes its JSON answer, expecting `status`.
    func json<T: Decodable>(
        _ type: T.Type, _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, body: [UInt8]? = nil,
        expect status: HTTPResponse.Status = .ok,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> T {
        let response = try await request(method, uri, json: json, body: body)
        #expect(response.status == status, "\(method) \(uri): \(String(buffer: response.body))", sourceLocation: sourceLocation)
        return try JSONDecoder.api.decode(T.self, from: Data(buffer: response.body))
    }

    /// Creates the owner's account with the setup token and signs it in.
    static func createOwner(_ client: any TestClientProtocol, setupToken: String, username: String = "owner") async throws -> Client {
        try await signUp(client, setupToken: setupToken, username: username)
    }

    /// Creates an account with a setup or invitation token and signs it in.
    static func signUp(_ client: any TestClientProtocol, setupToken: String, username: String) async throws -> Client {
        let response = try await Client(client).request(
            .post, "/api/v1/setup", json: #"{"token": "\#(setupToken)", "username": "\#(username)", "password": "correct horse battery"}"#)
        #expect(response.status == .created, "setup: \(String(buffer: response.body))")
        let session = try JSONDecoder.api.decode(SessionBody.self, from: Data(buffer: response.body))
        let cookie: String = try #require(Self.sessionCookie(response))
        return Client(client, cookie: cookie, csrf: session.csrfToken)
    }

    /// Signs in.
    func login(_ username: String, password: String = "correct horse battery") async throws -> Client {
        let response = try await anonymous.request(.post, "/api/v1/session", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        #expect(response.status == .ok, "login: \(String(buffer: response.body))")
        let session = try JSONDecoder.api.decode(SessionBody.self, from: Data(buffer: response.body))
        let cookie: String = try #require(Self.sessionCookie(response))
        return Client(client, cookie: cookie, csrf: session.csrfToken)
    }

    /// A new API token of this (signed-in) user.
    func token(_ level: String, albums: [String] = []) async throws -> Client {
        let albumList = albums.map { "\"\($0)\"" }.joined(separator: ",")
        let created = try await json(
            TokenBody.self, .post, "/api/v1/tokens", json: #"{"name": "\#(level) token", "accessLevel": "\#(level)", "albumIDs": [\#(albumList)]}"#,
            expect: .created)
        let secret: String = try #require(created.token)
        return Client(client, bearer: secret)
    }

    /// Uploads a photo and returns the answer.
    func upload(_ data: Data, filename: String = "photo.jpg", query: String = "") async throws -> TestResponse {
        try await request(.post, "/api/v1/assets?filename=\(filename)\(query)", body: Array(data))
    }

    /// Uploads a photo that must be created, and returns its identifier.
    func uploadNew(_ seed: Int, query: String = "") async throws -> String {
        let response = try await upload(TestImages.jpeg(seed), filename: "photo-\(seed).jpg", query: query)
        #expect(response.status == .created, "upload: \(String(buffer: response.body))")
        return try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id
    }

    static func sessionCookie(_ response: TestResponse) -> String? {
        guard let header = response.headers[.setCookie], header.hasPrefix("sepia_session=") else { return nil }
        return String(header.dropFirst("sepia_session=".count).prefix { $0 != ";" })
    }
}

struct SessionBody: Decodable {
    struct User: Decodable {
        var id: String
        var username: String
        var isOwner: Bool
    }

    var user: User
    var csrfToken: String?
}

struct TokenBody: Decodable {
    var id: String
    var token: String?
    var accessLevel: String
    var albumIDs: [String]
}

struct UploadBody: Decodable {
    var status: String
    var id: String
    var asset: AssetBody?
}

struct AssetBody: Decodable {
    var id: String
    var width: Int
    var height: Int
    var version: String
    var isFavorite: Bool
    var isHidden: Bool
    var hasAdjustments: Bool
    var originalFilename: String
    var creationDate: Date
}

struct PageBody: Decodable {
    var assets: [AssetBody]
    var nextCursor: String?
    var total: Int
}

struct AlbumBody: Decodable {
    var id: String
    var title: String
    var assetCount: Int
    var coverAssetID: String?
}

struct ErrorBody: Decodable {
    var error: String
    var message: String
    var detail: String?
}

extension JSONDecoder {
    static let api: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

extension Data {
    init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}

/// Small photos made in code: JPEGs whose content (and so hash) depends on a seed.
enum TestImages {
    static func jpeg(_ seed: Int, width: Int = 48, height: Int = 32) -> Data {
        Data(try! ImageEncoding.encode(bitmap(seed, width: width, height: height), as: .jpeg, options: EncodeOptions(quality: 92)))
    }

    static func png(_ seed: Int, width: Int = 48, height: Int = 32) -> Data {
        Data(try! ImageEncoding.encode(bitmap(seed, width: width, height: height), as: .png, options: EncodeOptions()))
    }

    static func bitmap(_ seed: Int, width: Int, height: Int) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let i = (y * width + x) * 3
                bytes[i] = UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1))
                bytes[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1))
                bytes[i + 2] = UInt8(truncatingIfNeeded: state)
            }
        }
        return Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)
    }
}

/// A clock a test moves by hand, for a server's Recently Deleted (`ServerConfiguration.clock`).
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `days`.
    func advance(days: Double) {
        current.withLock { $0 = $0.addingTimeInterval(days * 86_400) }
    }
}
