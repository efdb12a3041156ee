import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import SepiaVision
import Testing

@testable import SepiaServer

/// People through the API, on real photos indexed by the server's own job: two of dlib's johns (four photos each),
/// three photos of Obama and one of Biden from the corpus. Who is who comes from the files, never from a recorded
/// output.
@Suite("People through the API", .serialized)
struct PeopleRoutesTests {
    struct Box: Decodable, Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    struct KeyFace: Decodable {
        var id: String
        var assetID: String
        var boundingBox: Box
        var version: String?
    }

    struct PersonBody: Decodable {
        var id: String
        var name: String?
        var keyFaceID: String?
        var isHidden: Bool
        var faceCount: Int
        var assetCount: Int
        var keyFace: KeyFace?
    }

    struct FaceBody: Decodable {
        var id: String
        var assetID: String
        var boundingBox: Box
        var confidence: Double
        var personID: String?
        var personName: String?
        var state: String
    }

    struct PeopleList: Decodable { var people: [PersonBody] }
    struct FaceList: Decodable { var faces: [FaceBody] }
    struct FacePage: Decodable {
        var faces: [FaceBody]
        var nextAfter: String?
    }
    struct Assigned: Decodable {
        var face: FaceBody
        var person: PersonBody
        var undo: String
    }
    struct Rejected: Decodable {
        var face: FaceBody
        var undo: String
    }
    struct Merged: Decodable {
        var person: PersonBody
        var undo: String
    }
    struct Undone: Decodable { var undo: String }

    struct Status: Decodable {
        var algorithm: Int
        var indexedAssets: Int
        var assetsToIndex: Int
        var faces: Int
        var unassignedFaces: Int
        var people: Int
        var namedPeople: Int
        var enabled: Bool
        var modelsMissing: Bool
    }

    /// The photos: label → file.
    static func photos() throws -> [(label: String, path: String)] {
        let salley = try FacePhotos.john("John_Salley", count: 4).map { ("salley", $0) }
        let savage = try FacePhotos.john("John_Savage", count: 4).map { ("savage", $0) }
        let obama = try ["obama.jpg", "obama2.jpg", "obama3.jpg"].map { ("obama", try FacePhotos.corpusPhoto($0)) }
        return salley + savage + obama + [("biden", try FacePhotos.corpusPhoto("biden.jpg"))]
    }

    /// Uploads the photos; returns each asset's label.
    static func upload(_ photos: [(label: String, path: String)], as owner: Client) async throws -> [String: String] {
        var labels: [String: String] = [:]
        for (label, path) in photos {
            let response = try await owner.upload(try Data(contentsOf: URL(fileURLWithPath: path)), filename: (path as NSString).lastPathComponent)
            #expect(response.status == .created, "\(path): \(String(buffer: response.body))")
            labels[try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id] = label
        }
        return labels
    }

    /// Waits until the faces job has indexed `count` assets and none is left.
    static func indexed(_ count: Int, by owner: Client, within seconds: Double = 300) async throws -> Status {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var status = try await owner.json(Status.self, .get, "/api/v1/people/status")
        while !(status.indexedAssets == count && status.assetsToIndex == 0), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            status = try await owner.json(Status.self, .get, "/api/v1/people/status")
        }
        #expect(status.indexedAssets == count && status.assetsToIndex == 0, "\(status)")
        return status
    }

    /// The labels of a person's photos, through `GET /assets?person=`.
    static func labels(of person: String, _ labels: [String: String], as owner: Client) async throws -> [String] {
        try await owner.json(PageBody.self, .get, "/api/v1/assets?person=\(person)").assets.map { labels[$0.id] ?? "?" }
    }

    static func metric(_ name: String, of client: Client) async throws -> Double? {
        let text = String(buffer: try await client.request(.get, "/metrics").body)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("an edit that crops a photo has its faces found again where they now are, and so has reverting it")
    func editFindsFacesAgain() async throws {
        let (app, token) = try await TestServer { $0.jobPollInterval = .milliseconds(100) }.build()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let photo = try FacePhotos.corpusPhoto("obama.jpg")
            let id = try #require(try await Self.upload([("obama", photo)], as: owner).keys.first)
            _ = try await Self.indexed(1, by: owner)
            let before = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(id)/faces").faces.first)
            let asset = try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            // 120 pixels off the left: the face moves left and grows, as a part of the narrower picture.
            let cropped = try await owner.json(
                AssetBody.self, .put, "/api/v1/assets/\(id)/edit",
                json: EditRoutesTests.recipe(
                    #"{"filter": "CICrop", "parameters": {"inputRectangle": [120, 0, \#(asset.width - 120), \#(asset.height)]}}"#))
            #expect(cropped.width == asset.width - 120)
            var status = try await owner.json(Status.self, .get, "/api/v1/people/status")
            #expect(status.assetsToIndex == 1 || status.indexedAssets == 1)
            _ = try await Self.indexed(1, by: owner)
            let after = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(id)/faces").faces.first)
            let (w, cw) = (Double(asset.width), Double(cropped.width))
            #expect(abs(after.boundingBox.x - (before.boundingBox.x * w - 120) / cw) < 0.02, "\(before.boundingBox) → \(after.boundingBox)")
            #expect(abs(after.boundingBox.width - before.boundingBox.width * w / cw) < 0.02, "\(before.boundingBox) → \(after.boundingBox)")
            // Back to the original: back where it was.
            _ = try await owner.json(AssetBody.self, .delete, "/api/v1/assets/\(id)/edit")
            status = try await Self.indexed(1, by: owner)
            #expect(status.faces == 1)
            let reverted = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(id)/faces").faces.first)
            #expect(abs(reverted.boundingBox.x - before.boundingBox.x) < 0.005 && abs(reverted.boundingBox.width - before.boundingBox.width) < 0.005)
        }
    }

    @Test("a shutdown stops a faces run between two assets: what was found is kept, and the job goes back to the queue")
    func shutdownBetweenAssets() async throws {
        // No workers: the test runs the job by hand, as a worker would, and shuts it down.
        let (app, token, services) = try TestServer { $0.jobWorkers = 0 }.buildWithServices()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let photos = try ["obama.jpg", "obama2.jpg", "obama3.jpg", "biden.jpg"].map { ("face", try FacePhotos.corpusPhoto($0)) }
            _ = try await Self.upload(photos, as: owner)
            var job: Job?
            while job == nil, let taken = try services.jobs.take(lease: 60) {
                if taken.kind == .faces { job = taken } else { try services.jobs.complete(taken) }
            }
            let faces = try #require(job)
            var runner = JobRunner(
                queue: services.jobs, accounts: services.accounts, libraries: services.libraries, metrics: services.metrics, workers: 1,
                longWorkers: 0, longEncodePixels: .max, lease: 60, pollInterval: .seconds(1), wakeUps: services.jobWakeUps,
                logger: Logger(label: "test"))
            runner.faceRunTime = .seconds(600)
            // The shutdown comes as the first asset is recorded, while those searched beside it (one per core) may still
            // be in hand: however slow the machine, before another round has started.
            let inHand = JobsInHand()
            runner.faceAssetFinished = { inHand.stopAll() }
            let running = Task { [runner] in await runner.perform(faces, inHand: inHand) }
            await running.value
            let library = try services.libraries.openOwnerLibrary().library
            // The asset in hand when the shutdown came was finished and kept; none was started after it.
            let status = try library.faceIndexStatus(algorithm: FaceIndexing.algorithm)
            let inHandAtOnce = min(4, ProcessInfo.processInfo.activeProcessorCount)
            #expect(
                status.indexedAssets >= 1 && status.indexedAssets <= inHandAtOnce && status.assetsToIndex == 4 - status.indexedAssets,
                "\(status)")
            #expect(try await Self.metric(#"sepia_jobs_total{kind="faces",outcome="released"}"#, of: owner) == 1)
            var again: Job?
            while again == nil, let taken = try services.jobs.take(lease: 60) {
                if taken.kind == .faces { again = taken } else { try services.jobs.complete(taken) }
            }
            #expect(again?.id == faces.id && again?.attempts == 1, "given back without counting as an attempt")
        }
    }

    /// A server whose faces job never records a face (it has no models), for tests that record faces by hand.
    static func handServer(_ adjust: @escaping (inout ServerConfiguration) -> Void = { _ in }) -> TestServer {
        TestServer {
            $0.faceIndexing.models = FaceModels(directory: $0.dataPath + "/no-face-models")
            adjust(&$0)
        }
    }

    @Test("a token limited to albums sees its albums' faces with their names and no people; a share link shows no faces or names")
    func limitedAndShared() async throws {
        let (app, token, services) = try Self.handServer().buildWithServices()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Family"}"#, expect: .created)
            let inside = try await owner.uploadNew(1, query: "&album=\(album.id)")
            let outside = try await owner.uploadNew(2)
            let library = try services.libraries.openOwnerLibrary().library
            let faceIn = try TestFaces.record(in: library, asset: inside, seed: 1)
            let faceOut = try TestFaces.record(in: library, asset: outside, seed: 2)
            try library.assignFace(faceIn, toPersonNamed: "Ana")
            try library.assignFace(faceOut, toPersonNamed: "Secret Sam")
            let ana = try #require(try library.face(faceIn).personID)

            let limited = try await owner.token("read-write", albums: [album.id])
            let faces = try await limited.json(FaceList.self, .get, "/api/v1/assets/\(inside)/faces").faces
            #expect(faces.map(\.id) == [faceIn] && faces.first?.personName == "Ana")
            #expect(try await limited.request(.get, "/api/v1/faces/\(faceIn)/image").status == .ok)
            for path in [
                "/api/v1/assets/\(outside)/faces", "/api/v1/faces/\(faceOut)/image", "/api/v1/people", "/api/v1/people/\(ana)",
                "/api/v1/people/status", "/api/v1/faces?state=unassigned", "/api/v1/assets?person=\(ana)",
            ] {
                let response = try await limited.request(.get, path)
                #expect(response.status == .notFound, "\(path): \(response.status)")
                #expect(!String(buffer: response.body).contains("Secret Sam"))
            }
            #expect(try await limited.request(.put, "/api/v1/faces/\(faceIn)/person", json: #"{"name": "Sam"}"#).status == .forbidden)
            #expect(try await limited.request(.delete, "/api/v1/faces/\(faceIn)/person").status == .forbidden)
            #expect(try library.face(faceIn).personID == ana)

            // Share links of the photo and of the album: no face, no name, anywhere.
            struct Share: Decodable { var url: String }
            for body in [#"{"assetID": "\#(inside)", "includeMetadata": true}"#, #"{"albumID": "\#(album.id)", "includeMetadata": true}"#] {
                let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: body, expect: .created)
                let link = String(share.url.split(separator: "/").last ?? "")
                let page = String(buffer: try await owner.anonymous.request(.get, "/api/v1/shared/\(link)").body)
                #expect(page.contains(inside))
                for word in ["Ana", faceIn, ana, "face", "person", "people"] { #expect(!page.contains(word), "\(word) in \(page)") }
                let guessed = try await owner.anonymous.request(.get, "/api/v1/shared/\(link)/assets/\(inside)/faces")
                #expect(guessed.status == .notFound)
            }
        }
    }

    @Test("faces waiting for a name come a page at a time, without those of photos in Recently Deleted")
    func unassignedPages() async throws {
        let (app, token, services) = try Self.handServer().buildWithServices()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let library = try services.libraries.openOwnerLibrary().library
            var faces: [String] = []
            for seed in 1...7 { faces.append(try TestFaces.record(in: library, asset: try await owner.uploadNew(seed), seed: seed)) }
            let trashed = try library.face(faces[2]).assetID
            _ = try await owner.request(.delete, "/api/v1/assets/\(trashed)")
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try await owner.json(FacePage.self, .get, "/api/v1/faces?limit=2" + (after.map { "&after=\($0)" } ?? ""))
                #expect(page.faces.count == 2 || page.nextAfter == nil)
                seen += page.faces.map(\.id)
                after = page.nextAfter
                pages += 1
            } while after != nil && pages < 10
            #expect(seen == faces.enumerated().filter { $0.offset != 2 }.map(\.element))
            #expect(pages == 3)
            #expect(try await owner.request(.get, "/api/v1/faces?after=nope").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/faces?limit=501").status == .badRequest)
        }
    }

    @Test("without face models the job says so once and is done; the status and /metrics report it; nothing else suffers")
    func modelsMissing() async throws {
        let (app, token, services) = try Self.handServer { $0.jobPollInterval = .milliseconds(100) }.buildWithServices()
        try await app.test(.router) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let first = try await owner.uploadNew(1)
            var status = try await owner.json(Status.self, .get, "/api/v1/people/status")
            #expect(status.modelsMissing && status.enabled && status.assetsToIndex == 1)
            // The job runs, finds no models, and is done: nothing waits or failed.
            let deadline = ContinuousClock.now + .seconds(60)
            while (try await Self.metric(#"sepia_face_index_assets_total{outcome="modelsMissing"}"#, of: owner) ?? 0) < 1,
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(services.faceIndexing.problem?.contains("scripts/setup") == true, "\(services.faceIndexing.problem ?? "no problem")")
            _ = try await owner.uploadNew(2)
            while try services.jobs.counts().waiting != 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try services.jobs.counts() == (waiting: 0, failed: 0))
            #expect(try await Self.metric(#"sepia_jobs_total{kind="faces",outcome="done"}"#, of: owner) ?? 0 >= 2)
            #expect(try await Self.metric("sepia_face_models_missing", of: owner) == 1)
            status = try await owner.json(Status.self, .get, "/api/v1/people/status")
            #expect(status.modelsMissing && status.assetsToIndex == 2)
            // Everything else works.
            #expect(try await owner.request(.get, "/api/v1/assets/\(first)/image?size=64").status == .ok)
            #expect(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(first)/faces").faces.isEmpty)
        }
    }

    static func base64(_ url: String) -> String {
        var text = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
