import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

/// The connection's deadlines and the per-address limit, tried with raw sockets as a slow or greedy client
/// would: a head sent a byte at a time, a silent connection, an idle one, a stalled body, too many connections.
@Suite("Connection deadlines and limits")
struct ConnectionLimitTests {
    static func server(_ adjust: @escaping (inout ServerConfiguration) -> Void = { _ in }) -> TestServer {
        // Through AsyncHTTPClient, which opens a new connection when the server has closed an idle one.
        TestServer { configuration in
            configuration.headerTimeout = .seconds(1)
            configuration.idleTimeout = .milliseconds(1500)
            configuration.bodyTimeout = .seconds(1)
            configuration.sendTimeout = .seconds(2)
            adjust(&configuration)
        }
    }

    @Test("a head sent one byte every 250 ms is cut off at the header timeout, with 408, however steadily it trickles")
    func slowHead() async throws {
        let (app, _) = try await Self.server().build()
        try await app.test(.ahc(.http)) { client in
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let start = Date()
            let head = Array("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".utf8)
            var closedAt: TimeInterval?
            for byte in head + Array(repeating: UInt8(ascii: "a"), count: 40) {
                do {
                    try connection.send(Data([byte]))
                } catch {
                    closedAt = Date().timeIntervalSince(start)
                    break
                }
                if let closed = connection.waitForClose(within: 0.25) {
                    closedAt = Date().timeIntervalSince(start)
                    #expect(String(decoding: closed.received, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
                    break
                }
            }
            let seconds = try #require(closedAt, "the connection stayed open for 10 s of trickling")
            #expect(seconds >= 0.9 && seconds < 2.5, "closed after \(seconds) s")
        }
    }

    @Test("a connection that sends nothing is closed after the header timeout")
    func silentConnection() async throws {
        let (app, _) = try await Self.server().build()
        try await app.test(.ahc(.http)) { client in
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let closed = try #require(connection.waitForClose(within: 5), "a silent connection stayed open for 5 s")
            #expect(closed.seconds >= 0.9 && closed.seconds < 2.5, "closed after \(closed.seconds) s")
        }
    }

    @Test("a kept-alive connection stays open while used and is closed once idle for the idle timeout")
    func idleConnection() async throws {
        let (app, token) = try await Self.server().build()
        try await app.test(.ahc(.http)) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(1)
            let asset = try await reader.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let image =
                "GET /api/v1/assets/\(id)/image?size=64&v=\(asset.version) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(reader.bearer!)\r\n\r\n"
            let health = "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
            let connection = try RawHTTP(port: try #require(client.port)).open()
            // Used every 0.6 s for 4 s (longer than both timeouts), by the application and by early answers.
            for round in 0..<7 {
                try connection.send(Data((round.isMultiple(of: 2) ? health : image).utf8))
                #expect(try connection.answers(1).first?.status == 200)
                #expect(connection.waitForClose(within: 0.6) == nil, "closed while in use, in round \(round)")
            }
            let closed = try #require(connection.waitForClose(within: 5), "an idle connection stayed open for 5 s")
            #expect(closed.seconds > 0.6 && closed.seconds < 2.5, "closed after \(closed.seconds) s idle")
            #expect(closed.received.isEmpty, "an idle connection is closed without an answer")
        }
    }

    @Test("a body that stalls is cut off at the body timeout, and the upload leaves nothing behind")
    func stalledBody() async throws {
        let server = Self.server()
        let (app, token) = try await server.build()
        try await app.test(.ahc(.http)) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let writer = try await owner.token("read-write")
            let connection = try RawHTTP(port: try #require(client.port)).open()
            let photo = TestImages.jpeg(3, width: 256, height: 256)
            try connection.send(
                Data(
                    ("POST /api/v1/assets?filename=slow.jpg HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(writer.bearer!)\r\n"
                        + "Content-Length: \(photo.count)\r\n\r\n").utf8))
            try connection.send(photo.prefix(100))
            let closed = try #require(connection.waitForClose(within: 5), "a stalled body kept the connection for 5 s")
            #expect(closed.seconds >= 0.9 && closed.seconds < 2.5, "closed after \(closed.seconds) s")
            try await Task.sleep(for: .milliseconds(300))
            #expect(server.storedFiles().isEmpty)
        }
    }

    @Test("a change stream outlives the idle timeout: the application is answering")
    func longAnswer() async throws {
        let (app, token) = try await Self.server().build()
        try await app.test(.ahc(.http)) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let stream = try EventStreamClient(
                port: try #require(client.port), path: "/api/v1/changes", headers: ["Cookie": "sepia_session=" + owner.cookie!])
            defer { stream.close() }
            _ = try #require(await stream.next { $0.event == "ready" })
            try await Task.sleep(for: .seconds(3))
            #expect(await stream.next(timeout: .seconds(2)) { $0.event == "comment" } != nil, "the stream still beats after 3 s")
        }
    }

    @Test("one address may hold a limited number of connections; the next is answered 503 and closed; a closed one frees its place")
    func connectionsPerAddress() async throws {
        let (app, _) = try await Self.server {
            $0.maximumConnectionsPerAddress = 4
            $0.headerTimeout = .seconds(30)
        }.build()
        try await app.test(.ahc(.http)) { client in
            let http = RawHTTP(port: try #require(client.port))
            var held = try (0..<4).map { _ in try http.open() }
            try await Task.sleep(for: .milliseconds(200))
            let refused = try http.open()
            let answer = try #require(refused.waitForClose(within: 5), "the fifth connection was kept")
            let text = String(decoding: answer.received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text)")
            #expect(text.contains("connections open"))
            held.removeLast()
            try await Task.sleep(for: .milliseconds(300))
            let admitted = try http.open()
            try admitted.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            #expect(try admitted.answers(1).first?.status == 200)
            _ = held
        }
    }

    @Test("trusted proxies are not limited")
    func proxiesAreNotLimited() async throws {
        let (app, _) = try await Self.server {
            $0.maximumConnectionsPerAddress = 2
            $0.trustedProxies = ["127.0.0.1"]
            $0.headerTimeout = .seconds(30)
        }.build()
        try await app.test(.ahc(.http)) { client in
            let http = RawHTTP(port: try #require(client.port))
            let connections = try (0..<6).map { _ in try http.open() }
            for connection in connections {
                try connection.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                let got = try connection.answers(1).first
                #expect(got?.status == 200, "\(String(describing: got))")
            }
        }
    }
}
