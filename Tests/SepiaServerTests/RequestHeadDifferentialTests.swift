import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import SepiaServer

/// The early answers' request-head parser against NIO's (llhttp), on generated heads with the variations
/// that make HTTP parsers disagree: wherever ours finds a complete head, NIO's must find the same request,
/// the same body length and the next request right after it.
@Suite("Request heads: the strict parser agrees with NIO's")
struct RequestHeadDifferentialTests {
    /// A small deterministic generator (SplitMix64), so that a failure is reproducible.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Each part of a head: the forms every client sends, and odd ones, taken one time in six.
    static let methods = (["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"], ["get", "G ET", "CONNECT", "GETX", "PROPFIND", "TRACE"])
    static let targets = (["/", "/api/v1/assets/x/image?size=256&v=3", "/a%20b", "*"], ["/a b", "/\u{7F}", "/caf\u{E9}", ""])
    static let versions = (["HTTP/1.1", "HTTP/1.0"], ["HTTP/1.2", "HTTP/2.0", "http/1.1", "HTTP/1.1 "])
    static let headerLines = (
        [
            "Host: localhost", "host:localhost", "Authorization: Bearer sepia_abc", "Cookie: a=1; sepia_session=x", "If-None-Match: \"t\"",
            "Connection: keep-alive", "Connection: close", "X-Tab:\tvalue\t", "X-Empty:", "Content-Length: 5", "Content-Length: 0",
            "content-length:  12 ", "Content-Length: 007", "Expect: 100-continue", "X-Long: " + String(repeating: "v", count: 300),
        ],
        [
            "Content-Length: 5, 5", "Content-Length: -1", "Content-Length: 1x", "Content-Length: 99999999999999999999",
            "Transfer-Encoding: chunked", "Upgrade: h2c", " folded", "\tfolded", "Name : value", ": value", "X-Bytes: caf\u{E9}",
            "X-CR: a\rb",
        ]
    )
    static let separators = (["\r\n"], ["\n", "\r", "\r\r\n"])

    static func pick(_ forms: ([String], [String]), _ random: inout Generator) -> String {
        Int.random(in: 0..<6, using: &random) == 0 ? forms.1.randomElement(using: &random)! : forms.0.randomElement(using: &random)!
    }

    /// A generated head (possibly malformed), ending with an empty line.
    static func generate(_ random: inout Generator) -> [UInt8] {
        var text = pick(methods, &random) + " " + pick(targets, &random) + " " + pick(versions, &random) + pick(separators, &random)
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            text += pick(headerLines, &random) + pick(separators, &random)
        }
        text += pick(separators, &random)
        return Array(text.utf8)
    }

    /// What NIO's parser makes of the bytes: the first request's method and target, its body's length and
    /// the target of the request after it (nil when it refused the bytes after the first request); nil when it
    /// found no first request.
    static func nioReading(_ bytes: [UInt8]) -> (method: String, uri: String, bodyLength: Int, nextURI: String?)? {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
        } catch {
            return nil
        }
        // An error after the first request still leaves the parts read before it.
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        var first: HTTPRequestHead?
        var bodyLength = 0
        var ended = false
        while let part = try? channel.readInbound(as: HTTPServerRequestPart.self) {
            switch part {
            case .head(let head):
                if ended { return first.map { ($0.method.rawValue, $0.uri, bodyLength, head.uri) } }
                first = head
            case .body(let body):
                bodyLength += body.readableBytes
            case .end:
                ended = true
            }
        }
        guard ended else { return nil }
        return first.map { ($0.method.rawValue, $0.uri, bodyLength, nil) }
    }

    @Test("20 000 generated heads: where ours completes a head, NIO's reads the same request, and the next one after it")
    func agreement() {
        var random = Generator(state: 2026)
        var taken = 0
        for _ in 0..<20_000 {
            let generated = Self.generate(&random)
            guard case .complete(let head) = RequestHead.scan(ByteBuffer(bytes: generated)) else { continue }
            taken += 1
            // The body the strict parser expects, then the next request.
            let bytes =
                generated + Array(repeating: UInt8(ascii: "b"), count: head.contentLength) + Array("GET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            guard let nio = Self.nioReading(bytes) else {
                Issue.record("NIO refused a head the strict parser took: \(text)")
                continue
            }
            #expect(nio.uri == head.target, "\(text)")
            #expect((nio.method == "GET") == head.isGet, "\(text)")
            #expect(nio.bodyLength == head.contentLength, "\(text)")
            // After a request that ends the connection, NIO's parser refuses more bytes; the early answers pass
            // everything on from there.
            if head.keepsAlive { #expect(nio.nextURI == "/next", "\(text)") }
            let rest = bytes[(head.length + head.contentLength)...]
            #expect(Array(rest.prefix(9)) == Array("GET /next".utf8), "\(text)")
        }
        // The generator must exercise both sides: many heads taken, many left to NIO.
        #expect(taken > 2000 && taken < 18_000, "taken: \(taken)")
    }
}
