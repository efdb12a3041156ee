import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaTestSupport
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// Videos and Live Photos through the API: an upload of a clip becomes a video with its poster, duration and
/// file (served with ranges); a Live Photo's two parts become one asset whichever arrives first, but never join
/// an asset the uploading credential may not see; a damaged clip is refused with nothing stored. Clips are
/// made by ffmpeg at test time.
@Suite("Videos and Live Photos through the API")
struct VideoUploadTests {
    static let identifier = "4C7D2E91-6A3B-4F58-8E1D-9B2C5A7F0E36"

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("a clip uploads as a video: poster rendition, duration, its file with ranges, listed by media type")
    func clip() async throws {
        let folder = TestVideos.folder()
        let path = try TestVideos.clip(
            "IMG_0100.MOV", in: folder, portrait: true, keys: ["com.apple.quicktime.creationdate": "2024-05-01T09:30:00-0700"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try await TestServer().withOwner { owner in
            let response = try await owner.upload(bytes, filename: "IMG_0100.MOV")
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let body = try Self.object(response)
            let asset = try #require(body["asset"] as? [String: Any])
            let id = try #require(body["id"] as? String)
            #expect(asset["mediaType"] as? String == "video")
            #expect(abs((asset["duration"] as? Double ?? 0) - 2) < 0.1)
            #expect(asset["width"] as? Int == 240 && asset["height"] as? Int == 320, "the displayed size: \(asset)")

            let poster = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=256x256")
            #expect(poster.status == .ok)
            #expect(poster.headers[.contentType] == "image/jpeg")
            #expect(Array(Data(buffer: poster.body).prefix(2)) == [0xFF, 0xD8])

            let resources = try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)/resources"))
            let list = try #require(resources["resources"] as? [[String: Any]])
            #expect(list.map { $0["type"] as? String } == ["video"])
            #expect(list.first?["mimeType"] as? String == "video/quicktime")
            let part = try await owner.request(.get, "/api/v1/assets/\(id)/resources/video", headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(Data(buffer: part.body) == bytes[100..<200])
            #expect(part.headers[.contentType] == "video/quicktime")

            let videos = try Self.object(try await owner.request(.get, "/api/v1/assets?mediaType=video"))
            #expect(videos["total"] as? Int == 1)
            let photos = try Self.object(try await owner.request(.get, "/api/v1/assets?mediaType=image"))
            #expect(photos["total"] as? Int == 0)

            // The same clip again is a duplicate.
            let again = try await owner.upload(bytes, filename: "copy.mov")
            #expect(again.status == .ok)
            #expect(try Self.object(again)["status"] as? String == "duplicate")
        }
    }

    @Test("a damaged clip is refused with a clear message and nothing is stored")
    func damaged() async throws {
        let folder = TestVideos.folder()
        let path = try TestVideos.clip("whole.mp4", in: folder, pattern: 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let server = TestServer()
        try await server.withOwner { owner in
            let response = try await owner.upload(bytes.prefix(bytes.count / 2), filename: "cut.mp4")
            #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
            let body = try Self.object(response)
            #expect(body["message"] as? String == "The file is incomplete or damaged.", "\(body)")
            #expect((body["detail"] as? String)?.contains("incomplete") == true, "\(body)")
            // The detail names the file as the client named it, never the server's temporary file.
            let detail = body["detail"] as? String ?? ""
            #expect(detail.hasPrefix("cut.mp4: ") && !detail.contains("/") && !detail.contains(".upload"), "\(detail)")
            #expect(server.storedFiles().isEmpty)
            #expect((try Self.object(try await owner.request(.get, "/api/v1/assets")))["total"] as? Int == 0)
        }
    }

    @Test("a photo is held to the photo limit and a video to the video limit, judged by the first bytes as they arrive")
    func limits() async throws {
        let folder = TestVideos.folder()
        let clip = try Data(contentsOf: URL(fileURLWithPath: try TestVideos.clip("limits.mp4", in: folder, pattern: 2)))
        let photo = TestImages.jpeg(3, width: 400, height: 300)
        let server = TestServer {
            $0.maximumUploadBytes = 4000
            $0.maximumVideoUploadBytes = clip.count + 10
        }
        try await server.withOwner { owner in
            #expect(photo.count > 4000)
            let big = try await owner.upload(photo)
            #expect(big.status == .contentTooLarge, "a photo past the photo limit")
            #expect(String(buffer: big.body).contains("for a photo"))
            let video = try await owner.upload(clip, filename: "clip.mp4")
            #expect(video.status == .created, "a video under the video limit: \(String(buffer: video.body))")
            let padded = try await owner.upload(clip + Data(count: 100), filename: "padded.mp4")
            #expect(padded.status == .contentTooLarge)
            let text = try await owner.upload(Data(repeating: 0x41, count: 10_000), filename: "notes.txt")
            #expect(text.status == .unsupportedMediaType)
            #expect(String(buffer: text.body).contains("videos"))
        }
    }

    @Test("a Live Photo's movie joins its still, and the still joins its movie, through uploads: one asset with both files")
    func livePhoto() async throws {
        let folder = TestVideos.folder()
        let movie = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0200.MOV", in: folder, keys: ["com.apple.quicktime.content.identifier": Self.identifier], pattern: 3)))
        let still = TestVideos.liveStill(identifier: Self.identifier, jpeg: TestImages.jpeg(31, width: 64, height: 48))
        try await TestServer().withOwner { owner in
            let first = try Self.object(try await owner.upload(movie, filename: "IMG_0200.MOV"))
            #expect(first["status"] as? String == "created")
            let second = try await owner.upload(still, filename: "Sunset.jpg")
            #expect(second.status == .created, "\(String(buffer: second.body))")
            let body = try Self.object(second)
            #expect(body["status"] as? String == "paired")
            let asset = try #require(body["asset"] as? [String: Any])
            #expect(asset["id"] as? String == first["id"] as? String, "the movie's asset became the Live Photo")
            #expect((asset["mediaSubtypes"] as? [String])?.contains("photoLive") == true)
            #expect(asset["mediaType"] as? String == "image")
            let id = try #require(asset["id"] as? String)
            let list = try #require(
                (try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)/resources")))["resources"] as? [[String: Any]])
            #expect(list.map { $0["type"] as? String } == ["photo", "pairedVideo"])
            let page = try Self.object(try await owner.request(.get, "/api/v1/assets?live=true"))
            #expect(page["total"] as? Int == 1)
            #expect((try Self.object(try await owner.request(.get, "/api/v1/assets")))["total"] as? Int == 1)
        }
    }

    @Test("a limited credential's upload never joins, reveals or changes a Live Photo part it may not see")
    func liveOutsideScope() async throws {
        let folder = TestVideos.folder()
        let movie = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0300.MOV", in: folder, keys: ["com.apple.quicktime.content.identifier": Self.identifier], pattern: 4)))
        let still = TestVideos.liveStill(identifier: Self.identifier, jpeg: TestImages.jpeg(41, width: 64, height: 48))
        try await TestServer().withOwner { owner in
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
            // The owner's still, in no album.
            let privateStill = try #require(try Self.object(try await owner.upload(still, filename: "private.jpg"))["id"] as? String)
            for level in ["read-write", "add-only"] {
                let credential = try await owner.token(level, albums: [album.id])
                let response = try await credential.upload(movie, filename: "IMG_0300.MOV")
                #expect(response.status == .created || response.status == .ok, "\(level): \(String(buffer: response.body))")
                #expect(!String(buffer: response.body).contains(privateStill), "\(level) learnt the private still's identifier")
                let resources = try #require(
                    (try Self.object(try await owner.request(.get, "/api/v1/assets/\(privateStill)/resources")))["resources"] as? [[String: Any]])
                #expect(resources.count == 1, "\(level) changed the private still: \(resources)")
                let inAlbum = try await owner.json(PageBody.self, .get, "/api/v1/assets?album=\(album.id)")
                #expect(!inAlbum.assets.contains { $0.id == privateStill }, "\(level) put the private still into its album")
            }
        }
    }

    @Test("an HEVC clip gets a playable H.264 version from the job queue; an H.264 clip plays as it is")
    func playable() async throws {
        let folder = TestVideos.folder()
        let hevc = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0400.MOV", in: folder, pattern: 5,
                    codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])))
        let h264 = try Data(contentsOf: URL(fileURLWithPath: try TestVideos.clip("clip.mp4", in: folder, pattern: 6)))
        try await TestServer { $0.jobPollInterval = .milliseconds(100) }.withOwnerAndServices { owner, services in
            let id = try #require(try Self.object(try await owner.upload(hevc, filename: "IMG_0400.MOV"))["id"] as? String)
            var response = try await owner.request(.get, "/api/v1/assets/\(id)/video")
            #expect(response.status == .accepted || response.status == .ok, "\(response.status)")
            let deadline = Date() + 120
            while response.status == .accepted, Date() < deadline {
                #expect(response.headers[.retryAfter] != nil)
                try await Task.sleep(for: .milliseconds(200))
                response = try await owner.request(.get, "/api/v1/assets/\(id)/video")
            }
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "video/mp4")
            let bytes = Data(buffer: response.body)
            // A failed check fails this test; it does not stop the process every other test runs in.
            #expect(String(decoding: bytes.prefix(8).dropFirst(4), as: UTF8.self) == "ftyp")
            #expect(bytes.range(of: Data("avc1".utf8)) != nil, "H.264")
            let moov = try #require(bytes.range(of: Data("moov".utf8)), "a moov box")
            let mdat = try #require(bytes.range(of: Data("mdat".utf8)), "an mdat box")
            #expect(moov.lowerBound < mdat.lowerBound, "index first")
            let part = try await owner.request(.get, "/api/v1/assets/\(id)/video", headers: [.range: "bytes=0-99"])
            #expect(part.status == .partialContent && part.body.readableBytes == 100)
            let list = try #require(
                (try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)/resources")))["resources"] as? [[String: Any]])
            #expect(list.map { $0["type"] as? String } == ["video", "fullSizeVideo"])
            // The playable version's job is done; the faces of the video's poster are found just after.
            #expect(try await VideoJobTests.eventually(within: 60) { try services.jobs.counts().waiting == 0 })
            let metrics = String(buffer: try await owner.request(.get, "/metrics").body)
            #expect(metrics.contains("sepia_jobs_total{kind=\"playableVideo\",outcome=\"done\"} 1"), "\(metrics)")

            // H.264 in MP4 plays as it is: the original is served.
            let plain = try #require(try Self.object(try await owner.upload(h264, filename: "clip.mp4"))["id"] as? String)
            let original = try await owner.request(.get, "/api/v1/assets/\(plain)/video")
            #expect(original.status == .ok)
            #expect(Data(buffer: original.body) == h264)
            // A photo has no motion.
            let photo = try await owner.uploadNew(51)
            #expect(try await owner.request(.get, "/api/v1/assets/\(photo)/video").status == .notFound)
        }
    }

    @Test("a share link plays the video it shows, to anyone with the link, and only that one")
    func sharedVideo() async throws {
        let folder = TestVideos.folder()
        let hevc = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0410.MOV", in: folder, pattern: 7,
                    codec: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])))
        let h264 = try Data(contentsOf: URL(fileURLWithPath: try TestVideos.clip("shared.mp4", in: folder, pattern: 8)))
        try await TestServer { $0.jobPollInterval = .milliseconds(100) }.withOwner { owner in
            let video = try #require(try Self.object(try await owner.upload(hevc, filename: "IMG_0410.MOV"))["id"] as? String)
            let other = try #require(try Self.object(try await owner.upload(h264, filename: "shared.mp4"))["id"] as? String)
            let share = try Self.object(try await owner.request(.post, "/api/v1/shares", json: #"{"assetID": "\#(video)"}"#))
            let token = try #require((share["url"] as? String)?.split(separator: "/").last.map(String.init))
            let visitor = owner.anonymous

            let page = try Self.object(try await visitor.request(.get, "/api/v1/shared/\(token)"))
            let shown = try #require((page["assets"] as? [[String: Any]])?.first)
            #expect(shown["mediaType"] as? String == "video")
            #expect(abs((shown["duration"] as? Double ?? 0) - 2) < 0.1, "\(shown)")

            // HEVC: 202 while the playable version is made, then the H.264 MP4 with ranges.
            var response = try await visitor.request(.get, "/api/v1/shared/\(token)/assets/\(video)/video")
            let deadline = Date() + 120
            while response.status == .accepted, Date() < deadline {
                #expect(response.headers[.retryAfter] != nil)
                try await Task.sleep(for: .milliseconds(200))
                response = try await visitor.request(.get, "/api/v1/shared/\(token)/assets/\(video)/video")
            }
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "video/mp4")
            let part = try await visitor.request(.get, "/api/v1/shared/\(token)/assets/\(video)/video", headers: [.range: "bytes=0-9"])
            #expect(part.status == .partialContent && part.body.readableBytes == 10)

            // Not another video of the library, not the original, and nothing once revoked.
            #expect(try await visitor.request(.get, "/api/v1/shared/\(token)/assets/\(other)/video").status == .notFound)
            #expect(try await visitor.request(.get, "/api/v1/assets/\(video)/video").status == .unauthorized)
            #expect(try await visitor.request(.get, "/api/v1/assets/\(video)/original").status == .unauthorized)
            let shareID = try #require(share["id"] as? String)
            #expect(try await owner.request(.delete, "/api/v1/shares/\(shareID)").status == .noContent)
            #expect(try await visitor.request(.get, "/api/v1/shared/\(token)/assets/\(video)/video").status == .notFound)
        }
    }
}

/// The early refusal of an upload by what its head declares, with a raw socket: in the live stage of `scripts/test`
/// (run one suite at a time), since on a machine busy with the parallel suites the answer can come after the test
/// client's read timeout.
@Suite("An upload refused by its declared length")
struct DeclaredUploadLengthTests {
    @Test("a photo declaring a Content-Length past the photo limit is refused with 413 on its first bytes, and the connection closed")
    func declaredLengthPastPhotoLimit() async throws {
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let uploader = try #require(try await owner.token("add-only").bearer)
            // An add-only token declares a 300 MiB photo (under the video limit, over the photo limit of 256 MiB)
            // and sends only its first kilobyte.
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let head =
                "POST /api/v1/assets?filename=big.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(uploader)\r\n"
                + "Content-Type: image/jpeg\r\nContent-Length: \(300 << 20)\r\n\r\n"
            try connection.send(Data(head.utf8) + TestImages.jpeg(9, width: 256, height: 256).prefix(1024))
            // The answer comes without the rest of the body, and the server closes the connection.
            let closed = try #require(connection.waitForClose(within: 20), "the server waited for the 300 MiB body")
            let answer = String(decoding: closed.received, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            #expect(answer.contains("for a photo"), "\(answer)")
            #expect((try VideoUploadTests.object(try await owner.request(.get, "/api/v1/assets")))["total"] as? Int == 0)
        }
    }
}
