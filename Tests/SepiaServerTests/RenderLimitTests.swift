import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaImage
import Testing

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
        "64 connections asking a read token's uncached renditions at once: renders in flight never pass the bound, the excess waits, then gets 503 with Retry-After"
    )
    func concurrentRenditionsBounded() async throws {
        let (app, token, services) = try TestServer { configuration in
            configuration.maximumRenders = 2
            configuration.maximumRendersPerUser = 2
            configuration.renderQueueLength = 32
            configuration.renderQueueTimeout = .seconds(2)
        }.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let reader = try await owner.token("read")
            let id = try await Self.upload(owner, Self.smallPhoto)
            let port = try #require(client.port)
            let bearer = try #require(reader.bearer)
            let responses = try await RawHTTP.concurrently(64) { index in
                try RawHTTP(port: port).request(
                    "GET", "/api/v1/assets/\(id)/image?\(Self.uncachedRendition(index))", headers: ["Authorization": "Bearer \(bearer)"])
            }
            let statuses = responses.map(\.status)
            #expect(services.renders.peakInFlight <= 2, "peak \(services.renders.peakInFlight)")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count >= 2, "\(statuses)")
            let refused = responses.filter { $0.status == 503 }
            #expect(!refused.isEmpty, "\(statuses)")
            for response in refused {
                #expect(Int(response.headers["retry-after"] ?? "") ?? 0 >= 1)
                #expect(String(decoding: response.body, as: UTF8.self).contains("rendering as much as it may"))
            }
            let text = try await Self.metrics(owner)
            #expect(Self.metric(text, "sepia_renders_in_flight") == 0)
            #expect(Self.metric(text, "sepia_renders_queued") == 0)
            let queueFull = Self.metric(text, #"sepia_renders_refused_total{reason="queue_full"}"#) ?? 0
            let timedOut = Self.metric(text, #"sepia_renders_refused_total{reason="queue_timeout"}"#) ?? 0
            #expect(Int(queueFull + timedOut) == refused.count, "\(text)")
        }
    }

    @Test("64 connections of a share link's visitor: the link's renders are bounded like an account's")
    func shareLinkRenditionsBounded() async throws {
        let (app, token, services) = try TestServer { configuration in
            configuration.maximumRenders = 4
            configuration.maximumRendersPerUser = 2
            configuration.renderQueueTimeout = .seconds(2)
        }.buildWithServices()
        try await app.test(.live) { client in
            struct Share: Decodable { var url: String }
            let owner = try await Client.createOwner(client, setupToken: try #require(token))
            let id = try await Self.upload(owner, Self.smallPhoto)
            let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(id)"}"#, expect: .created)
            let link = String(share.url.split(separator: "/").last ?? "")
            let port = try #require(client.port)
            let statuses = try await RawHTTP.concurrently(64) { index in
                try RawHTTP(port: port).request("GET", "/api/v1/shared/\(link)/assets/\(id)/image?\(Self.uncachedRendition(index))").status
            }
            #expect(services.renders.peakInFlight <= 2, "peak \(services.renders.peakInFlight)")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.contains(200) && statuses.contains(503), "\(statuses)")
        }
    }
}
