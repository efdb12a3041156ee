import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaObjectStore
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

    @Test("what one server indexes the other finds: A's located upload in B's search, Places and map; B's copy of it in A's Duplicates")
    func searchPlacesAndDuplicatesAcrossServers() async throws {
        struct Page: Decodable { var total: Int }
        struct Places: Decodable {
            struct Country: Decodable { var countryCode: String }
            var countries: [Country]
        }
        struct Markers: Decodable { var total: Int }
        struct Duplicates: Decodable {
            struct Group: Decodable { var assets: [Asset] }
            struct Asset: Decodable { var id: String }
            var groups: [Group]
            var waitingAssets: Int
        }
        struct Upload: Decodable { var id: String }
        let (a, b) = Self.pair()
        let (appA, token) = try await a.build()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                let original = try await ownerA.upload(DuplicateRoutesTests.jpeg(seed: 9, width: 800, height: 600), filename: "lisbon.jpg")
                let id = try JSONDecoder.api.decode(Upload.self, from: Data(buffer: original.body)).id
                #expect(
                    try await ownerA.request(.patch, "/api/v1/assets/\(id)", json: #"{"location": {"latitude": 38.7139, "longitude": -9.1394}}"#)
                        .status == .ok)
                #expect(try await ownerB.json(Page.self, .get, "/api/v1/search?q=lisbon").total == 1)
                #expect(try await ownerB.json(Page.self, .get, "/api/v1/search?q=lisbon.jpg").total == 1)
                #expect(try await ownerB.json(Places.self, .get, "/api/v1/places").countries.map(\.countryCode) == ["PT"])
                #expect(try await ownerB.json(Markers.self, .get, "/api/v1/map/markers?zoom=3").total == 1)

                let copy = try await ownerB.upload(DuplicateRoutesTests.jpeg(seed: 9, width: 400, height: 300), filename: "small.jpg")
                let copyID = try JSONDecoder.api.decode(Upload.self, from: Data(buffer: copy.body)).id
                var found = try await ownerA.json(Duplicates.self, .get, "/api/v1/duplicates")
                let deadline = ContinuousClock.now + .seconds(300)  // a deadline for failing, not a timing target
                while found.groups.isEmpty && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                    found = try await ownerA.json(Duplicates.self, .get, "/api/v1/duplicates")
                }
                #expect(found.groups.map { Set($0.assets.map(\.id)) } == [[id, copyID]])
            }
        }
    }

    @Test("a token limited to an album resumes on B from an id A sent it, and hears only what it missed in its album")
    func limitedCursorAcrossServers() async throws {
        let (a, b) = Self.pair()
        let (appA, token) = try await a.build()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let owner = try await Client.createOwner(clientA, setupToken: token!)
                let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
                let limited = try await owner.token("read", albums: [album.id])
                let onA = try EventStreamClient(
                    port: try #require(clientA.port), path: "/api/v1/changes", headers: ["Authorization": "Bearer " + limited.bearer!])
                defer { onA.close() }
                let first = try await owner.uploadNew(1, query: "&album=\(album.id)")
                let heard = try #require(await onA.next { $0.event == "change" && $0.data.contains(first) })
                onA.close()
                let outside = try await owner.uploadNew(2)
                let second = try await owner.uploadNew(3, query: "&album=\(album.id)")
                let onB = try EventStreamClient(
                    port: try #require(clientB.port), path: "/api/v1/changes",
                    headers: ["Authorization": "Bearer " + limited.bearer!, "Last-Event-ID": heard.id!])
                defer { onB.close() }
                let replayed = try #require(await onB.next { $0.event == "change" })
                #expect(replayed.data.contains(second) && !replayed.data.contains(first) && !replayed.data.contains(outside), "\(replayed.data)")
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

    @Test("both servers purge Recently Deleted at once, each every 200 ms: each photo is deleted once, no job fails, the rest stays")
    func purgesOnBothServers() async throws {
        let clock = ManualClock()
        let a = TestServer { configuration in
            configuration.clock = { clock.now }
            configuration.purgeInterval = .milliseconds(200)
            configuration.jobPollInterval = .milliseconds(20)
            configuration.jobWorkers = 2
        }
        let b = TestServer { configuration in
            configuration.database = a.configuration.database
            configuration.libraryPath = a.configuration.libraryPath
            configuration.clock = { clock.now }
            configuration.purgeInterval = .milliseconds(200)
            configuration.jobPollInterval = .milliseconds(20)
            configuration.jobWorkers = 2
        }
        let (appA, token, servicesA) = try a.buildWithServices()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                var ids: [String] = []
                for seed in 0..<12 { ids.append(try await ownerA.uploadNew(300 + seed)) }
                let deleting = Array(ids.prefix(10))
                let list = deleting.map { "\"\($0)\"" }.joined(separator: ",")
                #expect(try await ownerB.request(.post, "/api/v1/assets/delete", json: #"{"ids": [\#(list)]}"#).status == .ok)
                let files = a.storedFiles().count
                clock.advance(days: 31)
                let deadline = Date() + 30
                while try await ownerA.json(PageBody.self, .get, "/api/v1/recently-deleted").total > 0, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                for owner in [ownerA, ownerB] {
                    #expect(try await owner.json(PageBody.self, .get, "/api/v1/recently-deleted").total == 0)
                    #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 2)
                    for id in deleting { #expect(try await owner.request(.get, "/api/v1/assets/\(id)").status == .notFound) }
                }
                #expect(a.storedFiles().count == files - 10, "the originals went, once each")
                #expect(try servicesA.jobs.failed().isEmpty, "no purge failed on either server (one queue)")
            }
        }
    }

    @Test("the faces job runs on both servers, one run at a time: each photo uploaded through either is indexed once")
    func facesIndexedOnce() async throws {
        // One asset a run, so that the job goes from one server to the other.
        let a = TestServer {
            $0.jobPollInterval = .milliseconds(100)
            $0.faceIndexBatch = 1
        }
        let b = TestServer { configuration in
            configuration.database = a.configuration.database
            configuration.libraryPath = a.configuration.libraryPath
            configuration.jobPollInterval = .milliseconds(100)
            configuration.faceIndexBatch = 1
        }
        let (appA, token) = try await a.build()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                let photos = try FacePhotos.john("John_Salley", count: 5) + FacePhotos.john("John_Savage", count: 5)
                for (index, path) in photos.enumerated() {
                    let uploader = index.isMultiple(of: 2) ? ownerA : ownerB
                    let response = try await uploader.upload(try Data(contentsOf: URL(fileURLWithPath: path)), filename: "john-\(index).jpg")
                    #expect(response.status == .created)
                }
                let status = try await PeopleRoutesTests.indexed(photos.count, by: ownerB)
                #expect(status.faces == photos.count && status.people == 2, "\(status)")
                let indexed = #"sepia_face_index_assets_total{outcome="indexed"}"#
                let byA = try await PeopleRoutesTests.metric(indexed, of: ownerA) ?? 0
                let byB = try await PeopleRoutesTests.metric(indexed, of: ownerB) ?? 0
                #expect(byA + byB == Double(photos.count), "A indexed \(byA), B \(byB)")
                // Both servers see the same people.
                let people = try await ownerA.json(PeopleRoutesTests.PeopleList.self, .get, "/api/v1/people").people
                #expect(try await ownerB.json(PeopleRoutesTests.PeopleList.self, .get, "/api/v1/people").people.map(\.id) == people.map(\.id))
                #expect(people.map(\.faceCount) == [5, 5])
            }
        }
    }

    @Test("one rendition URL has one set of bytes and one strong ETag on both servers, whichever server made it and when")
    func renditionsAgreeAcrossServers() async throws {
        // On object storage when the suite has a store (each server then keeps its own library folder, as two
        // machines would), else on the shared library folder.
        let bucket: S3Client? =
            ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] == nil
            ? nil : try await ObjectStorageRoutesTests.bucket(prefix: "pair-\(UUID().uuidString)/")
        let a = TestServer { $0.objectStorage = bucket }
        let b = TestServer { configuration in
            configuration.database = a.configuration.database
            configuration.objectStorage = bucket
            if bucket == nil { configuration.libraryPath = a.configuration.libraryPath }
        }
        let (appA, token, servicesA) = try a.buildWithServices()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                let photo = TestImages.jpeg(31, width: 1600, height: 1200)
                let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await ownerA.upload(photo, filename: "p.jpg").body)).id
                // A answers the thumbnail from what the upload made, before the preview job runs.
                let sizes = ["256x256", "256", "64x64", "128x96&mode=fill", "512", "1440", "2048"]
                var fromA: [String: TestResponse] = [:]
                fromA["256x256"] = try await ownerA.request(.get, "/api/v1/assets/\(id)/image?size=256x256")
                // The job renders the standard renditions (on A, the only server with workers here).
                let deadline = Date() + 30
                while try servicesA.jobs.counts().waiting > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
                #expect(try servicesA.jobs.counts().waiting == 0, "the upload's job ran")
                // B is asked first for half the sizes, A for the others; then each for what the other made.
                for (index, size) in sizes.enumerated() where fromA[size] == nil {
                    if index.isMultiple(of: 2) {
                        _ = try await ownerB.request(.get, "/api/v1/assets/\(id)/image?size=\(size)")
                    }
                    fromA[size] = try await ownerA.request(.get, "/api/v1/assets/\(id)/image?size=\(size)")
                }
                for size in sizes {
                    let answerA = try #require(fromA[size])
                    let answerB = try await ownerB.request(.get, "/api/v1/assets/\(id)/image?size=\(size)")
                    #expect(answerA.status == .ok && answerB.status == .ok, "\(size)")
                    #expect(answerA.headers[.eTag] == answerB.headers[.eTag], "\(size): ETags differ")
                    #expect(Data(buffer: answerA.body) == Data(buffer: answerB.body), "\(size): bytes differ")
                    // Revalidation works behind a load balancer: A's ETag is B's.
                    let etag = try #require(answerA.headers[.eTag])
                    let again = try await ownerB.request(.get, "/api/v1/assets/\(id)/image?size=\(size)", headers: [.ifNoneMatch: etag])
                    #expect(again.status == .notModified, "\(size): B answered \(again.status) to A's ETag")
                }
            }
        }
    }

    @Test(
        "a stopped object store is reported at once: an upload, an original and a new rendition answer 503 within seconds, nothing half-written",
        .enabled(if: ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] != nil, "needs a store: scripts/object-store"))
    func stoppedStoreFailsFast() async throws {
        let real = try await ObjectStorageRoutesTests.bucket(prefix: "stopped-\(UUID().uuidString)/")
        let endpoint = try #require(URL(string: ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] ?? ""))
        let forwarder = try await TCPForwarder(to: endpoint.host ?? "127.0.0.1", port: endpoint.port ?? 80)
        var location = real.location
        location.endpoint = URL(string: "http://127.0.0.1:\(forwarder.port)")!
        let environment = ProcessInfo.processInfo.environment
        let bucket = S3Client(
            location: location,
            credentials: S3Credentials(
                accessKeyID: environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "", secretAccessKey: environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? ""))
        let a = TestServer { $0.objectStorage = bucket }
        let b = TestServer { configuration in
            configuration.database = a.configuration.database
            configuration.objectStorage = bucket
        }
        let (appA, token) = try await a.build()
        let (appB, _) = try await b.build()
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                let ownerA = try await Client.createOwner(clientA, setupToken: token!)
                let ownerB = Client(clientB, cookie: ownerA.cookie, csrf: ownerA.csrf)
                let id = try await ownerA.uploadNew(41)
                let before = try await ownerA.json(PageBody.self, .get, "/api/v1/assets").total
                try await forwarder.stop()

                func timed(_ what: String, _ request: () async throws -> TestResponse) async throws -> TestResponse {
                    let start = ContinuousClock.now
                    let response = try await request()
                    let elapsed = ContinuousClock.now - start
                    #expect(elapsed < .seconds(3), "\(what) took \(elapsed) to report the stopped store")
                    return response
                }
                let upload = try await timed("an upload") { try await ownerA.upload(TestImages.jpeg(42), filename: "new.jpg") }
                #expect(upload.status == .serviceUnavailable, "\(String(buffer: upload.body))")
                #expect(String(buffer: upload.body).contains("object storage"))
                #expect(try await ownerA.json(PageBody.self, .get, "/api/v1/assets").total == before, "no row for the refused upload")
                #expect(a.storedFiles().isEmpty, "nothing left in the library folder")
                // B has no copy of A's original, nor this rendition: both are in the stopped store.
                let original = try await timed("an original") { try await ownerB.request(.get, "/api/v1/assets/\(id)/original") }
                #expect(original.status == .serviceUnavailable, "\(String(buffer: original.body))")
                let rendition = try await timed("a new rendition") { try await ownerB.request(.get, "/api/v1/assets/\(id)/image?size=777") }
                #expect(rendition.status == .serviceUnavailable, "\(String(buffer: rendition.body))")
            }
        }
    }
}
