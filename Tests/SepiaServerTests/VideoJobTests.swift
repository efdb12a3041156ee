import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SepiaTestSupport
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// The video jobs a cheap credential can start, written as the attacks on them: a 3 MB upload that declares
/// hours of 8K frames is refused at once; an encode stops when its video is deleted; a job that can never
/// succeed fails for good, with its reason in the API, and is not retried; a long encode runs in a lane of its
/// own while another clip's playable version is made. (SIGTERM during an encode: ServerProcessTests.)
@Suite("Video jobs")
struct VideoJobTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// A value of `/metrics`: the line that starts with `name` (labels included) and a space.
    static func metric(_ name: String, of client: Client) async throws -> Double? {
        let text = String(buffer: try await client.request(.get, "/metrics").body)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Waits, polling every 100 ms, until `condition` holds; false after `seconds` (a bound against hangs only).
    static func eventually(within seconds: Double = 300, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// A 2-minute 1280x720 clip in a 3GP (so it gets a playable version) whose encode takes a while: one second
    /// of ffmpeg's test pattern repeated, as plausible as the second itself.
    static func longClip() throws -> Data {
        try Data(
            contentsOf: URL(
                fileURLWithPath: try SampleTableVideos.make(.repeated, width: 1280, height: 720, samples: 3600, rate: "30", pixelFormat: "yuv420p")))
    }

    @Test("the 3 MB upload that declares 3 h 41 min of 8K 4:4:4 at one frame's bytes is refused at once, to an add-only token")
    func hostileUpload() async throws {
        let attack = try Data(contentsOf: URL(fileURLWithPath: try SampleTableVideos.make(.shared, width: 7680, height: 4320, samples: 399_000)))
        #expect(attack.count < 4_000_000)
        let server = TestServer { $0.jobPollInterval = .milliseconds(100) }
        try await server.withOwnerAndServices { owner, services in
            let uploader = try await owner.token("add-only")
            let start = ContinuousClock.now
            let response = try await uploader.upload(attack, filename: "attack.3gp")
            #expect(ContinuousClock.now - start < .seconds(60), "the refusal took \(ContinuousClock.now - start)")
            #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
            let body = try Self.object(response)
            #expect(body["message"] as? String == "The file is damaged and cannot be read.", "\(body)")
            let detail = body["detail"] as? String ?? ""
            #expect(detail.hasPrefix("attack.3gp: ") && detail.contains("398 998 of the video's 399 000 samples"), "\(detail)")
            #expect(server.storedFiles().isEmpty)
            #expect(try services.jobs.counts().waiting == 0)
            // The same frames with each sample its own copy of the bytes: more pixels than its bytes allow.
            let copies = try Data(
                contentsOf: URL(fileURLWithPath: try SampleTableVideos.make(.copies, width: 1280, height: 720, samples: 20_000)))
            let refused = try await uploader.upload(copies, filename: "still.3gp")
            #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
            #expect((try Self.object(refused)["detail"] as? String)?.contains("pixels per byte") == true)
            #expect(server.storedFiles().isEmpty)
        }
    }

    @Test("deleting a video stops its encode within about a second, and its job leaves the queue", arguments: ["", "?permanently=true"])
    func deleteStopsEncode(_ how: String) async throws {
        let clip = try Self.longClip()
        try await TestServer { $0.jobPollInterval = .milliseconds(100) }.withOwnerAndServices { owner, services in
            let id = try #require(try Self.object(try await owner.upload(clip, filename: "long.3gp"))["id"] as? String)
            // A long encode: in the long lane.
            let lane = #"sepia_video_encode_progress_ratio{lane="long"}"#
            let started = try await Self.eventually { (try await Self.metric(lane, of: owner) ?? 0) > 0.01 }
            try #require(started, "the encode never got under way")
            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)\(how)").status == .noContent)
            let deleted = ContinuousClock.now
            let stopped = try await Self.eventually(within: 60) { try await Self.metric("sepia_video_encodes_running", of: owner) == 0 }
            #expect(stopped, "the encode went on after its video was deleted")
            // About a second (the watch looks twice a second; the encode checks after each frame).
            #expect(ContinuousClock.now - deleted < .seconds(30), "it stopped \(ContinuousClock.now - deleted) after the delete")
            let cancelled = #"sepia_jobs_total{kind="playableVideo",outcome="cancelled"}"#
            #expect(try await Self.metric(cancelled, of: owner) == 1)
            #expect(try await Self.metric(#"sepia_jobs_total{kind="playableVideo",outcome="done"}"#, of: owner) == nil)
            #expect(try await Self.eventually(within: 30) { try services.jobs.counts().waiting == 0 })
            let library = try services.libraries.openOwnerLibrary().library
            if let asset = try? library.asset(id) {
                #expect(!(try library.resources(for: asset)).contains { $0.type == .fullSizeVideo })
            }
            // Nothing was left half-written.
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: library.path + "/tmp")) ?? []
            #expect(!leftovers.contains { $0.contains(".mp4") }, "\(leftovers)")
        }
    }

    @Test("a video deleted for good outside the server (another connection to its library, as `sepia` makes) stops its encode too")
    func deletedElsewhere() async throws {
        let clip = try Self.longClip()
        let server = TestServer { $0.jobPollInterval = .milliseconds(100) }
        try await server.withOwnerAndServices { owner, services in
            let id = try #require(try Self.object(try await owner.upload(clip, filename: "long.3gp"))["id"] as? String)
            let started = try await Self.eventually { (try await Self.metric("sepia_video_encodes_running", of: owner) ?? 0) > 0 }
            try #require(started, "the encode never got under way")
            let other = try PhotoLibrary.open(at: server.libraryPath, configuration: server.ownerLibraryConfiguration)
            try await other.performChanges { $0.deleteAssetsPermanently([id]) }
            other.close()
            #expect(try await Self.eventually(within: 60) { try await Self.metric("sepia_video_encodes_running", of: owner) == 0 })
            #expect(try await Self.metric(#"sepia_jobs_total{kind="playableVideo",outcome="cancelled"}"#, of: owner) == 1)
        }
    }

    @Test("a job that fails for a reason that will not change fails for good at once, with its reason in the API, and is not retried")
    func failsForGood() async throws {
        let folder = TestVideos.folder()
        let clip = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0500.MOV", in: folder, pattern: 2,
                    codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])))
        let server = TestServer { $0.jobWorkers = 0 }
        try await server.withOwnerAndServices { owner, services in
            let id = try #require(try Self.object(try await owner.upload(clip, filename: "IMG_0500.MOV"))["id"] as? String)
            // The stored original damaged after the upload: every probe of it will refuse it.
            let library = try services.libraries.openOwnerLibrary().library
            let original = try #require(try library.resources(for: try library.asset(id)).first { $0.type == .video })
            let path = try await library.path(of: original)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            try Data(repeating: 0x5A, count: size).write(to: URL(fileURLWithPath: path))

            var job: Job?
            while let taken = try services.jobs.take(lease: 60) {
                if taken.kind == .playableVideo { job = taken } else { try services.jobs.complete(taken) }
            }
            let runner = JobRunner(
                queue: services.jobs, accounts: services.accounts, libraries: services.libraries, metrics: services.metrics, workers: 1,
                longWorkers: 0, longEncodePixels: .max, lease: 60, pollInterval: .seconds(1), wakeUps: services.jobWakeUps,
                logger: Logger(label: "test"))
            await runner.perform(try #require(job))

            #expect(try services.jobs.take(lease: 60, now: Date() + 86_400) == nil, "the job was taken again")
            #expect(try services.jobs.counts() == (waiting: 0, failed: 1))
            let reason = try #require(try services.jobs.failure(of: .playableVideo, library: "", subject: id))
            #expect(reason.hasPrefix("IMG_0500.MOV: ") && !reason.contains(library.path), "\(reason)")
            #expect(try await Self.metric(#"sepia_jobs_total{kind="playableVideo",outcome="failed"}"#, of: owner) == 1)
            // The API says so, and asking again queues nothing.
            for _ in 0..<2 {
                let video = try await owner.request(.get, "/api/v1/assets/\(id)/video")
                #expect(video.status == .unprocessableContent, "\(String(buffer: video.body))")
                let body = try Self.object(video)
                #expect(body["message"] as? String == "The playable version of this video cannot be made.")
                #expect(body["detail"] as? String == reason)
            }
            #expect(try services.jobs.counts() == (waiting: 0, failed: 1))
        }
    }

    @Test("a long encode runs in its own lane: another clip's playable version is made meanwhile")
    func otherClipWhileLongEncode() async throws {
        let long = try Self.longClip()
        let folder = TestVideos.folder()
        let short = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0600.MOV", in: folder, pattern: 3,
                    codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])))
        // The long clip is 3.3 × 10⁹ pixels of frames, the short one 4.6 × 10⁶: the default threshold, 10⁹, parts them.
        let server = TestServer { $0.jobPollInterval = .milliseconds(100) }
        try await server.withOwnerAndServices { owner, services in
            let longID = try #require(try Self.object(try await owner.upload(long, filename: "long.3gp"))["id"] as? String)
            let lane = #"sepia_video_encode_progress_ratio{lane="long"}"#
            let started = try await Self.eventually { (try await Self.metric(lane, of: owner) ?? 0) > 0 }
            try #require(started, "the long encode never got under way")
            let shortID = try #require(try Self.object(try await owner.upload(short, filename: "IMG_0600.MOV"))["id"] as? String)
            let made = try await Self.eventually { try await owner.request(.get, "/api/v1/assets/\(shortID)/video").status == .ok }
            #expect(made, "the short clip's playable version was not made")
            let progress = try await Self.metric(lane, of: owner) ?? 0
            #expect(progress > 0 && progress < 1, "the long encode was over before the short clip's was made: \(progress)")
            #expect(try await owner.request(.get, "/api/v1/assets/\(longID)/video").status == .accepted)
            // Cleaned up quickly: deleting the long one stops it.
            #expect(try await owner.request(.delete, "/api/v1/assets/\(longID)?permanently=true").status == .noContent)
            #expect(try await Self.eventually(within: 60) { try await Self.metric("sepia_video_encodes_running", of: owner) == 0 })
        }
    }
}
