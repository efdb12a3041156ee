import NIOCore

/// An HTTP/1.1 request head as a deliberately strict parser reads it from the connection's bytes, for the
/// answers given before NIO's HTTP parser (``CachedRenditionHandler``): it accepts only the plain form
/// every browser and HTTP library sends, so that where it finds a head, a body and the next head, NIO's
/// parser finds the same. Anything else (`Transfer-Encoding`, `Upgrade`, a folded or non-ASCII header line,
/// a bare line feed, a repeated `Content-Length`) is ``Scan/unsupported``, and the connection's bytes then go
/// to NIO's parser alone.
struct RequestHead {
    /// How the parser left a buffer.
    enum Scan {
        /// The head is not complete yet.
        case incomplete
        /// A complete head.
        case complete(RequestHead)
        /// A head this parser does not take on.
        case unsupported
    }

    /// The longest head taken on (NIO's parser allows 80 KiB of header fields; longer ones go to it).
    static let maximumLength = 16 * 1024

    /// The head's length in bytes, with its final empty line.
    var length: Int
    /// Whether the method is `GET`.
    var isGet: Bool
    /// The request target, as sent.
    var target: String
    /// Whether the version is HTTP/1.1 (otherwise 1.0).
    var isHTTP11: Bool
    /// The body's length (zero without `Content-Length`).
    var contentLength: Int
    /// Whether `Content-Length` was given.
    var hasContentLength: Bool
    /// `Authorization`, when sent once; `authorizationCount` says how often it was sent.
    var authorization: String?
    var authorizationCount: Int
    /// Every `Cookie` header's value.
    var cookies: [String]
    /// `If-None-Match`, when sent once; `ifNoneMatchCount` says how often it was sent.
    var ifNoneMatch: String?
    var ifNoneMatchCount: Int
    /// `Connection`, when sent.
    var connection: String?
    /// Whether `Expect` was sent.
    var hasExpectation: Bool

    /// Whether the connection stays open after this request: HTTP/1.1 unless `Connection` says `close`,
    /// HTTP/1.0 only when it says `keep-alive`. In doubt, no.
    var keepsAlive: Bool {
        let connection = connection?.lowercased()
        if isHTTP11 { return !(connection?.contains("close") ?? false) }
        return connection?.contains("keep-alive") ?? false
    }

    /// Reads a head from the start of `buffer`'s readable bytes. `searched` bytes of them are known not to
    /// complete a head (they were scanned before, as an incomplete head); the search for its end resumes there,
    /// so that a head arriving a few bytes at a time costs linear time.
    static func scan(_ buffer: ByteBuffer, searched: Int = 0) -> Scan {
        buffer.withUnsafeReadableBytes { bytes in
            var parser = Parser(bytes: bytes)
            return parser.scan(searched: searched)
        }
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        static let cr = UInt8(ascii: "\r")
        static let lf = UInt8(ascii: "\n")
        static let space = UInt8(ascii: " ")
        static let tab = UInt8(ascii: "\t")

        /// The RFC 9110 token characters.
        static let tokenCharacters: [Bool] = (0..<256).map { byte in
            switch UInt8(byte) {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
            }
        }

        mutating func scan(searched: Int) -> Scan {
            // The end of the head: the first empty line. A line feed without its carriage return anywhere
            // before it is a form this parser leaves to NIO's.
            var end = -1
            var index = max(0, min(searched, bytes.count) - 3)
            while index < bytes.count {
                if bytes[index] == Self.lf {
                    guard index > 0, bytes[index - 1] == Self.cr else { return .unsupported }
                    if index >= 3, bytes[index - 2] == Self.lf {
                        end = index + 1
                        break
                    }
                }
                index += 1
            }
            guard end > 0 else { return bytes.count > RequestHead.maximumLength ? .unsupported : .incomplete }
            guard end <= RequestHead.maximumLength else { return .unsupported }
            return parse(length: end).map(Scan.complete) ?? .unsupported
        }

        /// Parses the head of `length` bytes, in which every line feed follows a carriage return.
        mutating func parse(length: Int) -> RequestHead? {
            // Request line: METHOD SP target SP HTTP/1.x CRLF, the method in capitals.
            let methodStart = position
            while position < length, bytes[position] >= UInt8(ascii: "A"), bytes[position] <= UInt8(ascii: "Z") { position += 1 }
            let methodLength = position - methodStart
            guard methodLength > 0, methodLength <= 16, position < length, bytes[position] == Self.space else { return nil }
            // The methods the server answers; others (and `CONNECT`, whose target is no path) are NIO's to refuse.
            let isGet = methodLength == 3 && matches("GET", at: methodStart)
            guard
                isGet || (methodLength == 4 && (matches("HEAD", at: methodStart) || matches("POST", at: methodStart)))
                    || (methodLength == 3 && matches("PUT", at: methodStart)) || (methodLength == 5 && matches("PATCH", at: methodStart))
                    || (methodLength == 6 && matches("DELETE", at: methodStart)) || (methodLength == 7 && matches("OPTIONS", at: methodStart))
            else { return nil }
            position += 1
            let targetStart = position
            while position < length, bytes[position] > 0x20, bytes[position] < 0x7F { position += 1 }
            guard position > targetStart, position < length, bytes[position] == Self.space else { return nil }
            let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<position]), as: UTF8.self)
            position += 1
            guard matches("HTTP/1.", at: position), position + 9 < length, bytes[position + 8] == Self.cr, bytes[position + 9] == Self.lf else {
                return nil
            }
            let minor = bytes[position + 7]
            guard minor == UInt8(ascii: "1") || minor == UInt8(ascii: "0") else { return nil }
            position += 10

            var head = RequestHead(
                length: length, isGet: isGet, target: target, isHTTP11: minor == UInt8(ascii: "1"), contentLength: 0, hasContentLength: false,
                authorization: nil, authorizationCount: 0, cookies: [], ifNoneMatch: nil, ifNoneMatchCount: 0, connection: nil,
                hasExpectation: false)
            // Header lines: name ":" OWS value OWS CRLF, the name a token, the value visible ASCII, spaces and tabs.
            while position < length - 2 {
                let nameStart = position
                while position < length, Self.tokenCharacters[Int(bytes[position])] { position += 1 }
                let nameEnd = position
                guard nameEnd > nameStart, position < length, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                while position < length, bytes[position] == Self.space || bytes[position] == Self.tab { position += 1 }
                let valueStart = position
                while position < length, bytes[position] != Self.cr {
                    let byte = bytes[position]
                    guard (byte >= 0x20 && byte < 0x7F) || byte == Self.tab else { return nil }
                    position += 1
                }
                var valueEnd = position
                while valueEnd > valueStart, bytes[valueEnd - 1] == Self.space || bytes[valueEnd - 1] == Self.tab { valueEnd -= 1 }
                guard position + 1 < length, bytes[position + 1] == Self.lf else { return nil }
                position += 2
                guard record(name: nameStart..<nameEnd, value: valueStart..<valueEnd, into: &head) else { return nil }
            }
            return head
        }

        /// Notes a header the early answer needs; false for a header that makes the head unsupported.
        func record(name: Range<Int>, value: Range<Int>, into head: inout RequestHead) -> Bool {
            func text() -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self) }
            switch name.count {
            case 6 where named("cookie", name):
                head.cookies.append(text())
            case 6 where named("expect", name):
                head.hasExpectation = true
            case 7 where named("upgrade", name):
                return false
            case 10 where named("connection", name):
                guard head.connection == nil else { return false }
                head.connection = text()
            case 13 where named("authorization", name):
                head.authorizationCount += 1
                head.authorization = text()
            case 13 where named("if-none-match", name):
                head.ifNoneMatchCount += 1
                head.ifNoneMatch = text()
            case 14 where named("content-length", name):
                guard !head.hasContentLength, value.count > 0, value.count <= 15 else { return false }
                var length = 0
                for index in value {
                    let byte = bytes[index]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
                    length = length * 10 + Int(byte - UInt8(ascii: "0"))
                }
                head.contentLength = length
                head.hasContentLength = true
            case 17 where named("transfer-encoding", name):
                return false
            default:
                break
            }
            return true
        }

        func matches(_ text: StaticString, at start: Int) -> Bool {
            guard start + text.utf8CodeUnitCount <= bytes.count else { return false }
            for offset in 0..<text.utf8CodeUnitCount where bytes[start + offset] != text.utf8Start[offset] { return false }
            return true
        }

        /// Whether the bytes in `range` are `lowercased`, ignoring ASCII case.
        func named(_ lowercased: StaticString, _ range: Range<Int>) -> Bool {
            for offset in 0..<range.count where bytes[range.lowerBound + offset] | 0x20 != lowercased.utf8Start[offset] { return false }
            return true
        }
    }
}
