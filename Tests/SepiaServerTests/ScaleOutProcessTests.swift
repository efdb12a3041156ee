import Foundation
import SepiaObjectStore
import SepiaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two `sepia serve` processes on one PostgreSQL database and one bucket, one of them killed. Runs when the
/// suites run on PostgreSQL with an object store (`scripts/test` starts both).
@Suite(
    "Two server processes on PostgreSQL and S3",
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["SEPIA_TEST_DATABASE"]?.isEmpty == false
            && ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] != nil))
struct ScaleOutProcessTests {
    typealias ServerProcess = ServerProcessTests.ServerProcess

    /// `--database` and `--storage` for a new deployment (its own schema and prefix), the keys, and the bucket.
    static func deployment() async throws -> (options: [String], keys: [String: String], bucket: S3Client) {
        let environment = ProcessInfo.processInfo.environment
        let bucket = try await ObjectStorageRoutesTests.bucket(prefix: "scale-out-\(UUID().uuidString)/")
        let schema = "p" + UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(16)
        let options = [
            "--database", environment["SEPIA_TEST_DATABASE"]! + "?schema=\(schema)",
            "--storage", "s3://\(bucket.location.bucket)/\(bucket.location.prefix)?endpoint=\(environment["SEPIA_S3_ENDPOINT"]!)&region=us-east-1",
        ]
        let keys = [
            "AWS_ACCESS_KEY_ID": environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "",
            "AWS_SECRET_ACCESS_KEY": environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? "",
        ]
        return (options, keys, bucket)
    }

    /// Runs `sepia` with `arguments` and the environment merged with `extra`.
    static func sepia(_ arguments: [String], environment extra: [String: String]) throws -> (status: Int32, output: String) {
        let result = try ExternalProgram.run(ServerProcess.executable.path, arguments, environment: extra)
        return (result.status, result.output + result.errors)
    }

    @Test("docs/scaling.md's steps: an embedded library migrated with sepia library migrate, then served by two servers")
    func migrateThenServe() async throws {
        let (options, keys, _) = try await Self.deployment()
        try await onThread {
            // An embedded library, as `sepia import` makes it.
            let embedded = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-embedded-\(UUID().uuidString)").path
            let photos = ["fujifilm-w3.jpg", "iptc-orientation-3.jpg"].map(TestServerFixtures.photo)
            let imported = try Self.sepia(["import", "--library", embedded] + photos, environment: keys)
            #expect(imported.status == 0, "\(imported.output)")
            // `sepia library migrate --from … --to … --storage …`
            let database = options[1]
            let storage = options[3]
            let migrated = try Self.sepia(
                ["library", "migrate", "--from", embedded, "--to", database, "--storage", storage, "--library", embedded + "-deployed"],
                environment: keys)
            #expect(migrated.status == 0 && migrated.output.contains("ok: 2 photos, 2 files"), "\(migrated.output)")
            // Two servers with the same settings serve it.
            let a = try ServerProcess(options: options, environment: keys)
            defer { a.stop() }
            let b = try ServerProcess(options: options, environment: keys)
            defer { b.stop() }
            let token = try a.ownerToken()
            let listed = try RawHTTP(port: b.port).request("GET", "/api/v1/assets", headers: ["Authorization": "Bearer " + token])
            let text = String(decoding: listed.body, as: UTF8.self)
            #expect(listed.status == 200 && text.contains("fujifilm-w3.jpg") && text.contains("iptc-orientation-3.jpg"), "\(text)")
            let check = try b.sepia(["check"])
            #expect(check.status == 0, "\(check.output)")
        }
    }

    @Test(
        "A killed with SIGKILL during uploads: B keeps serving, every acknowledged upload is there with its preview, sepia check passes"
    )
    func killedDuringUploads() async throws {
        let (options, keys, bucket) = try await Self.deployment()
        // A short lease, so that the jobs A had taken when it died are B's again within seconds.
        let lease = ["--job-lease", "3"]
        let acknowledged = UploadLog()
        try await onThread {
            let a = try ServerProcess(options: options, serveOptions: lease, environment: keys)
            defer { a.stop() }
            let b = try ServerProcess(options: options, serveOptions: lease, environment: keys)
            defer { b.stop() }
            let token = try a.ownerToken()
            let auth = ["Authorization": "Bearer " + token]
            let toA = RawHTTP(port: a.port)
            let toB = RawHTTP(port: b.port)

            // Given uploads to A, one after another, from another thread…
            let uploader = Thread {
                for seed in 0..<200 {
                    guard
                        let answer = try? toA.request(
                            "POST", "/api/v1/assets?filename=up-\(seed).jpg", headers: auth,
                            body: TestImages.jpeg(1000 + seed, width: 320, height: 240))
                    else { break }
                    guard answer.status == 201 else { break }
                    if let id = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? String {
                        acknowledged.append(id)
                    }
                }
                acknowledged.finish()
            }
            uploader.start()
            // …A is killed once several were acknowledged, mid-stream.
            let deadline = Date().addingTimeInterval(60)
            while acknowledged.count < 6 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            kill(a.process.processIdentifier, SIGKILL)
            a.process.waitUntilExit()
            #expect(acknowledged.waitUntilFinished(timeout: 30))
            let ids = acknowledged.ids
            #expect(ids.count >= 6)

            // Then B serves every acknowledged upload, image and all, and takes new ones.
            let list = try toB.request("GET", "/api/v1/assets?limit=500", headers: auth)
            #expect(list.status == 200)
            let listed = String(decoding: list.body, as: UTF8.self)
            for id in ids {
                #expect(listed.contains(id), "acknowledged upload \(id) is missing")
            }
            #expect(try toB.request("GET", "/api/v1/assets/\(ids[0])/image?size=64x64", headers: auth).status == 200)
            let more = try toB.request("POST", "/api/v1/assets?filename=after.jpg", headers: auth, body: TestImages.jpeg(5000))
            #expect(more.status == 201)

            // And the deployment checks sound: every row's object read back; what A was writing when it died
            // is at most a recent object no row names (a note, swept after the grace period).
            let check = try b.sepia(["check"])
            #expect(check.status == 0, "\(check.output)")

            // Every acknowledged upload gets its preview from the job queue: the jobs A added and did not
            // finish, taken again by B once their lease ran out.
            let deadline2 = Date().addingTimeInterval(90)
            var waiting = -1
            repeat {
                Thread.sleep(forTimeInterval: 0.5)
                let metrics = String(decoding: try toB.request("GET", "/metrics").body, as: UTF8.self)
                waiting =
                    metrics.split(separator: "\n").first { $0.hasPrefix("sepia_jobs_waiting ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? -1
            } while waiting != 0 && Date() < deadline2
            #expect(waiting == 0, "jobs still waiting after 90 s")
        }
        var missing: [String] = []
        for id in acknowledged.ids where try await bucket.head(key: "libraries/owner/renditions/\(id)/original-fit-1440x1440.jpg") == nil {
            missing.append(id)
        }
        #expect(missing.isEmpty, "uploads without a preview in the bucket: \(missing)")
    }

    /// Blocking work (processes, sockets, sleeps) on a thread of its own, as the other process tests run it.
    func onThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await ServerProcessTests().onThread(body)
    }
}

/// The identifiers of uploads the server acknowledged, filled by the uploading thread.
private final class UploadLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var list: [String] = []
    private var finished = false

    func append(_ id: String) {
        condition.lock()
        list.append(id)
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return list.count
    }

    var ids: [String] {
        condition.lock()
        defer { condition.unlock() }
        return list
    }

    func waitUntilFinished(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while !finished && condition.wait(until: deadline) {}
        return finished
    }
}
