import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client on a raw socket, for tests that need control over the bytes and their timing
/// (a slow upload, a client that hangs up half-way) or talk to a server in another process.
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int

    /// Opens a connection.
    func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, result == 0 else {
            if fd >= 0 { close(fd) }
            throw Failure(description: "cannot connect to port \(port): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends a request whose body goes out in `chunks` pieces `pause` apart, and reads the answer.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data(), chunks: Int = 1, pause: TimeInterval = 0,
        afterFirstChunk: () -> Void = {}
    ) throws -> Response {
        let fd = try connect()
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try send(fd, Data(head.utf8))
        let size = max(1, (body.count + chunks - 1) / max(1, chunks))
        var offset = 0
        var first = true
        while offset < body.count {
            let end = min(body.count, offset + size)
            try send(fd, body[offset..<end])
            offset = end
            if first {
                afterFirstChunk()
                first = false
            }
            if offset < body.count && pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
        if body.isEmpty { afterFirstChunk() }
        return try read(fd)
    }

    /// Sends the head and part of a body, then hangs up.
    func abandon(_ path: String, headers: [String: String], body: Data, sending count: Int) throws {
        let fd = try connect()
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try send(fd, Data(head.utf8))
        try send(fd, body.prefix(count))
        Thread.sleep(forTimeInterval: 0.2)
        close(fd)
    }

    /// Sends `pieces` on one connection, `pause` apart (so they arrive as separate reads), then reads `count`
    /// answers framed by their `Content-Length` (a `304` has no body).
    func exchange(_ pieces: [Data], pause: TimeInterval = 0.05, answers count: Int) throws -> [Response] {
        let connection = try open()
        for (index, piece) in pieces.enumerated() {
            try connection.send(piece)
            if index < pieces.count - 1 { Thread.sleep(forTimeInterval: pause) }
        }
        return try connection.answers(count)
    }

    /// Opens a connection kept for several exchanges.
    func open() throws -> Connection {
        Connection(fd: try connect())
    }

    /// A connection kept open: requests sent as bytes, answers read by their `Content-Length`.
    final class Connection {
        let fd: Int32
        private var data = Data()

        init(fd: Int32) {
            self.fd = fd
        }

        deinit { close(fd) }

        func send(_ bytes: Data) throws {
            try RawHTTP.send(fd, bytes)
        }

        func answers(_ count: Int) throws -> [Response] {
            var responses: [Response] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while responses.count < count {
                if let split = data.range(of: Data("\r\n\r\n".utf8)) {
                    let response = RawHTTP.parseHead(data[..<split.lowerBound])
                    let length = response.status == 304 ? 0 : Int(response.headers["content-length"] ?? "0") ?? 0
                    if data.count - split.upperBound >= length {
                        var complete = response
                        complete.body = Data(data[split.upperBound..<(split.upperBound + length)])
                        responses.append(complete)
                        data = Data(data[(split.upperBound + length)...])
                        continue
                    }
                }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { throw Failure(description: "the connection ended after \(responses.count) of \(count) answers") }
                data.append(contentsOf: buffer[0..<n])
            }
            return responses
        }
    }

    fileprivate static func parseHead(_ data: Data) -> Response {
        let head = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data())
    }

    private func send(_ fd: Int32, _ data: Data) throws {
        try Self.send(fd, data)
    }

    fileprivate static func send(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                guard let base = raw.baseAddress else { return }
                let n = Glibc.send(fd, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { throw Failure(description: "the connection closed while sending: \(String(cString: strerror(errno)))") }
                sent += n
            }
        }
    }

    private func read(_ fd: Int32) throws -> Response {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no HTTP answer (\(data.count) bytes)")
        }
        var response = Self.parseHead(data[..<split.lowerBound])
        response.body = Data(data[split.upperBound...])
        if response.headers["transfer-encoding"] == "chunked" { response.body = Self.dechunk(response.body) }
        return response
    }

    private static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = line.upperBound
            let end = rest.index(start, offsetBy: size, limitedBy: rest.endIndex) ?? rest.endIndex
            out.append(rest[start..<end])
            rest = rest[min(rest.endIndex, end + 2)...]
        }
        return out
    }
}
