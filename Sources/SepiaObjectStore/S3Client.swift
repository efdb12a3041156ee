public import AsyncHTTPClient
import Crypto
public import Foundation
import NIOCore
import NIOHTTP1

/// A client for one bucket of an S3-compatible object store: objects written whole or in parts, read whole,
/// by range or into a file, listed, deleted, and presigned URLs. Requests are signed with Signature V4; the
/// body of every write is hashed into the signature and sent with its `Content-MD5`, so the store refuses
/// anything that arrives damaged. Requests that are safe to repeat are retried when the store was unreachable
/// or answered 5xx or 429, for at most ``maximumRetryDuration``; a store that refuses the connection (it is not
/// running) fails the request at once.
///
/// ```swift
/// let location = try S3Location(parsing: "s3://photos?endpoint=http://127.0.0.1:9000&region=us-east-1")
/// let bucket = S3Client(location: location, credentials: .fromEnvironment()!)
/// try await bucket.put(Data("hello".utf8), key: "greeting.txt", contentType: "text/plain")
/// let text = try await bucket.get(key: "greeting.txt").bytes
/// ```
public struct S3Client: Sendable {
    /// The bucket, prefix and endpoint requests go to.
    public private(set) var location: S3Location
    let signer: SignatureV4
    let http: HTTPClient
    /// How many times a request that may be repeated is sent before its error is given up to the caller.
    public var maximumAttempts = 4
    /// How long after a request's first attempt a new attempt may still start: the bound on the time retries
    /// add. A refused connection is not retried at all.
    public var maximumRetryDuration: Duration = .seconds(10)
    /// The size of the parts of a multipart upload, and the size above which ``upload(fileAt:key:contentType:metadata:)``
    /// uses one (at least 5 MiB, S3's smallest part).
    public var partSize = 16 << 20
    /// The most bytes a whole-object read keeps in memory.
    public var maximumReadBytes = 1 << 30

    /// A client of `location` signing with `credentials`; by default on a client shared by the process.
    public init(location: S3Location, credentials: S3Credentials, httpClient: HTTPClient? = nil) {
        self.location = location
        signer = SignatureV4(credentials: credentials, region: location.region)
        http = httpClient ?? objectStorageHTTPClient
    }

    /// A client of the same bucket, with the same credentials, whose keys are under `path` (appended to
    /// this client's prefix).
    public func appending(_ path: String) -> S3Client {
        var client = self
        client.location = location.appending(path)
        return client
    }

    // MARK: Objects

    /// Stores `bytes` as the object `key`, replacing any object of that name, and returns its ETag.
    @discardableResult
    public func put(
        _ bytes: some DataProtocol & Sendable, key: String, contentType: String? = nil, metadata: [String: String] = [:]
    ) async throws(S3Error) -> String {
        let body = ByteBuffer(bytes: bytes)
        var headers = metadataHeaders(metadata)
        if let contentType { headers.append(("content-type", contentType)) }
        let md5 = Data(body.withUnsafeReadableBytes { Insecure.MD5.hash(data: $0) })
        headers.append(("content-md5", md5.base64EncodedString()))
        let response = try await send(
            Request(method: .PUT, key: key, headers: headers, body: body, operation: "store"))
        let etag = Self.unquoted(response.head.headers.first(name: "etag") ?? "")
        if !etag.isEmpty, !etag.contains("-"), etag.lowercased() != SignatureV4.hex(md5) {
            throw S3Error(.invalidResponse, "the store's checksum of the object differs from the one sent", subject: key)
        }
        return etag
    }

    /// Stores the file at `path` as the object `key`: in one request up to ``partSize``, as a multipart
    /// upload above (holding one part in memory at a time; a failed upload is aborted so no parts linger).
    /// Returns the object's ETag.
    @discardableResult
    public func upload(
        fileAt path: String, key: String, contentType: String? = nil, metadata: [String: String] = [:]
    ) async throws(S3Error) -> String {
        let file = try FileReader(path: path)
        defer { file.close() }
        if file.size <= max(partSize, 5 << 20) {
            return try await put(try file.read(at: 0, count: file.size), key: key, contentType: contentType, metadata: metadata)
        }
        return try await multipartUpload(file, key: key, contentType: contentType, metadata: metadata)
    }

    /// Reads the object `key`, or part of it, unless its ETag is `ifNoneMatch`.
    public func get(key: String, range: S3ByteRange? = nil, ifNoneMatch: String? = nil) async throws(S3Error) -> S3Read {
        var headers: [(String, String)] = []
        if let range { headers.append(("range", range.headerValue)) }
        if let ifNoneMatch { headers.append(("if-none-match", Self.quoted(ifNoneMatch))) }
        let response = try await send(Request(method: .GET, key: key, headers: headers, operation: "read"), accepting: [304])
        let info = objectInfo(key: key, head: response.head)
        if response.head.status == .notModified { return .notModified(etag: info.etag) }
        let bytes = try await collect(response.body, limit: maximumReadBytes, subject: key)
        if response.head.status == .partialContent,
            let span = response.head.headers.first(name: "content-range").flatMap(S3ByteRange.parseContentRange)
        {
            guard bytes.count == span.range.count else {
                throw S3Error(.invalidResponse, "the store sent \(bytes.count) bytes for a range of \(span.range.count)", subject: key)
            }
            return .partial(S3Object(info: info, bytes: bytes), range: span.range, totalSize: span.total)
        }
        guard bytes.count == info.size else {
            throw S3Error(.invalidResponse, "the store sent \(bytes.count) bytes of \(info.size)", subject: key)
        }
        try verify(bytes, against: info.etag, subject: key)
        return .whole(S3Object(info: info, bytes: bytes))
    }

    /// Reads the whole object `key`.
    public func get(key: String) async throws(S3Error) -> S3Object {
        guard case .whole(let object) = try await get(key: key, range: nil, ifNoneMatch: nil) else {
            throw S3Error(.invalidResponse, "the store answered a whole read with part of the object", subject: key)
        }
        return object
    }

    /// Streams the object `key` into a new file at `path` (which must not exist), checks its length and, for
    /// objects stored in one request, its MD5, and returns what the store says of it. On failure no file is
    /// left at `path`.
    @discardableResult
    public func download(key: String, to path: String) async throws(S3Error) -> S3ObjectInfo {
        let response = try await send(Request(method: .GET, key: key, operation: "download"))
        let info = objectInfo(key: key, head: response.head)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw S3Error(.configuration, "cannot create the file to download into: \(String(cString: strerror(errno)))", subject: path)
        }
        var finished = false
        defer {
            close(fd)
            if !finished { unlink(path) }
        }
        var md5 = Insecure.MD5()
        var received = 0
        do {
            for try await chunk in response.body {
                try chunk.withUnsafeReadableBytes { (raw) throws(S3Error) in
                    md5.update(bufferPointer: raw)
                    var offset = 0
                    while offset < raw.count {
                        let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            throw S3Error(.configuration, "cannot write the download: \(String(cString: strerror(errno)))", subject: path)
                        }
                        offset += n
                    }
                }
                received += chunk.readableBytes
            }
        } catch let error as S3Error {
            throw error
        } catch {
            throw S3Error(.unreachable, "the download was cut off after \(received) bytes: \(error)", subject: key)
        }
        guard received == info.size else {
            throw S3Error(.invalidResponse, "the store sent \(received) bytes of \(info.size)", subject: key)
        }
        if Self.isPlainMD5(info.etag), SignatureV4.hex(md5.finalize()) != info.etag.lowercased() {
            throw S3Error(.invalidResponse, "the downloaded data does not match the object's checksum", subject: key)
        }
        finished = true
        return info
    }

    /// What the store says of the object `key`, or nil when there is none.
    public func head(key: String) async throws(S3Error) -> S3ObjectInfo? {
        let response = try await send(Request(method: .HEAD, key: key, operation: "look up"), accepting: [404])
        if response.head.status == .notFound { return nil }
        return objectInfo(key: key, head: response.head)
    }

    /// Removes the object `key`; removing an object that is not there is not an error.
    public func delete(key: String) async throws(S3Error) {
        _ = try await send(Request(method: .DELETE, key: key, operation: "remove"), accepting: [404])
    }

    /// One page of the objects whose keys start with `prefix` (relative to the location's prefix), in key
    /// order, after `continuation` (the previous page's ``S3Listing/continuation``).
    public func list(prefix: String = "", continuation: String? = nil, maximumKeys: Int = 1000) async throws(S3Error) -> S3Listing {
        var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", String(maximumKeys))]
        if let continuation { query.append(("continuation-token", continuation)) }
        let response = try await send(Request(method: .GET, key: nil, query: query, operation: "list"))
        let xml = S3XML(try await collect(response.body, limit: 64 << 20, subject: location.bucket))
        let objects = xml.elements("Contents").compactMap { item -> S3ObjectInfo? in
            guard let full = item.value("Key"), full.hasPrefix(location.prefix) else { return nil }
            return S3ObjectInfo(
                key: String(full.dropFirst(location.prefix.count)), size: item.value("Size").flatMap { Int($0) } ?? 0,
                etag: Self.unquoted(item.value("ETag") ?? ""), lastModified: item.value("LastModified").flatMap(Self.parseISODate))
        }
        let truncated = xml.value("IsTruncated") == "true"
        return S3Listing(objects: objects, continuation: truncated ? xml.value("NextContinuationToken") : nil)
    }

    /// Every object whose key starts with `prefix`, page by page.
    public func listAll(prefix: String = "") -> AsyncThrowingStream<S3ObjectInfo, any Error> {
        let client = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var token: String?
                    repeat {
                        let page = try await client.list(prefix: prefix, continuation: token)
                        for object in page.objects { continuation.yield(object) }
                        token = page.continuation
                    } while token != nil && !Task.isCancelled
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A URL anyone may use to `GET` the object `key` for `expires` seconds (at most 7 days), without
    /// credentials.
    public func presignedURL(key: String, expires: Int, date: Date = Date()) -> String {
        let query = signer.presign(method: "GET", host: location.host, path: location.path(key: key), query: [], expires: expires, date: date)
        return location.url(key: key, query: SignatureV4.canonicalQuery(query))
    }

    // MARK: The bucket

    /// Creates the bucket; one that already exists and is this account's is not an error.
    public func createBucket() async throws(S3Error) {
        var body: ByteBuffer?
        if location.region != "us-east-1" {
            body = ByteBuffer(
                string: "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                    + "<LocationConstraint>\(S3XML.escape(location.region))</LocationConstraint></CreateBucketConfiguration>")
        }
        do {
            _ = try await send(Request(method: .PUT, key: nil, body: body, operation: "create the bucket"))
        } catch  where error.code == "BucketAlreadyOwnedByYou" {
            return
        }
    }

    /// Whether the bucket exists and the credentials may use it; throws when the store cannot be reached or
    /// refuses the credentials.
    public func bucketExists() async throws(S3Error) -> Bool {
        let response = try await send(Request(method: .HEAD, key: nil, operation: "look up the bucket"), accepting: [404])
        return response.head.status != .notFound
    }

    // MARK: Requests

    struct Request {
        var method: HTTPMethod
        var key: String?
        var query: [(String, String)] = []
        var headers: [(String, String)] = []
        var body: ByteBuffer?
        /// What the request does, in words, for error messages.
        var operation: String
        /// Whether sending it twice does no harm (every S3 request but starting a multipart upload).
        var repeatable = true
    }

    struct Response {
        var head: HTTPClientResponse
        var status: Int { Int(head.status.code) }
        var body: HTTPClientResponse.Body { head.body }
    }

    /// Sends `request`, retrying transient failures of repeatable requests, and returns a 2xx response or one
    /// whose status is in `accepting`; any other answer becomes an ``S3Error`` naming the operation.
    func send(_ request: Request, accepting: Set<Int> = []) async throws(S3Error) -> Response {
        var attempt = 1
        let start = ContinuousClock.now
        while true {
            do {
                return try await sendOnce(request, accepting: accepting)
            } catch {
                guard request.repeatable, error.isTransient, !error.isRefusedConnection, attempt < maximumAttempts, !Task.isCancelled else {
                    throw error
                }
                let delay = 100_000_000 * UInt64(1 << (2 * (attempt - 1)))
                let pause = Duration.nanoseconds(Int64(delay / 2 + UInt64.random(in: 0...delay / 2)))
                guard ContinuousClock.now - start + pause < maximumRetryDuration else { throw error }
                try? await Task.sleep(for: pause)
                attempt += 1
            }
        }
    }

    private func sendOnce(_ request: Request, accepting: Set<Int>) async throws(S3Error) -> Response {
        let subject = request.key.map { location.prefix + $0 } ?? location.bucket
        let path = location.path(key: request.key)
        let payloadHash =
            request.body.map { body in SignatureV4.hex(body.withUnsafeReadableBytes { SHA256.hash(data: $0) }) }
            ?? SignatureV4.emptyPayloadHash
        var headers = request.headers
        headers.append(("host", location.host))
        let auth = signer.sign(
            method: request.method.rawValue, path: path, query: request.query, headers: headers, payloadHash: payloadHash)
        var outgoing = HTTPClientRequest(url: location.url(key: request.key, query: SignatureV4.canonicalQuery(request.query)))
        outgoing.method = request.method
        for (name, value) in headers + auth where name != "host" { outgoing.headers.add(name: name, value: value) }
        if let body = request.body {
            outgoing.body = .bytes(body)
        } else if request.method == .PUT || request.method == .POST {
            outgoing.headers.add(name: "content-length", value: "0")
        }
        let bodyBytes = Int64(request.body?.readableBytes ?? 0)
        // A minute, plus a second for every 4 MB sent: a slow link still finishes a large part.
        let deadline = NIODeadline.now() + .seconds(60 + bodyBytes / 4_000_000)
        let response: HTTPClientResponse
        do {
            response = try await http.execute(outgoing, deadline: deadline)
        } catch {
            if S3Error.isRefusedConnection(error) {
                var refused = S3Error(.unreachable, "cannot \(request.operation): the store refused the connection", subject: subject)
                refused.isRefusedConnection = true
                throw refused
            }
            throw S3Error(.unreachable, "cannot \(request.operation): \(error)", subject: subject)
        }
        let status = Int(response.status.code)
        if (200..<300).contains(status) || accepting.contains(status) { return Response(head: response) }
        let xml = S3XML((try? await response.body.collect(upTo: 1 << 16)).map { Array($0.readableBytesView) } ?? [])
        let code = xml.value("Code")
        let message = xml.value("Message").map { ": \($0)" } ?? ""
        let kind: S3Error.Kind =
            switch status {
            case 403: .accessDenied
            case 404: .notFound
            case 412: .preconditionFailed
            default: .failed
            }
        throw S3Error(kind, "cannot \(request.operation)\(message)", subject: subject, status: status, code: code)
    }

    private func collect(_ body: HTTPClientResponse.Body, limit: Int, subject: String) async throws(S3Error) -> Data {
        do {
            return Data(try await body.collect(upTo: limit).readableBytesView)
        } catch let error as NIOTooManyBytesError {
            throw S3Error(.invalidResponse, "the object is larger than the \(limit) bytes a read may hold (\(error))", subject: subject)
        } catch {
            throw S3Error(.unreachable, "the response was cut off: \(error)", subject: subject)
        }
    }

    private func metadataHeaders(_ metadata: [String: String]) -> [(String, String)] {
        metadata.sorted { $0.key < $1.key }.map { ("x-amz-meta-" + $0.key.lowercased(), $0.value) }
    }

    private func objectInfo(key: String, head: HTTPClientResponse) -> S3ObjectInfo {
        var metadata: [String: String] = [:]
        for header in head.headers where header.name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(header.name.lowercased().dropFirst(11))] = header.value
        }
        let length =
            head.headers.first(name: "content-range").flatMap(S3ByteRange.parseContentRange)?.total
            ?? head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        return S3ObjectInfo(
            key: key, size: length, etag: Self.unquoted(head.headers.first(name: "etag") ?? ""),
            lastModified: head.headers.first(name: "last-modified").flatMap(Self.parseHTTPDate),
            contentType: head.headers.first(name: "content-type"), metadata: metadata)
    }

    private func verify(_ bytes: Data, against etag: String, subject: String) throws(S3Error) {
        if Self.isPlainMD5(etag), SignatureV4.hex(Insecure.MD5.hash(data: bytes)) != etag.lowercased() {
            throw S3Error(.invalidResponse, "the data read does not match the object's checksum", subject: subject)
        }
    }

    static func isPlainMD5(_ etag: String) -> Bool {
        etag.count == 32 && etag.allSatisfy(\.isHexDigit)
    }

    static func unquoted(_ etag: String) -> String {
        var text = etag
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        return text
    }

    static func quoted(_ etag: String) -> String {
        etag == "*" || etag.hasPrefix("\"") ? etag : "\"\(etag)\""
    }

    static func parseISODate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func parseHTTPDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}

/// The HTTP client of every ``S3Client`` that is not given one: it lives as long as the process, gives up on
/// a connection not made within 5 s or a store silent for 60 s, and never follows redirects (a signed request
/// must go where it was signed for). A connection that cannot be made fails its request at once rather than
/// being tried again until the connect timeout: ``S3Client/send(_:accepting:)`` decides what to retry, and a
/// refused connection is not retried.
private let objectStorageHTTPClient: HTTPClient = {
    var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60))
    pool.retryConnectionEstablishment = false
    return HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(60)), connectionPool: pool))
}()
