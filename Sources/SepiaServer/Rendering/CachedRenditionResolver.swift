import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import Synchronization

/// Works out whether a request can be answered from memory before routing, and the answer's bytes.
///
/// It answers only what the application would answer the same way, with the same headers: an HTTP/1.1 `GET`
/// of `/api/v1/assets/{id}/image` on a kept-alive connection, whose URL names the asset's current version
/// (`v=`), from a credential found in the credential cache that may read the whole library (not add-only, not
/// limited to albums), for an asset in that user's asset cache, when the exact rendition is in the memory
/// cache. Anything else is the application's.
struct CachedRenditionResolver: Sendable {
    let services: ServerServices
    /// Answers made before, by user and URL.
    let prepared = PreparedAnswers()
    static let route = "/api/v1/assets/{id}/image"
    private static let prefix = "/api/v1/assets/"
    private static let suffix = "/image"

    /// An answer's bytes: the status line and headers, and the body (none for `304`).
    struct Answer {
        var head: ByteBuffer
        var body: ByteBuffer?
    }

    /// An answer ready to send again, valid while its asset's current version is the one it shows: the
    /// status line and the headers that do not change from one request to the next, for `200` and for `304`,
    /// and the body buffer, written again without a copy.
    struct PreparedAnswer: Sendable {
        var assetID: String
        var version: String
        var contentTag: String
        var okHead: ByteBuffer
        var notModifiedHead: ByteBuffer
        var body: ByteBuffer
    }

    /// The prepared answers, emptied when they grow past a few thousand (thumbnails of a few screens).
    final class PreparedAnswers: Sendable {
        private let answers = Mutex<[String: PreparedAnswer]>([:])

        subscript(key: String) -> PreparedAnswer? {
            answers.withLock { $0[key] }
        }

        func store(_ answer: PreparedAnswer, for key: String) {
            answers.withLock { answers in
                if answers.count >= 4096 { answers.removeAll(keepingCapacity: true) }
                answers[key] = answer
            }
        }
    }

    /// The answer to `head`, or nil when the application must answer it.
    func answer(_ head: RequestHead, allocator: ByteBufferAllocator) -> Answer? {
        guard head.isGet, head.isHTTP11, !head.hasContentLength, !head.hasExpectation, head.authorizationCount <= 1,
            head.ifNoneMatchCount <= 1
        else { return nil }
        // A connection the client asks to close or upgrade is the application's to handle.
        if let connection = head.connection, connection.lowercased() != "keep-alive" { return nil }
        let target = head.target
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard path.utf8.count == Self.prefix.utf8.count + 36 + Self.suffix.utf8.count, path.hasPrefix(Self.prefix), path.hasSuffix(Self.suffix)
        else { return nil }

        // The credential, from the cache only: it must be able to read the whole library.
        var bearer: String?
        if let authorization = head.authorization {
            guard authorization.hasPrefix("Bearer ") else { return nil }
            bearer = String(authorization.dropFirst(7))
        }
        let cookie = bearer == nil ? Self.sessionCookie(head.cookies) : nil
        guard bearer != nil || cookie != nil, let credential = services.accounts.cachedCredential(bearer: bearer, cookie: cookie) else {
            return nil
        }
        let user: UserRecord
        switch credential {
        case .token(let token, let owner):
            // Recording the token's use (a write at most once a minute) is left to the requests the
            // application answers.
            guard token.accessLevel != .addOnly, token.albumIDs.isEmpty else { return nil }
            user = owner
        case .session(_, let owner):
            user = owner
        case .none:
            return nil
        }
        guard let library = services.libraries.openLibrary(for: user) else { return nil }
        let key = user.id + " " + target
        if let answer = prepared[key], library.assets.cached(answer.assetID)?.contentVersion == answer.version {
            return send(answer, ifNoneMatch: head.ifNoneMatch, allocator: allocator)
        }
        guard let answer = prepare(target: target, path: path, library: library, allocator: allocator) else { return nil }
        prepared.store(answer, for: key)
        return send(answer, ifNoneMatch: head.ifNoneMatch, allocator: allocator)
    }

    /// The answer for a URL whose asset is in the asset cache, named at its current version, with the
    /// rendition in the memory cache; nil otherwise.
    private func prepare(target: String, path: Substring, library: UserLibrary, allocator: ByteBufferAllocator) -> PreparedAnswer? {
        let id = String(path.dropFirst(Self.prefix.utf8.count).prefix(36))
        guard Identifier.isValid(id), let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        var query: [Substring: Substring] = [:]
        for pair in target[target.utf8.index(after: question)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[1].utf8.contains(UInt8(ascii: "%")), !kv[1].utf8.contains(UInt8(ascii: "+")), query[kv[0]] == nil
            else { return nil }
            query[kv[0]] = kv[1]
        }
        guard let version = query["v"], !version.isEmpty, let asset = library.assets.cached(id), asset.contentVersion == version else {
            return nil
        }
        guard
            let wanted = try? RenditionRequest(
                size: query["size"].map(String.init), mode: query["mode"].map(String.init), format: query["format"].map(String.init)
            ).bounded(by: IntSize(width: asset.pixelWidth, height: asset.pixelHeight))
        else { return nil }
        let key = RenditionKey(assetID: id, version: asset.contentVersion, size: wanted.size, mode: wanted.mode, format: wanted.format)
        guard let rendition = library.library.imageStore.memoryRendition(for: key) else { return nil }
        var fields: HTTPFields = [
            .eTag: "\"" + rendition.contentTag + "\"", .cacheControl: "private, max-age=31536000, immutable", .vary: "Cookie, Authorization",
            .contentType: rendition.format == .webp ? "image/webp" : "image/jpeg", .contentLength: String(rendition.data.count),
        ]
        for field in ResponseMiddleware.securityHeaders { fields.append(field) }
        fields[.server] = "Sepia"
        var notModified = fields
        notModified[.contentType] = nil
        notModified[.contentLength] = nil
        return PreparedAnswer(
            assetID: id, version: asset.contentVersion, contentTag: rendition.contentTag,
            okHead: Self.serialize(status: "200 OK", fields, allocator: allocator),
            notModifiedHead: Self.serialize(status: "304 Not Modified", notModified, allocator: allocator),
            body: allocator.buffer(bytes: rendition.data))
    }

    /// The status line and the fields, each line ending in CRLF, without the head's final empty line.
    private static func serialize(status: String, _ fields: HTTPFields, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 512)
        buffer.writeString("HTTP/1.1 " + status + "\r\n")
        for field in fields { buffer.writeString(field.name.rawName + ": " + field.value + "\r\n") }
        return buffer
    }

    private func send(_ answer: PreparedAnswer, ifNoneMatch: String?, allocator: ByteBufferAllocator) -> Answer {
        let notModified =
            ifNoneMatch.map { header in
                header == "*"
                    || header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "\"" + answer.contentTag + "\"" }
            } ?? false
        let fixed = notModified ? answer.notModifiedHead : answer.okHead
        var head = allocator.buffer(capacity: fixed.readableBytes + 96)
        head.writeImmutableBuffer(fixed)
        head.writeStaticString("Date: ")
        head.writeString(HTTPDate.now())
        head.writeStaticString("\r\nX-Request-ID: ")
        head.writeString(RequestID().description)
        head.writeStaticString("\r\n\r\n")
        services.metrics.recordRendition(origin: "memory", bytes: answer.body.readableBytes)
        services.metrics.recordEarlyAnswer()
        services.metrics.countRequest(route: Self.route, method: "GET", status: notModified ? 304 : 200)
        return Answer(head: head, body: notModified ? nil : answer.body)
    }

    /// The `Date` header's value, formatted once a second.
    enum HTTPDate {
        private static let cache = Mutex<(second: Int, text: String)>((0, ""))

        static func now() -> String {
            let seconds = Int(Date().timeIntervalSince1970)
            return cache.withLock { cache in
                if cache.second != seconds {
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: "GMT")
                    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                    cache = (seconds, formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
                }
                return cache.text
            }
        }
    }

    private static func sessionCookie(_ headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(AuthenticationMiddleware.cookieName + "=") {
                    return String(trimmed.dropFirst(AuthenticationMiddleware.cookieName.count + 1))
                }
            }
        }
        return nil
    }
}
