import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client for a Server-Sent Events stream: connects to the server on loopback, sends a GET,
/// and delivers each event as it arrives, read on a thread of its own.
final class EventStreamClient: Sendable {
    struct Event: Sendable, Equatable {
        var id: String?
        var event: String?
        var data: String
    }

    private let received = Mutex<(events: [Event], ended: Bool)>(([], false))
    let status: Mutex<Int?> = Mutex(nil)
    private let socket: Int32

    init(port: Int, path: String, headers: [String: String] = [:]) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.ECONNREFUSED) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        socket = fd
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, 0) }
        let thread = Thread { [self] in
            var buffer = [UInt8]()
            var headerDone = false
            var chunk = [UInt8](repeating: 0, count: 4096)
            var pending = ""
            while true {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { break }
                buffer += chunk[0..<n]
                if !headerDone {
                    guard let end = Self.find([13, 10, 13, 10], in: buffer) else { continue }
                    let head = String(decoding: buffer[0..<end], as: UTF8.self)
                    let code = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                    self.status.withLock { $0 = code }
                    buffer.removeFirst(end + 4)
                    headerDone = true
                }
                // The body is chunked: strip the chunk-size lines by keeping only lines that belong to events.
                pending += String(decoding: buffer, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                buffer.removeAll()
                while let range = pending.range(of: "\n\n") {
                    let block = String(pending[..<range.lowerBound])
                    pending.removeSubrange(..<range.upperBound)
                    var event = Event(id: nil, event: nil, data: "")
                    var any = false
                    for raw in block.split(separator: "\n", omittingEmptySubsequences: false) {
                        let line = String(raw)
                        if line.hasPrefix("id: ") {
                            event.id = String(line.dropFirst(4))
                            any = true
                        } else if line.hasPrefix("event: ") {
                            event.event = String(line.dropFirst(7))
                            any = true
                        } else if line.hasPrefix("data: ") {
                            event.data += String(line.dropFirst(6))
                            any = true
                        } else if line.hasPrefix(": ") {
                            event.event = "comment"
                            event.data = String(line.dropFirst(2))
                            any = true
                        }
                    }
                    if any { self.received.withLock { $0.events.append(event) } }
                }
            }
            self.received.withLock { $0.ended = true }
        }
        thread.start()
    }

    /// The next event that satisfies `predicate` (events before it are dropped), or nil when the stream ends
    /// or `timeout` passes.
    func next(timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (Event) -> Bool = { _ in true }) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (found, ended) = received.withLock { state -> (Event?, Bool) in
                guard let index = state.events.firstIndex(where: predicate) else {
                    state.events.removeAll()
                    return (nil, state.ended)
                }
                let event = state.events[index]
                state.events.removeFirst(index + 1)
                return (event, false)
            }
            if let found { return found }
            if ended { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The response's status, once its head has arrived (nil after `timeout`). The deadline is for a server that
    /// never answers: a loaded machine (the test run's stages run beside each other) took more than 5 s to answer.
    func responseStatus(timeout: Duration = .seconds(30)) async -> Int? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = status.withLock({ $0 }) { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}
