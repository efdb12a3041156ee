import Foundation
import SepiaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sepia serve` as a process: graceful shutdown on SIGTERM, and uploads cut off by the client.
@Suite("sepia serve as a process", .serialized)
struct ServerProcessTests {
    /// A running `sepia serve`, its port and setup link, read from what it prints.
    final class ServerProcess: @unchecked Sendable {
        let process = Process()
        let root: String
        let port: Int
        let setupToken: String
        private let output = Pipe()

        static let executable: URL = {
            let products = Bundle.main.bundleURL.deletingLastPathComponent()
            for candidate in [
                products.appendingPathComponent("sepia"),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sepia"),
            ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            return products.appendingPathComponent("sepia")
        }()

        /// Extra options for every `sepia` this server runs (`--database`, `--storage`).
        let options: [String]

        /// Starts `sepia serve` with `options` (given to every `sepia` it runs) and `serveOptions` (its own), on
        /// the library under `root` (a new folder unless given: another server's, after it stopped).
        init(root: String? = nil, options: [String] = [], serveOptions: [String] = [], environment: [String: String] = [:]) throws {
            self.root = root ?? FileManager.default.temporaryDirectory.appendingPathComponent("sepia-serve-\(UUID().uuidString)").path
            self.options = options
            process.executableURL = Self.executable
            process.arguments = ["serve", "--library", self.root + "/library", "--port", "0"] + options + serveOptions
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while !text.contains("Stop it with"), Date() < deadline {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            // The address it serves at; the setup link when the library has no owner yet.
            let words = text.split(whereSeparator: \.isWhitespace)
            guard let url = words.first(where: { $0.hasPrefix("http://") }),
                let portText = url.split(separator: ":").last?.split(separator: "/").first, let port = Int(portText)
            else {
                process.terminate()
                throw RawHTTP.Failure(description: "sepia serve printed no address: \(text)")
            }
            self.port = port
            setupToken = words.first(where: { $0.contains("/setup?token=") }).map { String($0.split(separator: "=").last ?? "") } ?? ""
        }

        /// Creates the owner and returns a read-write API token.
        func ownerToken() throws -> String {
            let http = RawHTTP(port: port)
            let setup = try http.request(
                "POST", "/api/v1/setup", headers: ["Content-Type": "application/json"],
                body: Data(#"{"token": "\#(setupToken)", "username": "owner", "password": "correct horse battery"}"#.utf8))
            let cookie = try #require(setup.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            struct Session: Decodable { var csrfToken: String }
            let csrf = try JSONDecoder().decode(Session.self, from: setup.body).csrfToken
            let created = try http.request(
                "POST", "/api/v1/tokens", headers: ["Content-Type": "application/json", "Cookie": cookie, "X-CSRF-Token": csrf],
                body: Data(#"{"name": "test", "accessLevel": "read-write"}"#.utf8))
            struct Token: Decodable { var token: String }
            return try JSONDecoder().decode(Token.self, from: created.body).token
        }

        /// Waits for the process to end, at most `timeout`; its status, or nil if it is still running.
        func waitForExit(timeout: TimeInterval) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            return process.isRunning ? nil : process.terminationStatus
        }

        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Waits until /metrics shows an encode (of either job lane) `fraction` done, at most a minute; its progress.
        func encodeProgress(atLeast fraction: Double, token: String) throws -> Double {
            var progress = 0.0
            let deadline = Date().addingTimeInterval(60)
            while progress < fraction, Date() < deadline {
                let answer = try RawHTTP(port: port).request("GET", "/metrics", headers: ["Authorization": "Bearer " + token])
                progress =
                    String(decoding: answer.body, as: UTF8.self).split(separator: "\n")
                    .filter { $0.hasPrefix("sepia_video_encode_progress_ratio{") }
                    .compactMap { Double($0.split(separator: " ").last ?? "") }.max() ?? 0
                Thread.sleep(forTimeInterval: 0.05)
            }
            return progress
        }

        /// Waits until the playable version of the video `id` is served (at most `seconds`); whether it is.
        func waitForPlayableVersion(of id: String, token: String, within seconds: TimeInterval) throws -> Bool {
            let http = RawHTTP(port: port)
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if try http.request("HEAD", "/api/v1/assets/\(id)/video", headers: ["Authorization": "Bearer " + token]).status == 200 { return true }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return false
        }

        /// Runs `sepia` with `arguments` on this server's library.
        func sepia(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let result = try ExternalProgram.run(
                Self.executable.path, arguments + ["--library", root + "/library"] + options, environment: process.environment ?? [:])
            return (result.status, result.output + result.errors)
        }
    }

    static func photo() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestServerFixtures.photo("flower.jpg")))
    }

    @Test("SIGTERM ends the change streams, lets an upload in flight finish, exits 0, and leaves a sound library")
    func gracefulShutdown() async throws {
        try await onThread {
            let server = try ServerProcess()
            defer { server.stop() }
            let token = try server.ownerToken()
            let http = RawHTTP(port: server.port)
            let stream = try EventStreamClient(port: server.port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + token])
            defer { stream.close() }
            // Given an upload that takes a couple of seconds to arrive…
            let photo = try Self.photo()
            let pid = server.process.processIdentifier
            let answer = try http.request(
                "POST", "/api/v1/assets?filename=slow.jpg", headers: ["Authorization": "Bearer " + token], body: photo, chunks: 8, pause: 0.25,
                afterFirstChunk: {
                    // Once the server has read the request's head: until then the connection is idle to it, and
                    // a graceful shutdown rightly closes idle connections.
                    Thread.sleep(forTimeInterval: 0.3)
                    kill(pid, SIGTERM)
                })
            // …SIGTERM, sent once it started, lets it finish…
            #expect(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
            // …and the server then exits cleanly, having ended the change stream.
            #expect(server.waitForExit(timeout: 20) == 0)
            #expect(throws: RawHTTP.Failure.self) { try http.request("GET", "/health") }
            let check = try server.sepia(["check"])
            #expect(check.status == 0, "\(check.output)")
            let list = try server.sepia(["list", "--json"])
            #expect(list.output.contains("slow.jpg"))
        }
    }

    @Test("an upload the client abandons half-way leaves no file and no row")
    func abandonedUpload() async throws {
        try await onThread {
            let server = try ServerProcess()
            defer { server.stop() }
            let token = try server.ownerToken()
            let http = RawHTTP(port: server.port)
            let photo = try Self.photo()
            try http.abandon("/api/v1/assets?filename=cut.jpg", headers: ["Authorization": "Bearer " + token], body: photo, sending: photo.count / 2)
            // The server notices, removes the partial file, and goes on serving.
            let deadline = Date().addingTimeInterval(10)
            var leftovers: [String] = ["?"]
            while Date() < deadline {
                leftovers = (try? FileManager.default.contentsOfDirectory(atPath: server.root + "/library/tmp")) ?? []
                if leftovers.isEmpty { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(leftovers.isEmpty)
            let list = try http.request("GET", "/api/v1/assets", headers: ["Authorization": "Bearer " + token])
            #expect(String(decoding: list.body, as: UTF8.self).contains(#""total":0"#))
            let originals = FileManager.default.enumerator(atPath: server.root + "/library/originals")?.allObjects.count ?? 0
            #expect(originals == 0)
        }
    }

    @Test("a server killed with SIGKILL during a video's playable encode leaves a job the next server finishes")
    func killedDuringEncode() async throws {
        try await onThread {
            // A clip long enough that its encode takes seconds: HEVC, which browsers do not play.
            let clip = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-kill-\(UUID().uuidString).mov").path
            defer { try? FileManager.default.removeItem(atPath: clip) }
            let ffmpeg = try ExternalProgram.run(
                "/usr/bin/ffmpeg",
                [
                    "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=30",
                    "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1", clip,
                ])
            try #require(ffmpeg.status == 0, "ffmpeg (Debian's, installed by scripts/setup) could not make the clip: \(ffmpeg.errors)")

            let lease = ["--job-lease", "3"]
            let first = try ServerProcess(serveOptions: lease)
            defer { first.stop() }
            let token = try first.ownerToken()
            let auth = ["Authorization": "Bearer " + token]
            let upload = try RawHTTP(port: first.port).request(
                "POST", "/api/v1/assets?filename=long.mov", headers: auth, body: try Data(contentsOf: URL(fileURLWithPath: clip)))
            #expect(upload.status == 201, "\(String(decoding: upload.body, as: UTF8.self))")
            struct Created: Decodable { var id: String }
            let id = try JSONDecoder().decode(Created.self, from: upload.body).id

            // Killed once its encode is under way, as /metrics shows it.
            let progress = try first.encodeProgress(atLeast: 0.05, token: token)
            #expect(progress > 0 && progress < 1, "the encode was under way: \(progress)")
            kill(first.process.processIdentifier, SIGKILL)
            first.process.waitUntilExit()

            // The next server on the same library takes the job once its lease has passed, and finishes it.
            let second = try ServerProcess(root: first.root, serveOptions: lease)
            defer { second.process.terminate() }
            let http = RawHTTP(port: second.port)
            #expect(try second.waitForPlayableVersion(of: id, token: token, within: 180), "the playable version was made after the kill")
            let resources = String(decoding: try http.request("GET", "/api/v1/assets/\(id)/resources", headers: auth).body, as: UTF8.self)
            #expect(resources.contains("fullSizeVideo"), "\(resources)")
            // No half-written encode is left behind.
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: first.root + "/library/tmp")) ?? []
            #expect(!leftovers.contains { $0.contains(".mp4") }, "\(leftovers)")
            second.process.terminate()
            second.process.waitUntilExit()
            let check = try second.sepia(["check"])
            #expect(check.status == 0, "\(check.output)")
        }
    }

    @Test("SIGTERM during a video's playable encode stops the server within seconds; the job, given back, is done by the next")
    func terminatedDuringEncode() async throws {
        try await onThread {
            // Long enough that its encode takes well over the 20 s allowed for the exit: 2 minutes of 720p in a 3GP.
            let clip = try Data(
                contentsOf: URL(
                    fileURLWithPath: try SampleTableVideos.make(
                        .repeated, width: 1280, height: 720, samples: 3600, rate: "30", pixelFormat: "yuv420p")
                ))
            let first = try ServerProcess()
            defer { first.stop() }
            let token = try first.ownerToken()
            let auth = ["Authorization": "Bearer " + token]
            let upload = try RawHTTP(port: first.port).request("POST", "/api/v1/assets?filename=long.3gp", headers: auth, body: clip)
            #expect(upload.status == 201, "\(String(decoding: upload.body, as: UTF8.self))")
            struct Created: Decodable { var id: String }
            let id = try JSONDecoder().decode(Created.self, from: upload.body).id
            let progress = try first.encodeProgress(atLeast: 0.02, token: token)
            #expect(progress > 0 && progress < 1, "the encode was under way: \(progress)")

            kill(first.process.processIdentifier, SIGTERM)
            // Within seconds: the encode stops within a frame and its job goes back to the queue. (Before, the
            // server waited for the encode, then for its grace period, and its watchdog ended it with 75.)
            #expect(first.waitForExit(timeout: 20) == 0, "SIGTERM did not stop the server cleanly within 20 s")
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: first.root + "/library/tmp")) ?? []
            #expect(!leftovers.contains { $0.contains(".mp4") }, "\(leftovers)")

            // The next server on the same library takes the job at once (it was given back, not leased) and finishes it.
            let second = try ServerProcess(root: first.root)
            defer { second.process.terminate() }
            let http = RawHTTP(port: second.port)
            #expect(try second.waitForPlayableVersion(of: id, token: token, within: 300), "the playable version was made after the restart")
            let metrics = String(decoding: try http.request("GET", "/metrics", headers: auth).body, as: UTF8.self)
            #expect(metrics.contains(#"sepia_jobs_total{kind="playableVideo",outcome="done"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"outcome="retried""#) && !metrics.contains(#"outcome="failed""#), "\(metrics)")
            second.process.terminate()
            second.process.waitUntilExit()
            let check = try second.sepia(["check"])
            #expect(check.status == 0, "\(check.output)")
        }
    }

    /// Runs blocking work (processes, sockets, sleeps) on a thread of its own, never on the threads Swift
    /// concurrency shares between tests.
    func onThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try body()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
