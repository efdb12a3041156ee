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
}

extension PhotoLibrary {
    /// Cuts the change log down to its newest `keep` entries, as a long-running library eventually does.
    func pruneChangeLogForTesting(keep: Int64) throws {
        let store = try #require(self.store as? SQLLibraryStore)
        try store.pruneChangeLog(keep: keep)
    }
}
