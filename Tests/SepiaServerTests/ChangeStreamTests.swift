import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

@Suite("The live change stream")
struct ChangeStreamTests {
    @Test("uploads, edits, favourites, albums and commits by another process arrive as events; a reconnect resumes")
    func liveEvents() async throws {
        let server = TestServer()
        let (app, token) = try await server.build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let port = try #require(client.port)
            let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + reader.bearer!])
            defer { stream.close() }
            let ready = try #require(await stream.next { $0.event == "ready" })
            #expect(stream.status.withLock { $0 } == 200)
            #expect(Int(ready.id ?? "") != nil)

            let id = try await owner.uploadNew(1)
            let inserted = try #require(await stream.next { $0.event == "change" })
            #expect(inserted.data.contains(id) && inserted.data.contains(#""inserted":["\#(id)"]"#))

            _ = try await owner.request(.patch, "/api/v1/assets/\(id)", json: #"{"isFavorite": true}"#)
            let updated = try #require(await stream.next { $0.event == "change" })
            #expect(updated.data.contains(#""updated":["\#(id)"]"#))

            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Live"}"#, expect: .created)
            #expect(try #require(await stream.next { $0.event == "change" }).data.contains(album.id))

            // A commit by another process on the same library (what `sepia import` does) arrives too.
            let other = try PhotoLibrary.open(at: server.libraryPath, configuration: server.ownerLibraryConfiguration)
            let prepared = try await other.prepareAsset(data: TestImages.jpeg(99), filename: "elsewhere.jpg")
            try await other.performChanges { $0.createAsset(from: prepared) }
            other.close()
            let outside = try #require(await stream.next { $0.event == "change" && $0.data.contains(prepared.localIdentifier) })

            // Heartbeats keep the connection alive.
            #expect(await stream.next(timeout: .seconds(3)) { $0.event == "comment" }?.data == "heartbeat")

            // A reconnect with Last-Event-ID replays what it missed: here, everything after the upload.
            let resumed = try EventStreamClient(
                port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + reader.bearer!, "Last-Event-ID": inserted.id!])
            defer { resumed.close() }
            var replayed = ""
            while let event = await resumed.next(timeout: .seconds(2), where: { $0.event == "change" }) {
                replayed += event.data
                if event.id == outside.id { break }
            }
            #expect(replayed.contains(#""updated":["\#(id)"]"#) && replayed.contains(album.id) && replayed.contains(prepared.localIdentifier))
            #expect(!replayed.contains(#""inserted":["\#(id)"]"#))
        }
    }

    @Test("the progress of a playable version being made on any server arrives as progress events, to those who may see it")
    func encodeProgress() async throws {
        // No job workers here: "another server" takes the job and reports, through the shared job table.
        let (app, token, services) = try TestServer { $0.jobWorkers = 0 }.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Clips"}"#, expect: .created)
            let inside = try await owner.uploadNew(1, query: "&album=\(album.id)")
            let outside = try await owner.uploadNew(2)
            let port = try #require(client.port)
            let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Cookie": "sepia_session=" + owner.cookie!])
            defer { stream.close() }
            let limited = try await owner.token("read", albums: [album.id])
            let narrow = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + limited.bearer!])
            defer { narrow.close() }
            _ = try #require(await stream.next { $0.event == "ready" })
            _ = try #require(await narrow.next { $0.event == "ready" })

            let elsewhere = JobQueue(database: services.accounts.database, worker: "elsewhere:1")
            try services.jobs.enqueue(.playableVideo, library: "", subject: inside)
            try services.jobs.enqueue(.playableVideo, library: "", subject: outside)
            // (The uploads' preview jobs come first in the queue: taken and left.)
            var taken: [String: Job] = [:]
            while taken.count < 2, let job = try elsewhere.take(lease: 60) {
                if job.kind == .playableVideo { taken[job.subject] = job }
            }
            let first = try #require(taken[inside])
            let second = try #require(taken[outside])
            // A job taken but not yet reporting is not announced; then each report is.
            try elsewhere.report(first, progress: 0.25)
            try elsewhere.report(second, progress: 0.5)
            #expect(try services.jobs.running(.playableVideo).count == 2)
            let both = try #require(await stream.next(timeout: .seconds(5)) { $0.event == "progress" && $0.data.contains(outside) })
            let decoded = try JSONSerialization.jsonObject(with: Data(both.data.utf8)) as? [String: [String: Double]]
            #expect(decoded == ["assets": [inside: 0.25, outside: 0.5]], "\(both.data)")
            #expect(both.id == nil, "progress events do not move Last-Event-ID")
            // The limited token hears of its album's asset only.
            let seen = try #require(await narrow.next(timeout: .seconds(5)) { $0.event == "progress" })
            #expect(seen.data == #"{"assets":{"\#(inside)":0.25}}"#, "\(seen.data)")

            try elsewhere.report(first, progress: 0.75)
            let later = try #require(await stream.next(timeout: .seconds(5)) { $0.event == "progress" })
            #expect(later.data.contains(#""\#(inside)":0.75"#), "\(later.data)")
            // Done, or its server gone (the lease ran out): no longer in progress.
            try elsewhere.complete(first)
            try elsewhere.complete(second)
            let done = try #require(await stream.next(timeout: .seconds(5)) { $0.event == "progress" })
            #expect(done.data == #"{"assets":{}}"#, "\(done.data)")
            #expect(await stream.next(timeout: .milliseconds(2500)) { $0.event == "progress" } == nil, "an unchanged state is not sent again")
            try services.jobs.enqueue(.playableVideo, library: "", subject: inside)
            let again = try #require(try elsewhere.take(lease: 60))
            #expect(again.kind == .playableVideo && again.subject == inside)
            try elsewhere.report(again, progress: 0.1)
            try elsewhere.extend(again, lease: -60)
            #expect(await stream.next(timeout: .milliseconds(2500)) { $0.event == "progress" } == nil, "a job whose lease lapsed is not announced")
        }
    }

    @Test("a client too far behind the change log is told to reload")
    func reset() async throws {
        let server = TestServer()
        let (app, token) = try await server.build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            _ = try await owner.uploadNew(2)
            // Given a change log that no longer reaches back to generation 0…
            let library = try PhotoLibrary.open(at: server.libraryPath, configuration: server.ownerLibraryConfiguration)
            try library.pruneChangeLogForTesting(keep: 0)
            library.close()
            // …a client that last saw generation 0 gets a reset.
            let stream = try EventStreamClient(
                port: try #require(client.port), path: "/api/v1/changes?since=0", headers: ["Cookie": "sepia_session=" + owner.cookie!])
            defer { stream.close() }
            #expect(await stream.next { $0.event == "reset" || $0.event == "change" }?.event == "reset")
        }
    }

    @Test("a photo moved to Recently Deleted and back is trashed and recovered for the owner, deleted and inserted for a read-only token")
    func recentlyDeletedEvents() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let writer = try await owner.token("read-write")
            let port = try #require(client.port)
            let readerStream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + reader.bearer!])
            let writerStream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + writer.bearer!])
            defer {
                readerStream.close()
                writerStream.close()
            }
            for stream in [readerStream, writerStream] { _ = try #require(await stream.next { $0.event == "ready" }) }
            let id = try await owner.uploadNew(21)
            for stream in [readerStream, writerStream] { _ = try #require(await stream.next { $0.event == "change" && $0.data.contains(id) }) }

            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)").status == .noContent)
            let trashed = try #require(await writerStream.next { $0.event == "change" && $0.data.contains(id) })
            #expect(trashed.data.contains(#""trashed":["\#(id)"]"#), "\(trashed.data)")
            #expect(!trashed.data.contains(#""deleted":["\#(id)"]"#))
            let gone = try #require(await readerStream.next { $0.event == "change" && $0.data.contains(id) })
            #expect(gone.data.contains(#""deleted":["\#(id)"]"#), "\(gone.data)")
            #expect(!gone.data.contains("trashed") && !gone.data.contains("recovered"), "a read-only token hears nothing of Recently Deleted")

            #expect(try await owner.request(.post, "/api/v1/assets/\(id)/recover").status == .ok)
            let recovered = try #require(await writerStream.next { $0.event == "change" && $0.data.contains(id) })
            #expect(recovered.data.contains(#""recovered":["\#(id)"]"#), "\(recovered.data)")
            let back = try #require(await readerStream.next { $0.event == "change" && $0.data.contains(id) })
            #expect(back.data.contains(#""inserted":["\#(id)"]"#), "\(back.data)")

            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)?permanently=true").status == .noContent)
            let deleted = try #require(await writerStream.next { $0.event == "change" && $0.data.contains(id) })
            #expect(deleted.data.contains(#""deleted":["\#(id)"]"#), "\(deleted.data)")
        }
    }

    @Test("a token limited to an album hears nothing of commits outside it, not even empty events")
    func limitedTokenHearsOnlyItsAlbums() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
            let limited = try await owner.token("read", albums: [album.id])
            let stream = try EventStreamClient(
                port: try #require(client.port), path: "/api/v1/changes", headers: ["Authorization": "Bearer " + limited.bearer!])
            defer { stream.close() }
            _ = try #require(await stream.next { $0.event == "ready" })
            // Commits outside the album: uploads, a favourite, another album.
            let outside = try await owner.uploadNew(1)
            _ = try await owner.request(.patch, "/api/v1/assets/\(outside)", json: #"{"isFavorite": true}"#)
            _ = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Private"}"#, expect: .created)
            // Then one inside: the first event the token hears is that one.
            let inside = try await owner.uploadNew(2, query: "&album=\(album.id)")
            let event = try #require(await stream.next { $0.event == "change" })
            #expect(event.data.contains(inside), "\(event.data)")
            #expect(!event.data.contains(outside))
            #expect(await stream.next(timeout: .milliseconds(600)) { $0.event == "change" } == nil)
        }
    }

    @Test(
        "six changes outside a token's album change nothing it sees: its ids are sealed, its events carry no count, a reconnect replays its album only"
    )
    func limitedTokenLearnsNoCount() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
            let limited = try await owner.token("read", albums: [album.id])
            let port = try #require(client.port)
            let bearer = ["Authorization": "Bearer " + limited.bearer!]
            let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: bearer)
            defer { stream.close() }
            let ready = try #require(await stream.next { $0.event == "ready" })
            let first = try await owner.uploadNew(1, query: "&album=\(album.id)")
            let inside = try #require(await stream.next { $0.event == "change" })
            #expect(inside.data.contains(first))
            // Six changes outside the album…
            let outside = try await owner.uploadNew(2)
            _ = try await owner.request(.patch, "/api/v1/assets/\(outside)", json: #"{"isFavorite": true}"#)
            _ = try await owner.uploadNew(3)
            _ = try await owner.uploadNew(4)
            _ = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Private"}"#, expect: .created)
            _ = try await owner.request(.patch, "/api/v1/assets/\(outside)", json: #"{"isFavorite": false}"#)
            // …then one inside.
            let second = try await owner.uploadNew(5, query: "&album=\(album.id)")
            let next = try #require(await stream.next { $0.event == "change" })
            #expect(next.data.contains(second) && !next.data.contains(outside))
            // No id or event says how far the library's log has gone: no number to subtract.
            for event in [ready, inside, next] {
                let id = try #require(event.id)
                #expect(Int(id) == nil && !event.data.contains("generation"), "\(event)")
            }
            #expect(ready.data == "{}")
            #expect(Set([ready.id, inside.id, next.id]).count == 3)

            // A reconnect from the first event replays exactly what the token missed in its album,
            let resumed = try EventStreamClient(port: port, path: "/api/v1/changes", headers: bearer.merging(["Last-Event-ID": inside.id!]) { $1 })
            defer { resumed.close() }
            let replayed = try #require(await resumed.next { $0.event == "change" })
            #expect(replayed.data.contains(second) && !replayed.data.contains(first) && !replayed.data.contains(outside), "\(replayed.data)")
            #expect(Int(replayed.id ?? "0") == nil)
            #expect(await resumed.next(timeout: .milliseconds(600)) { $0.event == "change" } == nil)
            // and one without a position starts from now, again with nothing to count.
            let fresh = try EventStreamClient(port: port, path: "/api/v1/changes", headers: bearer)
            defer { fresh.close() }
            let again = try #require(await fresh.next { $0.event == "ready" })
            #expect(Int(again.id ?? "0") == nil && again.data == "{}" && again.id != ready.id)
        }
    }

    @Test("a limited token's position is only the ids it was sent: another token's is refused, a number from before resets")
    func limitedTokenPositions() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
            let one = try await owner.token("read", albums: [album.id])
            let two = try await owner.token("read", albums: [album.id])
            let port = try #require(client.port)
            let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + one.bearer!])
            defer { stream.close() }
            let ready = try #require(await stream.next { $0.event == "ready" })
            // Token two cannot use token one's position, nor a made-up one.
            for position in [ready.id!, "c" + String(repeating: "A", count: 48), "1 OR 1"] {
                let other = try EventStreamClient(
                    port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + two.bearer!, "Last-Event-ID": position])
                defer { other.close() }
                #expect(await other.responseStatus() == 400, "\(position)")
            }
            // A generation, as ids were before, is answered with a reset: reload, then continue from now.
            let old = try EventStreamClient(
                port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + two.bearer!, "Last-Event-ID": "3"])
            defer { old.close() }
            let reset = try #require(await old.next { $0.event == "reset" })
            #expect(reset.data == "{}" && Int(reset.id ?? "0") == nil)
        }
    }

    @Test("an account may hold a limited number of change streams at once; a closed one gives its place back")
    func streamLimitPerAccount() async throws {
        let (app, token) = try await TestServer { $0.maximumChangeStreamsPerUser = 3 }.build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let port = try #require(client.port)
            let headers = ["Authorization": "Bearer " + reader.bearer!]
            var streams = try (0..<3).map { _ in try EventStreamClient(port: port, path: "/api/v1/changes", headers: headers) }
            for stream in streams { #expect(await stream.responseStatus() == 200) }
            let refused = try RawHTTP(port: port).request("GET", "/api/v1/changes", headers: headers)
            #expect(refused.status == 429)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("change streams"))
            #expect(refused.headers["retry-after"] != nil)
            // The owner's session is the same account: refused too.
            #expect(try RawHTTP(port: port).request("GET", "/api/v1/changes", headers: ["Cookie": "sepia_session=" + owner.cookie!]).status == 429)
            streams.removeLast().close()
            var reopened: EventStreamClient?
            for _ in 0..<50 where reopened == nil {
                let attempt = try EventStreamClient(port: port, path: "/api/v1/changes", headers: headers)
                if await attempt.responseStatus() == 200 { reopened = attempt } else { attempt.close() }
                if reopened == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(reopened != nil, "the closed stream's place was given back")
            reopened?.close()
            for stream in streams { stream.close() }
        }
    }
}

extension PhotoLibrary {
    /// Cuts the change log down to its newest `keep` entries, as a long-running library eventually does.
    func pruneChangeLogForTesting(keep: Int64) throws {
        let store = try #require(self.store as? SQLLibraryStore)
        try store.pruneChangeLog(keep: keep)
    }
}
