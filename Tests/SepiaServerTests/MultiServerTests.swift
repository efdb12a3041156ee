import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// Two servers started with the same settings on one PostgreSQL database and one library folder (a shared
/// volume; each keeps its own data folder), as a load balancer would spread requests over them. Runs when the
/// suites run on PostgreSQL.
@Suite("Several servers on one database", .enabled(if: ProcessInfo.processInfo.environment["SEPIA_TEST_DATABASE"]?.isEmpty == false))
struct MultiServerTests {
    /// A and B: the same deployment. B polls the change log only once a minute, so what it hears sooner came
    /// through `LISTEN`/`NOTIFY`.
    static func pair() -> (TestServer, TestServer) {
        let a = TestServer()
        let b = TestServer { configuration in
            configuration.database = a.configuration.database
            configuration.libraryPath = a.configuration.libraryPath
            configuration.changePollInterval = .seconds(60)
        }
        return (a, b)
    }

    @Test("an account, session and token made on one server work on the other; an upload to A is in B's change stream within a second")
    func sharedDeployment() async throws {
        let (a, b) = Self.pair()
        let (appA, token) = try await a.build()
        let (appB, tokenB) = try await b.build()
        #expect(tokenB != nil && tokenB != token, "each server prints a setup link of its own while there is no owner")
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                #expect(try await ownerB.request(.get, "/api/v1/session").status == .ok)
                let reader = try await ownerA.token("read")
                let stream = try EventStreamClient(
                    port: try #require(clientB.port), path: "/api/v1/changes", headers: ["Authorization": "Bearer " + reader.bearer!])
                defer { stream.close() }
                _ = try #require(await stream.next { $0.event == "ready" })

                // Timed from A's answer (the commit is done by then) to B's event.
                let id = try await ownerA.uploadNew(1)
                let started = ContinuousClock.now
                let event = try #require(await stream.next(timeout: .seconds(5)) { $0.event == "change" && $0.data.contains(id) })
                let elapsed = ContinuousClock.now - started
                #expect(event.data.contains(#""inserted":["\#(id)"]"#))
                #expect(elapsed < .seconds(1), "B heard of A's commit \(elapsed) after A answered")
                // B serves the photo A stored.
                #expect(try await ownerB.request(.get, "/api/v1/assets/\(id)").status == .ok)
                #expect(try await ownerB.request(.get, "/api/v1/assets/\(id)/image?size=64x64").status == .ok)
                // Revoking on one server takes effect on the other at once, though A looked the credential up
                // moments ago and keeps look-ups for 10 seconds: the revocation is announced.
                #expect(try await reader.request(.get, "/api/v1/assets").status == .ok)
                let tokens = try await ownerB.request(.get, "/api/v1/tokens")
                let tokenID = try #require(
                    (try JSONSerialization.jsonObject(with: Data(buffer: tokens.body)) as? [String: Any]).flatMap {
                        ($0["tokens"] as? [[String: Any]])?.first?["id"] as? String
                    })
                #expect(try await ownerB.request(.delete, "/api/v1/tokens/\(tokenID)").status == .noContent)
                #expect(try await ownerA.request(.get, "/api/v1/session").status == .ok)
                #expect(try await ownerB.request(.delete, "/api/v1/session").status == .noContent)
                var signedOut = false
                var revoked = false
                for _ in 0..<20 where !(signedOut && revoked) {
                    signedOut = try await ownerA.request(.get, "/api/v1/session").status == .unauthorized
                    revoked = try await reader.request(.get, "/api/v1/assets").status == .unauthorized
                    if !(signedOut && revoked) { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(signedOut && revoked, "within a second on the other server")
            }
        }
    }

    @Test("8 writers through both servers at once: every favourite toggle and album addition counts, nothing is lost")
    func concurrentWriters() async throws {
        let (a, b) = Self.pair()
        let (appA, token) = try await a.build()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                var ids: [String] = []
                for seed in 0..<16 { ids.append(try await ownerA.uploadNew(100 + seed)) }
                let album = try await ownerA.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Both"}"#, expect: .created)
                let assets = ids
                // Each writer owns two photos, toggles each one's favourite 5 times (so it ends favourite) and
                // adds them to the shared album one by one; writers alternate between the servers.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<8 {
                        let client = writer % 2 == 0 ? ownerA : ownerB
                        let mine = [assets[writer * 2], assets[writer * 2 + 1]]
                        group.addTask {
                            for round in 0..<5 {
                                for id in mine {
                                    let response = try await client.request(
                                        .patch, "/api/v1/assets/\(id)", json: #"{"isFavorite": \#(round % 2 == 0)}"#)
                                    #expect(response.status == .ok)
                                }
                            }
                            for id in mine {
                                let response = try await client.request(.post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": ["\#(id)"]}"#)
                                #expect(response.status == .ok)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                for owner in [ownerA, ownerB] {
                    let listed = try await owner.json(AlbumBody.self, .get, "/api/v1/albums/\(album.id)")
                    #expect(listed.assetCount == 16)
                    for id in ids {
                        #expect(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(id)").isFavorite)
                    }
                }
            }
        }
    }
}
