import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import SepiaObjectStore

#if canImport(Glibc)
import Glibc
#endif

/// The client against a store that misbehaves on purpose: a Hummingbird server on loopback that answers
/// what each test scripts (failures, damaged data, dropped multipart uploads), and records what it was sent.
struct S3FaultTests {
    /// What the fake store was asked, in order: method and path with query.
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    typealias Script = @Sendable (Request, Int) async throws -> Response

    /// Runs `body` with a client of a fake store that answers every request with `script` (given the request
    /// and how many requests came before it).
    func withFakeStore(_ script: @escaping Script, _ body: @Sendable (S3Client, Log) async throws -> Void) async throws {
        let log = Log()
        let router = Router()
        router.on("**", method: .get) { request, _ in try await Self.answer(request, log, script) }
        router.on("**", method: .put) { request, _ in try await Self.answer(request, log, script) }
        router.on("**", method: .post) { request, _ in try await Self.answer(request, log, script) }
        router.on("**", method: .delete) { request, _ in try await Self.answer(request, log, script) }
        router.on("**", method: .head) { request, _ in try await Self.answer(request, log, script) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var s3 = S3Client(
                location: try S3Location(parsing: "s3://bucket?endpoint=http://127.0.0.1:\(port)"),
                credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
            s3.maximumAttempts = 3
            s3.partSize = 5 << 20
            try await body(s3, log)
        }
    }

    static func answer(_ request: Request, _ log: Log, _ script: Script) async throws -> Response {
        let index = log.all.count
        log.add("\(request.method) \(request.uri)")
        _ = try await request.body.collect(upTo: 64 << 20)
        return try await script(request, index)
    }

    static func error(_ status: HTTPResponse.Status, code: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/xml"],
            body: .init(byteBuffer: ByteBuffer(string: "<Error><Code>\(code)</Code><Message>scripted \(code)</Message></Error>")))
    }

    @Test("a store that refuses the connection (it is not running) fails the request at once, without retrying")
    func refusedConnectionFailsFast() async throws {
        // A port nothing listens on: bind one, then close it.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
        let s3 = S3Client(
            location: try S3Location(parsing: "s3://bucket?endpoint=http://127.0.0.1:\(port)"),
            credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
        let start = ContinuousClock.now
        do {
            try await s3.put(Data("x".utf8), key: "a")
            Issue.record("a put to a closed port succeeded")
        } catch {
            #expect(error.kind == .unreachable)
            #expect(error.isRefusedConnection, "\(error)")
            #expect(error.description.contains("refused the connection"), "\(error)")
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(1), "a refused connection took \(elapsed) to report")
    }

    @Test("retries stop once the retry budget is spent, whatever the attempt count")
    func retryBudget() async throws {
        try await withFakeStore({ _, _ in Self.error(.serviceUnavailable, code: "SlowDown") }) { s3, log in
            var client = s3
            client.maximumAttempts = 100
            client.maximumRetryDuration = .milliseconds(900)
            let start = ContinuousClock.now
            await #expect(throws: S3Error.self) { try await client.put(Data("x".utf8), key: "a") }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < .seconds(2), "retrying took \(elapsed)")
            #expect(log.all.count >= 2 && log.all.count < 10, "\(log.all.count) attempts")
        }
    }

    @Test func transientFailuresAreRetried() async throws {
        try await withFakeStore({ request, index in
            index < 2 ? Self.error(.serviceUnavailable, code: "SlowDown") : Response(status: .ok, headers: [.eTag: "\"x-1\""])
        }) { s3, log in
            try await s3.put(Data("hello".utf8), key: "a.txt")
            #expect(log.all.count == 3)
            #expect(log.all.allSatisfy { $0 == "PUT /bucket/a.txt" })
        }
    }

    @Test func persistentFailureNamesTheOperationAndTheObject() async throws {
        try await withFakeStore({ _, _ in Self.error(.internalServerError, code: "InternalError") }) { s3, log in
            let error = await #expect(throws: S3Error.self) { try await s3.put(Data("hello".utf8), key: "a.txt") }
            #expect(error?.kind == .failed)
            #expect(error?.status == 500)
            #expect(error?.code == "InternalError")
            #expect(error?.description == "object storage: cannot store: scripted InternalError (a.txt): HTTP 500 InternalError")
            #expect(log.all.count == 3)
        }
    }

    @Test func refusalIsNotRetried() async throws {
        try await withFakeStore({ _, _ in Self.error(.forbidden, code: "SignatureDoesNotMatch") }) { s3, log in
            let error = await #expect(throws: S3Error.self) { try await s3.get(key: "a.txt") }
            #expect(error?.kind == .accessDenied)
            #expect(error?.description.contains("check the access key and the secret") == true)
            #expect(log.all.count == 1)
        }
    }

    @Test func damagedReadIsRefused() async throws {
        let stored = Data("the bytes that were stored".utf8)
        let etag = Insecure.MD5.hash(data: stored).map { String(format: "%02x", $0) }.joined()
        try await withFakeStore({ _, _ in
            var damaged = stored
            damaged[3] ^= 1
            return Response(status: .ok, headers: [.eTag: "\"\(etag)\""], body: .init(byteBuffer: ByteBuffer(bytes: damaged)))
        }) { s3, _ in
            let error = await #expect(throws: S3Error.self) { try await s3.get(key: "a.txt") }
            #expect(error?.kind == .invalidResponse)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)").path
            await #expect(throws: S3Error.self) { try await s3.download(key: "a.txt", to: path) }
            #expect(!FileManager.default.fileExists(atPath: path), "a failed download leaves no file")
        }
    }

    @Test func checksumMismatchOnWriteIsAnError() async throws {
        try await withFakeStore({ _, _ in Response(status: .ok, headers: [.eTag: "\"0123456789abcdef0123456789abcdef\""]) }) { s3, _ in
            let error = await #expect(throws: S3Error.self) { try await s3.put(Data("hello".utf8), key: "a.txt") }
            #expect(error?.kind == .invalidResponse)
        }
    }

    @Test func failedPartAbortsTheUpload() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 11 << 20))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withFakeStore({ request, _ in
            if request.method == .post {
                return Response(
                    status: .ok,
                    body: .init(
                        byteBuffer: ByteBuffer(string: "<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>")))
            }
            if request.method == .delete { return Response(status: .noContent) }
            if request.uri.description.contains("partNumber=2") { return Self.error(.badRequest, code: "InvalidPart") }
            return Response(status: .ok, headers: [.eTag: "\"p\""])
        }) { s3, log in
            let error = await #expect(throws: S3Error.self) { try await s3.upload(fileAt: path, key: "big.bin") }
            #expect(error?.reason.contains("part 2") == true)
            #expect(log.all.first == "POST /bucket/big.bin?uploads=")
            #expect(log.all.last == "DELETE /bucket/big.bin?uploadId=u1")
        }
    }

    @Test func unreachableStore() async throws {
        var s3 = S3Client(
            location: try S3Location(parsing: "s3://bucket?endpoint=http://127.0.0.1:9"),
            credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
        s3.maximumAttempts = 1
        let error = await #expect(throws: S3Error.self) { try await s3.head(key: "a.txt") }
        #expect(error?.kind == .unreachable)
        #expect(error?.description.contains("check the endpoint") == true)
    }
}
