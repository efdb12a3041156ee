import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

/// `sepia info` and `sepia thumbnail` on videos: `sepia` recognises a video by its bytes and reads it through
/// SepiaVideo, which loads FFmpeg's libraries only then.
@Suite(.serialized) struct VideoCommandTests {
    /// A portrait iPhone-like movie made by Debian's ffmpeg: H.264, display matrix turned, QuickTime metadata.
    static func portraitMovie() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-video-clips")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("cli-portrait-v2.mov").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            Issue.record("\(ffmpeg) is missing: the video tests generate their clips with Debian's ffmpeg; run scripts/setup to install it")
            throw CocoaError(.fileNoSuchFile)
        }
        // Encoded, then turned by a stream copy: ffmpeg sets the display matrix from the rotate tag only when copying.
        let encoded = path + ".\(getpid()).encoded.mov"
        let partial = path + ".\(getpid()).part.mov"
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        try run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
                "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709",
                "-color_trc", "bt709", "-c:a", "aac", "-shortest", encoded,
            ])
        try run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", encoded, "-c", "copy", "-metadata:s:v:0", "rotate=90",
                "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.creationdate=2024-05-01T09:30:00-0700",
                "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 14",
                "-metadata", "com.apple.quicktime.location.ISO6709=+37.3349-122.0090/", partial,
            ])
        guard rename(partial, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        guard try ExternalProgram.run(executable, arguments).status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test("info on a video: streams, duration, capture date, camera, location; --json has the probe under video")
    func info() async throws {
        let movie = try Self.portraitMovie()
        let text = try await CommandRunner.run(["info", movie])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("QuickTime (video, H.264 High 8-bit)"), "\(text.stdout)")
        #expect(text.stdout.contains("240x320 (stored 320x240"), "\(text.stdout)")
        #expect(text.stdout.contains("2024-05-01T09:30:00-07:00"))
        #expect(text.stdout.contains("Apple iPhone 14"))
        #expect(text.stdout.contains("37.33490,-122.00900"))
        #expect(text.stdout.contains("duration    2.00 s"))
        #expect(text.stdout.contains("audio       AAC"))

        let photo = CommandRunner.fixture("photos/flower.jpg")
        let json = try await CommandRunner.run(["info", "--json", photo, movie])
        #expect(json.status == 0, "\(json.stderr)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 2)
        #expect(reports[0]["format"] as? String == "jpeg")
        #expect(reports[0]["video"] == nil)
        #expect(reports[1]["format"] as? String == "mov")
        #expect(reports[1]["mimeType"] as? String == "video/quicktime")
        let video = try #require(reports[1]["video"] as? [String: Any])
        #expect(video["duration"] as? Double == 2)
        #expect(video["posterTime"] as? Double == 0.2)
        let stream = try #require(video["video"] as? [String: Any])
        #expect(stream["codec"] as? String == "h264")
        #expect(stream["rotation"] as? Int == 270 || stream["rotation"] as? Int == 90)
        #expect((video["audio"] as? [[String: Any]])?.first?["codec"] as? String == "aac")
    }

    @Test("thumbnail of a video is its poster, upright; a damaged video fails with 65 naming the file")
    func thumbnail() async throws {
        let movie = try Self.portraitMovie()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poster.jpg").path
        let result = try await CommandRunner.run(["thumbnail", movie, "--size", "64", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let poster = try ImageDecoding.open(path: output)
        #expect(poster.displaySize == IntSize(width: 48, height: 64))

        // A batch mixing photos and videos.
        let photo = CommandRunner.fixture("photos/gps-datetime.jpg")
        let batch = try await CommandRunner.run(["thumbnail", photo, movie, "--size", "32", "--out-dir", folder.path])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cli-portrait-v2.jpg").path))

        let damaged = folder.appendingPathComponent("damaged.mp4")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        try bytes.prefix(bytes.count / 2).write(to: damaged)
        let failure = try await CommandRunner.run(["thumbnail", damaged.path, "--size", "64", "-o", output])
        #expect(failure.status == 65)
        #expect(failure.stderr.contains("damaged.mp4"), "\(failure.stderr)")
    }

    @Test("sepia alone runs photo and video commands itself, and neither executable loads FFmpeg at start")
    func noHandOff() async throws {
        let movie = try Self.portraitMovie()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("sepia")
        try FileManager.default.copyItem(at: CommandRunner.executable, to: alone)
        #expect(try CommandRunner.runBlocking(["info", CommandRunner.fixture("photos/gps-datetime.jpg")], executable: alone).status == 0)
        let video = try CommandRunner.runBlocking(["info", movie], executable: alone)
        #expect(video.status == 0, "\(video.stderr)")
        #expect(video.stdout.contains("H.264"), "\(video.stdout)")

        // FFmpeg's libraries (and the ~130 they bring) are loaded with dlopen when a video is opened, not at start.
        let library = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("sepia-library")
        for executable in [CommandRunner.executable, library] {
            let linked = try CommandRunner.runBlocking([executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(linked.stdout.contains("libc.so"), "\(linked.stdout)")
            for name in ["libavformat", "libavcodec", "libswscale", "libavutil"] {
                #expect(!linked.stdout.contains(name), "\(executable.lastPathComponent) links \(name) at start")
            }
        }
    }

    @Test("import takes videos; list --videos and --live find them; export gives a Live Photo's still and movie")
    func library() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let roll = folder.appendingPathComponent("roll")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.portraitMovie(), toPath: roll.appendingPathComponent("IMG_0001.MOV").path)
        // A Live Photo without identifiers: the same base name and the same capture time, to the second (the
        // still was taken at 2022-01-10T15:15:44.31-04:00).
        try FileManager.default.copyItem(
            atPath: CommandRunner.fixture("photos/iptc-date-offset.jpg"), toPath: roll.appendingPathComponent("IMG_0002.JPG").path)
        try Self.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=15:duration=1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags", "-metadata",
                "com.apple.quicktime.creationdate=2022-01-10T15:15:44-0400", roll.appendingPathComponent("IMG_0002.MOV").path,
            ])
        let library = folder.appendingPathComponent("library").path
        let imported = try await CommandRunner.run(["import", roll.path, "--library", library])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect((imported.stdout + imported.stderr).contains("1 joined their Live Photo"), "\(imported.stdout) \(imported.stderr)")

        let videos = try await CommandRunner.run(["list", "--videos", "--json", "--library", library])
        #expect(videos.status == 0, "\(videos.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(videos.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["mediaType"] as? String == "video" && listed.first?["filename"] as? String == "IMG_0001.MOV")
        #expect(listed.first?["duration"] as? Double == 2)

        let live = try await CommandRunner.run(["list", "--live", "--library", library])
        #expect(live.status == 0, "\(live.stderr)")
        let lines = live.stdout.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("IMG_0002.JPG") == true, "\(live.stdout)")
        let all = try await CommandRunner.run(["list", "--library", library])
        #expect(all.stdout.split(separator: "\n").count == 2, "the Live Photo is one item: \(all.stdout)")
        #expect(all.stdout.contains("0:02"), "a video's duration: \(all.stdout)")

        let short = String(try #require(lines.first?.prefix(8)))
        let out = folder.appendingPathComponent("out").path
        let exported = try await CommandRunner.run(["export", short, "--out-dir", out, "--library", library])
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["IMG_0002.JPG", "IMG_0002.JPG.xmp", "IMG_0002.MOV"], "\(files)")
    }

    @Test("check counts photos and videos apart: 2 photos and 3 videos, and a library of one video says 1 video")
    func checkCountsPhotosAndVideos() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let roll = folder.appendingPathComponent("roll")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        for name in ["flower.jpg", "gps-datetime.jpg"] {
            try FileManager.default.copyItem(atPath: CommandRunner.fixture("photos/" + name), toPath: roll.appendingPathComponent(name).path)
        }
        for clip in 1...3 {
            try Self.run(
                "/usr/bin/ffmpeg",
                [
                    "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=15:duration=1",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-metadata", "comment=clip \(clip)",
                    roll.appendingPathComponent("clip-\(clip).mp4").path,
                ])
        }
        let library = folder.appendingPathComponent("library").path
        let imported = try await CommandRunner.run(["import", roll.path, "--library", library])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")

        let check = try await CommandRunner.run(["check", "--library", library])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("ok: 2 photos, 3 videos, "), "\(check.stdout)")
        let json = try await CommandRunner.run(["check", "--json", "--library", library])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["assets"] as? Int == 5 && report["videos"] as? Int == 3, "\(json.stdout)")

        let alone = folder.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: roll.appendingPathComponent("clip-1.mp4").path, toPath: alone.appendingPathComponent("clip.mp4").path)
        let single = folder.appendingPathComponent("single").path
        #expect(try await CommandRunner.run(["import", alone.path, "--library", single]).status == 0)
        let one = try await CommandRunner.run(["check", "--quick", "--library", single])
        #expect(one.stdout.contains("ok: 1 video, "), "\(one.stdout)")
    }

    @Test("playable makes an H.264 MP4 of an HEVC movie and leaves a browser-playable one alone")
    func playable() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hevc = folder.appendingPathComponent("IMG_0600.MOV").path
        try Self.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:duration=1",
                "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", hevc,
            ])
        let output = folder.appendingPathComponent("out.mp4").path
        let made = try await CommandRunner.run(["playable", hevc, "-o", output])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("real time"), "\(made.stdout)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp" && bytes.range(of: Data("avc1".utf8)) != nil)
        let kept = try await CommandRunner.run(["playable", try Self.portraitMovie(), "-o", folder.appendingPathComponent("no.mp4").path])
        #expect(kept.status == 0 && kept.stdout.contains("plays in browsers as it is"), "\(kept.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("no.mp4").path))
        let missing = try await CommandRunner.run(["playable", folder.appendingPathComponent("missing.mov").path, "-o", output])
        #expect(missing.status == 66)
    }
}
