import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SepiaImage
import SepiaLibrary
import Testing

@testable import SepiaServer

/// Renditions answered from memory on the connection, before routing: the same answer as the application's,
/// and never to a credential the application would refuse.
@Suite("Renditions answered before routing")
struct EarlyRenditionTests {
    static func earlyAnswers(_ client: Client) async throws -> Int {
        try await metric("sepia_rendition_early_answers_total", client)
    }

    /// A metric's value, as `GET /metrics` gives it (0 when it is not there).
    static func metric(_ name: String, _ client: Client) async throws -> Int {
        let text = String(buffer: try await client.anonymous.request(.get, "/metrics").body)
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return Int(Double(line?.split(separator: " ").last ?? "0") ?? 0)
    }

    @Test("a cached rendition named by its current version is answered early, with the application's headers and bytes")
    func sameAnswer() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(1)
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let url = "/api/v1/assets/\(id)/image?size=128&mode=fill&v=\(asset.version)"
            // The first request renders through the application, the second is answered from memory.
            let first = try await reader.request(.get, url)
            let before = try await Self.earlyAnswers(owner)
            let second = try await reader.request(.get, url)
            #expect(try await Self.earlyAnswers(owner) == before + 1)
            #expect(first.status == .ok && second.status == .ok)
            #expect(Data(buffer: first.body) == Data(buffer: second.body))
            let ignored: Set<String> = ["X-Request-ID", "Date"]
            func headers(_ response: TestResponse) -> [String: String] {
                var map: [String: String] = [:]
                for field in response.headers
                where !ignored.contains(field.name.canonicalName.capitalized) && field.name != .date
                    && field.name.rawName.lowercased() != "x-request-id"
                {
                    map[field.name.canonicalName] = field.value
                }
                return map
            }
            #expect(headers(first) == headers(second))
            #expect(second.headers[.date] != nil && second.headers[.init("X-Request-ID")!] != nil)
            // Conditional requests get 304 early too.
            let etag = try #require(second.headers[.eTag])
            #expect(try await reader.request(.get, url, headers: [.ifNoneMatch: etag]).status == .notModified)
            // After an edit, the old version's URL goes to the application again.
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(id)/edit", json: RenditionTests.noir)
            let count = try await Self.earlyAnswers(owner)
            let stale = try await reader.request(.get, url)
            #expect(stale.headers[.cacheControl] == "private, no-cache")
            #expect(try await Self.earlyAnswers(owner) == count)
        }
    }

    @Test("credentials the application refuses are never answered early")
    func refusedCredentials() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(2)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Limited"}"#, expect: .created)
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let url = "/api/v1/assets/\(id)/image?size=128&v=\(asset.version)"
            #expect(try await reader.request(.get, url).status == .ok)  // in memory now
            let addOnly = try await owner.token("add-only")
            let limited = try await owner.token("read-write", albums: [album.id])
            struct Invitation: Decodable { var url: String }
            let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            let guest = try await Client.signUp(client, setupToken: String(invitation.url.split(separator: "=").last!), username: "guest")
            // Warm each credential's cache entry with a request the application answers.
            for credential in [addOnly, limited, guest] { _ = try await credential.request(.get, "/api/v1/session") }
            let before = try await Self.earlyAnswers(owner)
            #expect(try await addOnly.request(.get, url).status == .forbidden)
            #expect(try await limited.request(.get, url).status == .notFound)
            #expect(try await guest.request(.get, url).status == .notFound)
            #expect(try await owner.anonymous.request(.get, url).status == .unauthorized)
            #expect(try await Client(client, bearer: "sepia_" + String(repeating: "x", count: 43)).request(.get, url).status == .unauthorized)
            #expect(try await Self.earlyAnswers(owner) == before)
            // The owner's own session is answered early.
            #expect(try await owner.request(.get, url).status == .ok)
            #expect(try await owner.request(.get, url).status == .ok)
            #expect(try await Self.earlyAnswers(owner) > before)
        }
    }

    @Test("a credential revoked or signed out stops being answered early at once, on a connection already open")
    func revocation() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let created = try await owner.json(
                TokenBody.self, .post, "/api/v1/tokens", json: #"{"name": "viewer", "accessLevel": "read"}"#, expect: .created)
            let secret = try #require(created.token)
            let reader = Client(client, bearer: secret)
            let id = try await owner.uploadNew(5)
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let url = "/api/v1/assets/\(id)/image?size=128&v=\(asset.version)"
            #expect(try await reader.request(.get, url).status == .ok)  // in memory now
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let get = Data("GET \(url) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n\r\n".utf8)
            let before = try await Self.earlyAnswers(owner)
            try connection.send(get)
            try connection.send(get)
            #expect(try connection.answers(2).map(\.status) == [200, 200])
            #expect(try await Self.earlyAnswers(owner) == before + 2)
            _ = try await owner.request(.delete, "/api/v1/tokens/\(created.id)")
            try connection.send(get)
            #expect(try connection.answers(1).map(\.status) == [401])

            // The same for a session cookie, after signing out.
            let cookie = try #require(owner.cookie)
            let session = Data("GET \(url) HTTP/1.1\r\nHost: localhost\r\nCookie: sepia_session=\(cookie)\r\n\r\n".utf8)
            let viaCookie = try RawHTTP(port: try #require(client.port)).open()
            try viaCookie.send(session)
            try viaCookie.send(session)
            #expect(try viaCookie.answers(2).map(\.status) == [200, 200])
            _ = try await owner.request(.delete, "/api/v1/session")
            try viaCookie.send(session)
            #expect(try viaCookie.answers(1).map(\.status) == [401])
        }
    }

    @Test("a photo moved to Recently Deleted is never answered early: a read-only token gets the application's 404")
    func recentlyDeleted() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(7)
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let url = "/api/v1/assets/\(id)/image?size=128&v=\(asset.version)"
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let get = Data("GET \(url) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(reader.bearer!)\r\n\r\n".utf8)
            try connection.send(get)
            try connection.send(get)
            #expect(try connection.answers(2).map(\.status) == [200, 200])
            let before = try await Self.earlyAnswers(owner)
            try connection.send(get)
            #expect(try connection.answers(1).map(\.status) == [200])
            #expect(try await Self.earlyAnswers(owner) == before + 1, "answered early while the photo is in the library")

            // Deleted: the owner's requests put the asset, now in Recently Deleted, back in the asset cache and its
            // rendition stays in memory; the reader's request on the same connection is still the application's.
            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)").status == .noContent)
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)").status == .ok)
            #expect(try await owner.request(.get, url).status == .ok)
            let count = try await Self.earlyAnswers(owner)
            try connection.send(get)
            try connection.send(get)
            #expect(try connection.answers(2).map(\.status) == [404, 404])
            #expect(try await owner.request(.get, url).status == .ok)
            #expect(try await Self.earlyAnswers(owner) == count, "nothing about a photo in Recently Deleted is answered early")

            // Recovered, it is answered early again.
            #expect(try await owner.request(.post, "/api/v1/assets/\(id)/recover").status == .ok)
            try connection.send(get)
            try connection.send(get)
            #expect(try connection.answers(2).map(\.status) == [200, 200])
            #expect(try await Self.earlyAnswers(owner) > count)
        }
    }

    /// The process's resident memory, in bytes.
    static func residentBytes() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test("10 000 URLs for one rendition (unknown parameters, other sizes of the same bucket) keep one answer in memory")
    func distinctTargetsShareOneAnswer() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let secret = try #require(reader.bearer)
            let upload = try await owner.upload(TestImages.jpeg(11, width: 1024, height: 768), filename: "large.jpg")
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: upload.body)).id
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let base = "/api/v1/assets/\(id)/image?v=\(asset.version)&size=1024"
            let first = try await reader.request(.get, base)
            #expect(first.status == .ok)
            #expect(first.body.readableBytes > 100_000, "a rendition large enough for copies of it to show")
            let http = RawHTTP(port: try #require(client.port))
            func burst(_ range: Range<Int>) throws -> [(status: Int, bodyBytes: Int)] {
                let requests = range.map { j in
                    // Unknown parameters, and sizes that snap to the same bucket as 1024.
                    let target = j.isMultiple(of: 2) ? base + "&j=\(j)" : "/api/v1/assets/\(id)/image?v=\(asset.version)&size=\(769 + j % 255)"
                    return "GET \(target) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n\r\n"
                }
                let connection = try http.open()
                try connection.send(Data(requests.joined().utf8))
                return try connection.drainAnswers(requests.count)
            }
            // Whatever the first thousands of answers allocate for good (buffers, the allocator's arenas) is
            // allocated before the measure.
            for start in stride(from: 0, to: 2_000, by: 500) {
                _ = try await reader.request(.get, "/api/v1/session")
                _ = try burst(start..<(start + 500))
            }
            let before = try await Self.earlyAnswers(owner)
            let resident = Self.residentBytes()
            var answered = 0
            for start in stride(from: 2_000, to: 12_000, by: 500) {
                // The credential stays in the server's cache (a request the application answers refreshes it),
                // so that nearly every request of the burst is answered early.
                _ = try await reader.request(.get, "/api/v1/session")
                let answers = try burst(start..<(start + 500))
                answered += answers.count
                #expect(answers.allSatisfy { $0.status == 200 && $0.bodyBytes == first.body.readableBytes })
            }
            let growth = Self.residentBytes() - resident
            #expect(answered == 10_000)
            let early = try await Self.earlyAnswers(owner) - before
            #expect(early >= 9_000, "\(early) of the requests were answered early; the rendition has \(first.body.readableBytes) bytes")
            // One answer is kept, not one per URL: its body, and heads of a few hundred bytes.
            let held = try await Self.metric("sepia_rendition_early_answer_memory_bytes", owner)
            #expect(held >= first.body.readableBytes && held < first.body.readableBytes + 4096, "the early answers hold \(held) bytes")
            // And nothing else keeps a copy per request either: 10 000 copies would be over 1 GB. (Other suites run
            // in this process at the same time, so the process's growth is only a coarse bound.)
            #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MB for one rendition")
        }
    }

    @Test("the early answers' memory is bounded in bytes, whatever the number of renditions")
    func preparedAnswersAreBounded() {
        let answers = CachedRenditionResolver.PreparedAnswers(budget: 1 << 20)
        let allocator = ByteBufferAllocator()
        let library = ObjectIdentifier(answers)
        for i in 0..<1000 {
            let key = CachedRenditionResolver.PreparedAnswers.Key(
                library: library,
                rendition: RenditionKey(assetID: "a\(i)", version: "original", size: IntSize(width: 256, height: 256), mode: .aspectFit))
            answers.store(
                CachedRenditionResolver.PreparedAnswer(
                    assetID: "a\(i)", version: "original", contentTag: "t", generation: 0, okHead: allocator.buffer(capacity: 0),
                    notModifiedHead: allocator.buffer(capacity: 0), body: allocator.buffer(repeating: 0, count: 10_000)),
                for: key)
            #expect(answers.bytes <= 1 << 20)
        }
        #expect(answers.bytes > 900_000, "the budget is used")
    }

    @Test("requests on one connection keep their order and framing: bodies, split and pipelined heads, chunked bodies")
    func framing() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let writer = try await owner.token("read-write")
            let secret = try #require(writer.bearer)
            let id = try await owner.uploadNew(4)
            let asset = try await writer.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let url = "/api/v1/assets/\(id)/image?size=128&v=\(asset.version)"
            let image = try await writer.request(.get, url)  // in memory now
            #expect(image.status == .ok)
            let http = RawHTTP(port: try #require(client.port))
            let get = "GET \(url) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n\r\n"
            // A body that is itself a rendition request: answered as a body (the application refuses it),
            // never as a request of its own.
            let post =
                "POST /api/v1/albums HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(get.utf8.count)\r\n\r\n" + get
            let split = get.index(get.startIndex, offsetBy: 40)
            let before = try await Self.earlyAnswers(owner)
            let answers = try http.exchange(
                [get, post, String(get[..<split]), String(get[split...]), get + get].map { Data($0.utf8) }, answers: 5)
            #expect(answers.map(\.status) == [200, 400, 200, 200, 200])
            for answer in answers where answer.status == 200 { #expect(answer.body == Data(buffer: image.body)) }
            let early = try await Self.earlyAnswers(owner) - before
            #expect(early >= 1 && early <= 4, "the first request is answered early, the body never")

            // A chunked body: the connection's bytes go to the application's parser from there on.
            let chunked =
                "POST /api/v1/albums HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\n{\"tit\r\n13\r\nle\": \"Chunked\"}    \r\n0\r\n\r\n"
            let after = try await Self.earlyAnswers(owner)
            let more = try http.exchange([chunked, get + get].map { Data($0.utf8) }, answers: 3)
            #expect(more.map(\.status) == [201, 200, 200])
            #expect(more[2].body == Data(buffer: image.body))
            #expect(try await Self.earlyAnswers(owner) == after)

            // Thousands of requests sent before any answer is read: answered in order as the client reads,
            // the connection read no faster than it can take the answers.
            let burst = try http.exchange([Data(String(repeating: get, count: 3000).utf8)], answers: 3000)
            #expect(burst.allSatisfy { $0.status == 200 && $0.body == Data(buffer: image.body) })

            // Malformed requests get the application's 400, whatever came before them on the connection.
            let bad = try http.exchange([get, "GET /health HTTP/1.1\r\nHost : x\r\n\r\n"].map { Data($0.utf8) }, answers: 2)
            #expect(bad.map(\.status) == [200, 400])
        }
    }
}

@Suite("HEAD requests")
struct HeadRequestTests {
    @Test("HEAD answers like GET without the body, on every kind of route")
    func head() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(3)
            for path in ["/health", "/", "/api/v1/assets", "/api/v1/assets/\(id)/image?size=64", "/api/v1/assets/\(id)/original"] {
                let get = try await reader.request(.get, path)
                let head = try await reader.request(.head, path)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.readableBytes == 0, "\(path)")
                #expect(head.headers[.contentLength] == get.headers[.contentLength], "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
            }
            #expect(try await owner.anonymous.request(.head, "/api/v1/assets").status == .unauthorized)
        }
    }
}
