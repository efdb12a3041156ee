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
    /// `replacingHost` sends the `Host` of `headers` instead of the server's own.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data(), chunks: Int = 1, pause: TimeInterval = 0,
        replacingHost: Bool = false, afterFirstChunk: () -> Void = {}
    ) throws -> Response {
        let fd = try connect()
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\n" + (replacingHost ? "" : "Host: 127.0.0.1:\(port)\r\n")
        head += "Connection: close\r\nContent-Length: \(body.count)\r\n"
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

    /// Runs `body` `count` times at once, each on a thread of its own with a connection of its own, released
    /// together, so that the server sees the requests concurrently; returns the results in order.
    static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) async throws -> [T] {
        let start = DispatchSemaphore(value: 0)
        let results = try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count {
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int, T), any Error>) in
                        Thread.detachNewThread {
                            start.wait()
                            do {
                                continuation.resume(returning: (index, try body(index)))
                            } catch {
                                continuation.resume(throwing: error)
                            }
                        }
                    }
                }
            }
            // The semaphore counts: a thread that starts after the signals goes at once.
            for _ in 0..<count { start.signal() }
            return try await group.reduce(into: [(Int, T)]()) { $0.append($1) }
        }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
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

        /// Reads until the server closes the connection, for at most `limit` seconds: how long that took and
        /// what arrived meanwhile, or nil when it stayed open.
        func waitForClose(within limit: TimeInterval) -> (seconds: TimeInterval, received: Data)? {
            let start = Date()
            var buffer = [UInt8](repeating: 0, count: 65536)
            var received = data
            while Date().timeIntervalSince(start) < limit {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let remaining = max(1, Int32((limit - Date().timeIntervalSince(start)) * 1000))
                guard poll(&poller, 1, min(remaining, 100)) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 {
                    data = Data()
                    return (Date().timeIntervalSince(start), received)
                }
                received.append(contentsOf: buffer[0..<n])
            }
            // Still open: what arrived is kept for the next call (an answer may come a moment before the close).
            data = received
            return nil
        }

        /// Reads `count` answers without keeping their bodies: each answer's status and body length.
        func drainAnswers(_ count: Int) throws -> [(status: Int, bodyBytes: Int)] {
            var results: [(status: Int, bodyBytes: Int)] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var head = Data()
            var bodyLeft = 0
            var current = 0
            var pendingBytes = data
            data = Data()
            while results.count < count {
                if pendingBytes.isEmpty {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { throw Failure(description: "the connection ended after \(results.count) of \(count) answers") }
                    pendingBytes = Data(buffer[0..<n])
                }
                if bodyLeft > 0 {
                    let take = min(bodyLeft, pendingBytes.count)
                    bodyLeft -= take
                    pendingBytes = pendingBytes.dropFirst(take)
                    if bodyLeft == 0 { results[results.count - 1].bodyBytes = current }
                    continue
                }
                head.append(pendingBytes)
                pendingBytes = Data()
                guard let split = RawHTTP.headEnd(in: head, from: 0) else { continue }
                let response = RawHTTP.parseHead(head[..<split.lowerBound])
                current = response.status == 304 ? 0 : Int(response.headers["content-length"] ?? "0") ?? 0
                results.append((response.status, current))
                pendingBytes = Data(head[split.upperBound...])
                head = Data()
                bodyLeft = current
            }
            data = pendingBytes
            return results
        }

        func answers(_ count: Int) throws -> [Response] {
            var responses: [Response] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            // Answers are read from `start` on; what was read is dropped once, at the end. A head whose body
            // is still arriving is kept, so that its bytes are not searched again.
            var start = data.startIndex
            var pending: (response: Response, bodyStart: Int)?
            defer { data = Data(data[start...]) }
            while responses.count < count {
                if pending == nil, let split = RawHTTP.headEnd(in: data, from: start - data.startIndex) {
                    pending = (RawHTTP.parseHead(data[start..<split.lowerBound]), split.upperBound)
                }
                if let (response, bodyStart) = pending {
                    let length = response.status == 304 ? 0 : Int(response.headers["content-length"] ?? "0") ?? 0
                    if data.endIndex - bodyStart >= length {
                        var complete = response
                        complete.body = Data(data[bodyStart..<(bodyStart + length)])
                        responses.append(complete)
                        start = bodyStart + length
                        pending = nil
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

    /// Where the first `CRLF CRLF` at or after the offset `start` is (Foundation's `range(of:in:)` copies the
    /// whole buffer each time, which many answers read into one buffer cannot afford).
    fileprivate static func headEnd(in data: Data, from start: Int) -> Range<Int>? {
        data.withUnsafeBytes { raw -> Range<Int>? in
            var i = start
            while i + 3 < raw.count {
                if raw[i] == 13, raw[i + 1] == 10, raw[i + 2] == 13, raw[i + 3] == 10 {
                    return (data.startIndex + i)..<(data.startIndex + i + 4)
                }
                i += 1
            }
            return nil
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
