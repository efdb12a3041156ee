import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaObjectStore
import SepiaTestSupport
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// The server with `--storage s3://…`: originals and edits in a real S3 API (OpenStack Swift's `s3api`,
/// started by `scripts/object-store`; `scripts/test` runs this suite that way).
@Suite(
    "Object storage: uploads, downloads and edits through S3",
    .enabled(if: ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] != nil, "needs a store: scripts/object-store"))
struct ObjectStorageRoutesTests {
    static func bucket(prefix: String, secret: String? = nil) async throws -> S3Client {
        let environment = ProcessInfo.processInfo.environment
        let location = try S3Location(
            parsing: "s3://sepia-tests/\(prefix)?endpoint=\(environment["SEPIA_S3_ENDPOINT"] ?? "")&region=us-east-1")
        let client = S3Client(
            location: location,
            credentials: S3Credentials(
                accessKeyID: environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "",
                secretAccessKey: secret ?? environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? ""))
        if secret == nil, try await !client.bucketExists() { try await client.createBucket() }
        return client
    }

    @Test("an upload's original is stored in the bucket and downloads byte for byte, ranges too; edits render from it")
    func uploadDownloadEdit() async throws {
        let bucket = try await Self.bucket(prefix: "server-\(UUID().uuidString)/")
        let server = TestServer { $0.objectStorage = bucket }
        try await server.withOwner { owner in
            let id = try await owner.uploadNew(11)
            var keys: [String] = []
            for try await object in bucket.listAll(prefix: "libraries/owner/originals/") { keys.append(object.key) }
            #expect(keys.count == 1)
            // The thumbnail is in the bucket when the upload answers; the preview follows from the job queue.
            let thumbnail = "libraries/owner/renditions/\(id)/original-fit-256x256.jpg"
            #expect(try await bucket.head(key: thumbnail) != nil)
            let preview = "libraries/owner/renditions/\(id)/original-fit-1440x1440.jpg"
            let deadline = Date() + 120
            while try await bucket.head(key: preview) == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try await bucket.head(key: preview) != nil, "the job queue stored the preview in the bucket")
            #expect(server.storedFiles().isEmpty, "nothing in the library folder's originals/")

            let original = try await owner.request(.get, "/api/v1/assets/\(id)/original")
            #expect(original.status == .ok)
            let object = try await bucket.get(key: try #require(keys.first))
            #expect(Data(buffer: original.body) == object.bytes)
            let range = try await owner.request(.get, "/api/v1/assets/\(id)/original", headers: [.range: "bytes=0-9"])
            #expect(range.status == .partialContent)
            #expect(Data(buffer: range.body) == object.bytes.prefix(10))

            let saved = try await owner.request(
                .put, "/api/v1/assets/\(id)/edit", json: EditRoutesTests.recipe(#"{"filter": "CIPhotoEffectNoir"}"#))
            #expect(saved.status == .ok, "\(String(buffer: saved.body))")
            var after: [String] = []
            for try await object in bucket.listAll() { after.append(object.key) }
            #expect(after.contains { $0.hasPrefix("libraries/owner/renders/") })
            let current = try await owner.request(.get, "/api/v1/assets/\(id)/current")
            #expect(current.status == .ok)
            #expect(current.headers[.contentType] == "image/jpeg")
        }
    }

    @Test("a video's original, poster and playable version are stored in the bucket, and it plays from there with ranges")
    func video() async throws {
        let bucket = try await Self.bucket(prefix: "server-\(UUID().uuidString)/")
        let clip = try TestVideos.clip(
            "IMG_0700.MOV", in: TestVideos.folder(), pattern: 9,
            codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let server = TestServer {
            $0.objectStorage = bucket
            $0.jobPollInterval = .milliseconds(100)
        }
        try await server.withOwner { owner in
            let upload = try await owner.upload(bytes, filename: "IMG_0700.MOV")
            #expect(upload.status == .created, "\(String(buffer: upload.body))")
            let id = try #require(try JSONSerialization.jsonObject(with: Data(buffer: upload.body)) as? [String: Any])["id"] as? String
            let asset = try #require(id)
            #expect(try await bucket.head(key: "libraries/owner/renditions/\(asset)/original-fit-256x256.jpg") != nil, "the poster's thumbnail")

            var response = try await owner.request(.get, "/api/v1/assets/\(asset)/video")
            let deadline = Date() + 120
            while response.status == .accepted, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                response = try await owner.request(.get, "/api/v1/assets/\(asset)/video")
            }
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "video/mp4")
            let playable = Data(buffer: response.body)
            #expect(String(decoding: playable[4..<8], as: UTF8.self) == "ftyp" && playable.range(of: Data("avc1".utf8)) != nil)
            let part = try await owner.request(.get, "/api/v1/assets/\(asset)/video", headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent && Data(buffer: part.body) == playable[10..<20])

            // Both files are objects in the bucket, byte for byte; none is in the library's folder.
            var objects: [String: Int] = [:]
            for try await object in bucket.listAll(prefix: "libraries/owner/originals/") { objects[object.key] = object.size }
            #expect(objects.count == 2, "\(objects)")
            #expect(Set(objects.values) == [bytes.count, playable.count], "\(objects)")
            #expect(server.storedFiles().isEmpty, "nothing in the library folder's originals/")
        }
    }

    @Test("a store that refuses writes fails the upload with 503 and a clear message, and stores nothing")
    func refusingStore() async throws {
        let good = try await Self.bucket(prefix: "refused-\(UUID().uuidString)/")
        let refusing = try await Self.bucket(prefix: good.location.prefix, secret: "wrong")
        let server = TestServer { $0.objectStorage = refusing }
        try await server.withOwner { owner in
            let response = try await owner.upload(TestImages.jpeg(12))
            #expect(response.status == .serviceUnavailable)
            let error = try JSONDecoder.api.decode(ErrorBody.self, from: Data(buffer: response.body))
            #expect(error.message.contains("object storage"))
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 0)
            #expect(server.storedFiles().isEmpty)
            var keys: [String] = []
            for try await object in good.listAll() { keys.append(object.key) }
            #expect(keys.isEmpty)
        }
    }
}
