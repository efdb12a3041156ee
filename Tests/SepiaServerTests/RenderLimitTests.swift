import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import Synchronization
import Testing

@testable import SepiaImage
@testable import SepiaLibrary
@testable import SepiaServer

#if canImport(Glibc)
import Glibc
#endif

/// The costs of renders and how many run at once, tried as the outside review's attacks were, with a read
/// token or a share link: a preview of the largest blur the API allows, presets of 64 huge blurs, a client that
/// leaves while its preview renders, and dozens of connections asking for renditions that are not cached.
@Suite("Render costs and admission")
struct RenderLimitTests {
    /// A 2272 × 1704 photo, made here, as the review's.
    static let photo = TestImages.jpeg(34, width: 2272, height: 1704)
    /// A smaller one, for the attacks whose cost does not depend on the photo's size (the blur's reach scales with
    /// it; renditions are as many whatever it is), so that they run quickly in a debug build on a busy machine.
    static let smallPhoto = TestImages.jpeg(35, width: 568, height: 426)

    static func recipe(_ steps: [String]) -> String {
        #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [\#(steps.joined(separator: ", "))]}"#
    }

    static func blur(_ radius: Double) -> String {
        #"{"filter": "CIGaussianBlur", "parameters": {"inputRadius": \#(radius)}}"#
    }

    /// The value of a metric line (`name` with its labels, as exposed), or nil when absent.
    static func metric(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    static func metrics(_ client: Client) async throws -> String {
        String(buffer: try await client.anonymous.request(.get, "/metrics").body)
    }

    /// Polls `/metrics` until `condition` holds, for at most `limit`; the last text read.
    static func waitForMetrics(
        _ client: Client, within limit: Duration = .seconds(60), until condition: (String) -> Bool
    ) async throws -> (met: Bool, text: String) {
        let deadline = ContinuousClock.now + limit
        var text = ""
        while ContinuousClock.now < deadline {
            text = try await metrics(client)
            if condition(text) { return (true, text) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (false, text)
    }

    /// A render context for one test's server alone. Test servers share one (``TestServer/renderContext``), on
    /// which the renders of every test running at the same time are counted: ``enginePeak(of:during:)`` must count
    /// its server's only (two attacks of this suite at once counted 4 where each kept to 2).
    static func ownRenderContext() -> RenderContext {
        RenderContext(options: RenderOptions(threadCount: 2))
    }

    /// The most renders the engine ran at once while `attack` ran, counted on the server's render context (not
    /// by the admission it checks), after the renders already there (an upload's) have ended. The server needs a
    /// context of its own (``ownRenderContext()``).
    static func enginePeak<T: Sendable>(of services: ServerServices, during attack: () async throws -> T) async throws -> (T, Int) {
        let context = services.libraries.renderContext
        // The upload's own renditions come from the job queue, which the admission does not count: the attack starts
        // once that queue has done them and the engine is idle.
        for _ in 0..<600 where try services.jobs.counts().waiting > 0 || context.queuedJobCount > 0 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let peak = Mutex(0)
        let sampler = Task {
            while !Task.isCancelled {
                let count = context.queuedJobCount
                peak.withLock { $0 = max($0, count) }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        let result = try await attack()
        sampler.cancel()
        _ = await sampler.result
        return (result, peak.withLock { $0 })
    }

    /// A rendition of its own for each index below 96: a box of another bucket, ratio or format, stretched.
    static func uncachedRendition(_ index: Int) -> String {
        let bucket = [1024, 1440, 2048][index % 3]
        let height = bucket * ((index / 3) % 16 + 1) / 16
        return "size=\(bucket)x\(height)&mode=stretch&format=\(index / 48 % 2 == 0 ? "jpeg" : "webp")"
    }

    static func upload(_ owner: Client, _ data: Data = photo) async throws -> String {
        let response = try await owner.upload(data, filename: "photo.jpg")
        #expect(response.status == .created, "upload: \(String(buffer: response.body))")
        return try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id
    }

    @Test("a read token's preview of the largest blur the API allows (twice the photo's long side) is refused with 422 naming the step")
    func largestBlurPreviewRefused() async throws {
        let (app, token, _) = try TestServer().buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner, Self.smallPhoto)
            let body = #"{"recipe": \#(Self.recipe([Self.blur(1136)]))}"#
            let response = try await reader.request(.post, "/api/v1/assets/\(id)/preview", json: body)
            let message = String(buffer: response.body)
            #expect(response.status == .unprocessableContent, "\(message)")
            #expect(message.contains("step 1 (CIGaussianBlur)") && message.contains("lower its inputRadius from 1136 to at most"), "\(message)")
            let text = try await Self.metrics(owner)
            #expect(Self.metric(text, #"sepia_renders_refused_total{reason="cost"}"#) == 1, "\(text)")
            #expect(Self.metric(text, "sepia_renders_in_flight") == 0)
        }
    }

    @Test("a preset of 64 blurs of radius 1 000 000 is refused with 422 naming the step; nothing is saved")
    func costlyPresetRefused() async throws {
        try await TestServer().withOwner { owner in
            let body = #"{"name": "Fog", "recipe": \#(Self.recipe(Array(repeating: Self.blur(1_000_000), count: 64)))}"#
            let response = try await owner.request(.post, "/api/v1/presets", json: body)
            let message = String(buffer: response.body)
            #expect(response.status == .unprocessableContent, "\(message)")
            #expect(message.contains("CIGaussianBlur") && message.contains("pixel operations"), "\(message)")
            #expect(try await owner.json(PresetRoutesTests.PresetList.self, .get, "/api/v1/presets").presets.isEmpty)
            // One blur of a radius a photo can use is a preset like any other.
            let fine = #"{"name": "Soft", "recipe": \#(Self.recipe([Self.blur(20)]))}"#
            #expect(try await owner.request(.post, "/api/v1/presets", json: fine).status == .created)
        }
    }

    @Test("the preset strip with a preset too costly to show (kept from before the limit) is refused with 422 naming the preset")
    func costlyPresetStripRefused() async throws {
        let (app, token, services) = try TestServer().buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner)
            // Stored as an older server stored it, without the check.
            let recipe = EditRecipe(
                steps: Array(repeating: EditRecipe.Step(filter: "CIGaussianBlur", parameters: ["inputRadius": .number(1_000_000)]), count: 64))
            let library = try services.libraries.openOwnerLibrary().library
            _ = try library.store.savePreset(try EditPreset(name: "Fog", recipe: recipe, date: Date()), replacing: false)
            let response = try await reader.request(.get, "/api/v1/assets/\(id)/preset-strip?size=32")
            let message = String(buffer: response.body)
            #expect(response.status == .unprocessableContent, "\(message)")
            #expect(message.contains("the preset 'Fog'") && message.contains("CIGaussianBlur"), "\(message)")
        }
    }

    @Test("a preview whose client leaves while it renders stops: the render is cancelled and no render stays in flight")
    func previewStopsWhenClientLeaves() async throws {
        // No cost limit: a render that would run for many minutes, to see it stop.
        let (app, token, _) = try TestServer { $0.renderCostLimit = .unlimited }.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner)
            let body = Data(#"{"recipe": \#(Self.recipe(Array(repeating: Self.blur(4000), count: 8)))}"#.utf8)
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let head =
                "POST /api/v1/assets/\(id)/preview HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(try #require(reader.bearer))\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            try connection.send(Data(head.utf8) + body)
            let started = try await Self.waitForMetrics(owner) { Self.metric($0, "sepia_renders_in_flight") == 1 }
            #expect(started.met, "the preview never started rendering: \(started.text)")
            try await Task.sleep(for: .seconds(1))
            // The client gives up: its side of the connection closes.
            shutdown(connection.fd, Int32(SHUT_RDWR))
            let stopped = try await Self.waitForMetrics(owner) { text in
                Self.metric(text, "sepia_renders_in_flight") == 0 && Self.metric(text, "sepia_renders_cancelled_total") == 1
            }
            #expect(stopped.met, "the render went on after its client left: \(stopped.text)")
        }
    }

    @Test(
        "a rendition two clients wait for goes on for the one that stays when the other leaves, and stops (nothing is kept) when both have left"
    )
    func sharedRenditionStopsWithItsLastClient() async throws {
        let (app, token, services) = try TestServer().buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            // Large enough that its full-size rendition takes a while in a debug build.
            let id = try await Self.upload(owner, TestImages.jpeg(36, width: 4000, height: 3000))
            let library = try services.libraries.openOwnerLibrary()
            let asset = try library.library.asset(id)
            let port = try #require(client.port)
            let bearer = try #require(reader.bearer)
            func ask(_ size: String) throws -> RawHTTP.Connection {
                let connection = try RawHTTP(port: port).open()
                let path = "/api/v1/assets/\(id)/image?size=\(size)&mode=stretch"
                try connection.send(Data("GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(bearer)\r\n\r\n".utf8))
                return connection
            }
            func key(_ size: String) throws -> RenditionKey {
                let wanted = try RenditionRequest(size: size, mode: "stretch", format: nil)
                    .bounded(by: IntSize(width: asset.pixelWidth, height: asset.pixelHeight))
                return RenditionKey(assetID: asset.id, version: asset.contentVersion, size: wanted.size, mode: wanted.mode, format: wanted.format)
            }
            let shared = library.images.renditionsInFlight

            // One of two clients leaves: the other still gets the rendition.
            let whole = try key("4000x3000")
            let (stays, leaves) = (try ask("4000x3000"), try ask("4000x3000"))
            let joined = try await Self.waitForMetrics(owner) { _ in shared.waiters(for: whole) == 2 }
            #expect(joined.met, "the two requests never shared one rendition")
            shutdown(leaves.fd, Int32(SHUT_RDWR))
            let answer = try #require(stays.answers(1).first)
            #expect(answer.status == 200, "\(answer.status)")

            // Both leave: the rendition stops, and nothing is kept.
            let wanted = try key("4000x2250")
            let both = [try ask("4000x2250"), try ask("4000x2250")]
            let started = try await Self.waitForMetrics(owner) { _ in shared.waiters(for: wanted) == 2 }
            #expect(started.met, "the two requests never shared one rendition")
            for connection in both { shutdown(connection.fd, Int32(SHUT_RDWR)) }
            let stopped = try await Self.waitForMetrics(owner, within: .seconds(300)) { _ in shared.running == 0 }
            #expect(stopped.met, "the rendition went on after both clients left")
            let kept = await library.images.cachedImage(
                for: asset, targetSize: wanted.size, contentMode: .scaleToFill,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact, format: .jpeg))
            #expect(kept == nil, "the rendition was finished and kept although nobody waited for it")
            let text = try await Self.metrics(owner)
            #expect(Self.metric(text, "sepia_renders_in_flight") == 0, "\(text)")
        }
    }

    @Test(
        "64 connections asking a read token's uncached renditions at once: renders in flight never pass the bound, the excess waits, then gets 503 with Retry-After"
    )
    func concurrentRenditionsBounded() async throws {
        let (app, token, services) = try TestServer { configuration in
            configuration.maximumRenders = 2
            configuration.maximumRendersPerUser = 2
            configuration.renderQueueLength = 32
            configuration.renderQueueTimeout = .seconds(2)
            configuration.renderContext = Self.ownRenderContext()
        }.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner, Self.smallPhoto)
            let port = try #require(client.port)
            let bearer = try #require(reader.bearer)
            let (responses, enginePeak) = try await Self.enginePeak(of: services) {
                try await RawHTTP.concurrently(64) { index in
                    try RawHTTP(port: port).request(
                        "GET", "/api/v1/assets/\(id)/image?\(Self.uncachedRendition(index))", headers: ["Authorization": "Bearer \(bearer)"])
                }
            }
            let statuses = responses.map(\.status)
            #expect(services.renders.peakInFlight <= 2, "peak \(services.renders.peakInFlight)")
            #expect(enginePeak <= 2, "the engine ran \(enginePeak) renders at once")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count >= 2, "\(statuses)")
            let refused = responses.filter { $0.status == 503 }
            #expect(!refused.isEmpty, "\(statuses)")
            for response in refused {
                #expect(Int(response.headers["retry-after"] ?? "") ?? 0 >= 1)
                #expect(String(decoding: response.body, as: UTF8.self).contains("rendering as much as it may"))
            }
            // Every response is in; a render's slot is given back when its task ends, which on a loaded machine was
            // once a moment after the last response arrived (in flight: 1). The admission must be empty soon after.
            let (settled, text) = try await Self.waitForMetrics(owner, within: .seconds(30)) {
                Self.metric($0, "sepia_renders_in_flight") == 0 && Self.metric($0, "sepia_renders_queued") == 0
            }
            #expect(settled, "renders were left in flight or queued after every response: \(text)")
            let queueFull = Self.metric(text, #"sepia_renders_refused_total{reason="queue_full"}"#) ?? 0
            let timedOut = Self.metric(text, #"sepia_renders_refused_total{reason="queue_timeout"}"#) ?? 0
            #expect(Int(queueFull + timedOut) == refused.count, "\(text)")
        }
    }

    @Test("a grid of 96 thumbnails not seen before, asked at once by one account (a browser over HTTP/2): all answered, 2 at a time")
    func gridOfThumbnailsAnswered() async throws {
        let (app, token, services) = try TestServer().buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner, Self.smallPhoto)
            let port = try #require(client.port)
            let bearer = try #require(reader.bearer)
            // Squares of 100 to 195 pixels, each a render of its own from the stored thumbnail.
            let statuses = try await RawHTTP.concurrently(96) { index in
                try RawHTTP(port: port).request(
                    "GET", "/api/v1/assets/\(id)/image?size=\(100 + index)x\(100 + index)&mode=fill", headers: ["Authorization": "Bearer \(bearer)"]
                ).status
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(services.renders.peakInFlight <= 2, "peak \(services.renders.peakInFlight)")
        }
    }

    @Test("64 connections of a share link's visitor: the link's renders are bounded like an account's")
    func shareLinkRenditionsBounded() async throws {
        let (app, token, services) = try TestServer { configuration in
            configuration.maximumRenders = 4
            configuration.maximumRendersPerUser = 2
            configuration.renderQueueLength = 32
            configuration.renderQueueTimeout = .seconds(2)
            configuration.renderContext = Self.ownRenderContext()
        }.buildWithServices()
        try await app.test(.live) { client in
            struct Share: Decodable { var url: String }
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let id = try await Self.upload(owner, Self.smallPhoto)
            let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(id)"}"#, expect: .created)
            let link = String(share.url.split(separator: "/").last ?? "")
            let port = try #require(client.port)
            let (statuses, enginePeak) = try await Self.enginePeak(of: services) {
                try await RawHTTP.concurrently(64) { index in
                    try RawHTTP(port: port).request("GET", "/api/v1/shared/\(link)/assets/\(id)/image?\(Self.uncachedRendition(index))").status
                }
            }
            #expect(services.renders.peakInFlight <= 2, "peak \(services.renders.peakInFlight)")
            #expect(enginePeak <= 2, "the engine ran \(enginePeak) renders at once")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.contains(200) && statuses.contains(503), "\(statuses)")
        }
    }
}
