import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import SepiaObjectStore

/// The client against a real S3 API: OpenStack Swift's `s3api`, which `scripts/object-store` starts on
/// loopback and names in `SEPIA_S3_*` variables (`scripts/test` runs these tests that way). Without the
/// variables the suite is skipped.
@Suite(.enabled(if: LiveStore.endpoint != nil, "needs a store: scripts/object-store run DIR -- swift test --filter S3ClientTests"))
struct S3ClientTests {
    let s3: S3Client

    init() async throws {
        s3 = try await LiveStore.client(prefix: "client-\(UUID().uuidString)/")
    }

    @Test func storesReadsAndRemoves() async throws {
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let etag = try await s3.put(bytes, key: "photos/a.jpg", contentType: "image/jpeg", metadata: ["Sepia-Hash": "abc"])
        #expect(etag == Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined())

        let info = try #require(try await s3.head(key: "photos/a.jpg"))
        #expect(info.size == bytes.count)
        #expect(info.etag == etag)
        #expect(info.contentType == "image/jpeg")
        #expect(info.metadata["sepia-hash"] == "abc")
        #expect(try await s3.get(key: "photos/a.jpg").bytes == bytes)

        guard case .partial(let part, let range, let total) = try await s3.get(key: "photos/a.jpg", range: .bytes(10..<20)) else {
            Issue.record("a ranged read returns part of the object")
            return
        }
        #expect(part.bytes == bytes[10..<20])
        #expect(range == 10..<20)
        #expect(total == bytes.count)
        guard case .partial(let tail, _, _) = try await s3.get(key: "photos/a.jpg", range: .suffix(5)) else {
            Issue.record("a suffix range returns part of the object")
            return
        }
        #expect(tail.bytes == bytes.suffix(5))
        guard case .notModified = try await s3.get(key: "photos/a.jpg", ifNoneMatch: etag) else {
            Issue.record("a read with the current ETag is not modified")
            return
        }

        try await s3.delete(key: "photos/a.jpg")
        #expect(try await s3.head(key: "photos/a.jpg") == nil)
        try await s3.delete(key: "photos/a.jpg")
        let missing = await #expect(throws: S3Error.self) { try await s3.get(key: "photos/a.jpg") }
        #expect(missing?.kind == .notFound)
    }

    @Test(arguments: ["a b.jpg", "ünïcødé/ß.heic", "plus+equals=amp&.png", "tilde~star*(1).webp", "deep/er/still/x"])
    func keysNeedingEncoding(_ key: String) async throws {
        try await s3.put(Data(key.utf8), key: key)
        #expect(try await s3.get(key: key).bytes == Data(key.utf8))
        let listed = try await s3.list(prefix: key).objects.map(\.key)
        #expect(listed == [key])
        try await s3.delete(key: key)
    }

    @Test func listsPageByPage() async throws {
        for i in 0..<7 { try await s3.put(Data([UInt8(i)]), key: "list/\(i).bin") }
        try await s3.put(Data([9]), key: "other/x.bin")
        let first = try await s3.list(prefix: "list/", maximumKeys: 3)
        #expect(first.objects.map(\.key) == ["list/0.bin", "list/1.bin", "list/2.bin"])
        #expect(first.continuation != nil)
        var all: [String] = []
        for try await object in s3.listAll(prefix: "list/") { all.append(object.key) }
        #expect(all == (0..<7).map { "list/\($0).bin" })
        var paged: [String] = []
        var token: String?
        repeat {
            let page = try await s3.list(prefix: "list/", continuation: token, maximumKeys: 2)
            paged += page.objects.map(\.key)
            token = page.continuation
        } while token != nil
        #expect(paged == all)
    }

    @Test func multipartUploadAndDownload() async throws {
        var client = s3
        client.partSize = 5 << 20
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(12 << 20) + 12345).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: folder + "/big.bin"))
        let etag = try await client.upload(fileAt: folder + "/big.bin", key: "big.bin", contentType: "application/octet-stream")
        #expect(etag.hasSuffix("-3"), "three parts: \(etag)")
        let info = try await client.download(key: "big.bin", to: folder + "/back.bin")
        #expect(info.size == bytes.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/back.bin")) == bytes)
        await #expect(throws: S3Error.self, "the download never overwrites a file") {
            try await client.download(key: "big.bin", to: folder + "/back.bin")
        }
        // A small file goes in one request.
        try Data("small".utf8).write(to: URL(fileURLWithPath: folder + "/small.txt"))
        let small = try await client.upload(fileAt: folder + "/small.txt", key: "small.txt")
        #expect(!small.contains("-"))
        try await client.delete(key: "big.bin")
        try await client.delete(key: "small.txt")
    }

    @Test func presignedURLWorksWithoutCredentialsAndOnlyAsSigned() async throws {
        try await s3.put(Data("shared".utf8), key: "shared.txt")
        let url = s3.presignedURL(key: "shared.txt", expires: 300)
        let good = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        #expect(good.status == .ok)
        #expect(String(buffer: try await good.body.collect(upTo: 1 << 20)) == "shared")
        let tampered = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: url.replacingOccurrences(of: "shared.txt", with: "other.txt")), timeout: .seconds(30))
        #expect(tampered.status == .forbidden)
        _ = try await tampered.body.collect(upTo: 1 << 20)
        try await s3.delete(key: "shared.txt")
    }

    @Test func wrongSecretIsRefusedClearly() async throws {
        let location = s3.location
        let wrong = S3Client(location: location, credentials: S3Credentials(accessKeyID: LiveStore.credentials.accessKeyID, secretAccessKey: "wrong"))
        let error = await #expect(throws: S3Error.self) { try await wrong.put(Data("x".utf8), key: "x.txt") }
        #expect(error?.kind == .accessDenied)
        #expect(error?.status == 403)
    }
}

/// The store `scripts/object-store` started, from its variables.
enum LiveStore {
    static let environment = ProcessInfo.processInfo.environment
    static let endpoint = environment["SEPIA_S3_ENDPOINT"]
    static let credentials = S3Credentials(
        accessKeyID: environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "", secretAccessKey: environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? "")
    static let bucket = "sepia-tests"

    /// A client of the test bucket (created when missing) with keys under `prefix`.
    static func client(prefix: String) async throws -> S3Client {
        let region = environment["SEPIA_S3_REGION"] ?? "us-east-1"
        let location = try S3Location(parsing: "s3://\(bucket)/\(prefix)?endpoint=\(endpoint ?? "")&region=\(region)")
        let client = S3Client(location: location, credentials: credentials)
        if try await !client.bucketExists() { try await client.createBucket() }
        return client
    }
}
