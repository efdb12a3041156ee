import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

/// Renditions answered from memory on the connection, before routing: the same answer as the application's,
/// and never to a credential the application would refuse.
@Suite("Renditions answered before routing")
struct EarlyRenditionTests {
    static func earlyAnswers(_ client: Client) async throws -> Int {
        let text = String(buffer: try await client.anonymous.request(.get, "/metrics").body)
        let line = text.split(separator: "\n").first { $0.hasPrefix("sepia_rendition_early_answers_total ") }
        return Int(line?.split(separator: " ").last ?? "0") ?? 0
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
