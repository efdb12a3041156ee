import NIOCore
import Testing

@testable import SepiaServer

/// The strict request-head parser of the early answers: what it takes on, and what it leaves to NIO's parser.
@Suite("Request heads read before NIO's parser")
struct RequestHeadTests {
    static func scan(_ text: String, searched: Int = 0) -> RequestHead.Scan {
        RequestHead.scan(ByteBuffer(string: text), searched: searched)
    }

    static func head(_ text: String) -> RequestHead? {
        if case .complete(let head) = scan(text) { return head }
        return nil
    }

    static func isUnsupported(_ text: String) -> Bool {
        if case .unsupported = scan(text) { return true }
        return false
    }

    @Test("a plain head gives its length, target and the headers the early answer reads")
    func plain() throws {
        let text =
            "GET /api/v1/assets/x/image?size=256&v=3 HTTP/1.1\r\nHost: localhost\r\nauthorization:  Bearer abc \r\n"
            + "Cookie: a=1\r\nCOOKIE: sepia_session=s\r\nIf-None-Match: \"t\"\r\nConnection: keep-alive\r\n\r\nGET /next"
        let head = try #require(Self.head(text))
        #expect(head.length == text.utf8.count - "GET /next".utf8.count)
        #expect(head.isGet && head.isHTTP11 && !head.hasContentLength && head.contentLength == 0)
        #expect(head.target == "/api/v1/assets/x/image?size=256&v=3")
        #expect(head.authorization == "Bearer abc" && head.authorizationCount == 1)
        #expect(head.cookies == ["a=1", "sepia_session=s"])
        #expect(head.ifNoneMatch == "\"t\"" && head.connection == "keep-alive")
    }

    @Test("bodies are framed by Content-Length; other methods and HTTP/1.0 are read too")
    func framing() throws {
        let post = try #require(Self.head("POST /api/v1/albums HTTP/1.0\r\nContent-Length: 0012\r\n\r\n{\"title\":\"\"}"))
        #expect(!post.isGet && !post.isHTTP11 && post.hasContentLength && post.contentLength == 12)
        let head = try #require(Self.head("HEAD / HTTP/1.1\r\n\r\n"))
        #expect(!head.isGet && head.length == 19)
    }

    @Test("an incomplete head waits for more bytes, and the search resumes where it stopped")
    func incomplete() {
        let text = "GET / HTTP/1.1\r\nHost: localhost\r\n\r"
        guard case .incomplete = Self.scan(text) else {
            Issue.record("expected an incomplete head")
            return
        }
        guard case .complete(let head) = Self.scan(text + "\n", searched: text.utf8.count) else {
            Issue.record("expected a complete head when the search resumes")
            return
        }
        #expect(head.length == text.utf8.count + 1)
        #expect(Self.isUnsupported(String(repeating: "a", count: RequestHead.maximumLength + 1)))
    }

    @Test("forms NIO's parser may read differently are left to it")
    func unsupported() {
        let forms = [
            "GET / HTTP/1.1\nHost: x\r\n\r\n",  // a bare line feed
            "GET / HTTP/1.1\r\nHost: x\r\n continued\r\n\r\n",  // a folded line
            "GET / HTTP/1.1\r\nHost : x\r\n\r\n",  // space before the colon
            "GET / HTTP/1.1\r\nX-Name: caf\u{E9}\r\n\r\n",  // a byte outside ASCII
            "GET / HTTP/1.1\r\nX-Name: a\rb\r\n\r\n",  // a carriage return inside a value
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: +3\r\n\r\n",
            "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
            "GET / HTTP/1.1\r\nConnection: a\r\nConnection: b\r\n\r\n",
            "CONNECT example.com:443 HTTP/1.1\r\n\r\n",
            "get / HTTP/1.1\r\n\r\n",
            "GET / HTTP/2.0\r\n\r\n",
            "GET  / HTTP/1.1\r\n\r\n",
            "\r\nGET / HTTP/1.1\r\n\r\n",
        ]
        for form in forms { #expect(Self.isUnsupported(form), "\(form.debugDescription)") }
    }
}
