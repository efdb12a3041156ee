import Foundation
import HTTPTypes
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
    /// Answers made before, by library and URL.
    let prepared = PreparedAnswers()
    static let route = "/api/v1/assets/{id}/image"
    private static let prefix = "/api/v1/assets/"
    private static let suffix = "/image"

    /// An answer's bytes: the status line and headers, and the body (none for `304`).
    struct Answer {
        var head: ByteBuffer
        var body: ByteBuffer?
    }

    /// An answer ready to send again: the status line and the headers that do not change from one request
    /// to the next, for `200` and for `304`, and the body buffer, written again without a copy. It holds while
    /// its asset's current version is the one it shows, which is certain while the library's generation is
    /// the one it was prepared at.
    final class PreparedAnswer: Sendable {
        let assetID: String
        let version: String
        let contentTag: String
        let generation: Int64
        let okHead: ByteBuffer
        let notModifiedHead: ByteBuffer
        let body: ByteBuffer

        init(
            assetID: String, version: String, contentTag: String, generation: Int64, okHead: ByteBuffer, notModifiedHead: ByteBuffer,
            body: ByteBuffer
        ) {
            self.assetID = assetID
            self.version = version
            self.contentTag = contentTag
            self.generation = generation
            self.okHead = okHead
            self.notModifiedHead = notModifiedHead
            self.body = body
        }

        /// The same answer, known to hold at `generation`.
        func restamped(_ generation: Int64) -> PreparedAnswer {
            PreparedAnswer(
                assetID: assetID, version: version, contentTag: contentTag, generation: generation, okHead: okHead,
                notModifiedHead: notModifiedHead, body: body)
        }
    }

    /// The prepared answers, in shards so that event-loop threads seldom wait for each other; a shard is
    /// emptied when it grows past a few hundred answers (thumbnails of a few screens).
    final class PreparedAnswers: Sendable {
        struct Key: Hashable {
            var library: ObjectIdentifier
            var target: String
        }

        private final class Shard: Sendable {
            let answers = Mutex<[Key: PreparedAnswer]>([:])
        }

        private let shards = (0..<16).map { _ in Shard() }

        subscript(key: Key) -> PreparedAnswer? {
            shards[Self.shard(key)].answers.withLock { $0[key] }
        }

        func store(_ answer: PreparedAnswer, for key: Key) {
            shards[Self.shard(key)].answers.withLock { answers in
                if answers.count >= 512 { answers.removeAll(keepingCapacity: true) }
                answers[key] = answer
            }
        }

        private static func shard(_ key: Key) -> Int {
            Int(key.target.utf8.reduce(UInt8(0)) { $0 &+ $1 } & 15)
        }
    }

    /// What one connection keeps between its requests: the credential it last saw and what it opens (checked
    /// again only when the account store forgets a credential or the cache's answer runs out), the `Date`
    /// header of the current second, and its own sequence of request IDs.
    struct ConnectionMemo {
        var credential: String?
        var library: UserLibrary?
        var credentialGeneration = 0
        var credentialValidUntil = Date.distantPast
        var dateSecond = 0
        var date = ""
        var requestIDHigh = UInt64.random(in: .min ... .max)
        var requestCount = UInt64.random(in: .min ... .max)
        let counters: EarlyAnswerCounters

        init(counters: EarlyAnswerCounters) {
            self.counters = counters
        }
    }

    /// The answer to `head`, or nil when the application must answer it.
    func answer(_ head: RequestHead, memo: inout ConnectionMemo, allocator: ByteBufferAllocator) -> Answer? {
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
        guard let credential = bearer ?? cookie.map({ "cookie " + $0 }) else { return nil }
        let now = Date()
        let library: UserLibrary
        if let kept = memo.library, memo.credential == credential, memo.credentialGeneration == services.accounts.credentialGeneration,
            now < memo.credentialValidUntil
        {
            library = kept
        } else {
            memo.library = nil
            guard let opened = openLibrary(bearer: bearer, cookie: cookie, memo: &memo) else { return nil }
            memo.credential = credential
            library = opened
        }

        let key = PreparedAnswers.Key(library: ObjectIdentifier(library), target: target)
        let generation = library.library.knownGeneration
        if let answer = prepared[key] {
            if answer.generation == generation { return send(answer, ifNoneMatch: head.ifNoneMatch, now: now, memo: &memo, allocator: allocator) }
            if library.assets.cached(answer.assetID)?.contentVersion == answer.version {
                let current = answer.restamped(generation)
                prepared.store(current, for: key)
                return send(current, ifNoneMatch: head.ifNoneMatch, now: now, memo: &memo, allocator: allocator)
            }
        }
        guard let answer = prepare(target: target, path: path, library: library, generation: generation, allocator: allocator) else {
            return nil
        }
        prepared.store(answer, for: key)
        return send(answer, ifNoneMatch: head.ifNoneMatch, now: now, memo: &memo, allocator: allocator)
    }

    /// The library of a cached credential that may read the whole of it, noted in the memo with how long
    /// that holds.
    private func openLibrary(bearer: String?, cookie: String?, memo: inout ConnectionMemo) -> UserLibrary? {
        guard bearer != nil || cookie != nil, let hit = services.accounts.cachedCredentialHit(bearer: bearer, cookie: cookie) else {
            return nil
        }
        let user: UserRecord
        switch hit.credential {
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
        memo.library = library
        memo.credentialGeneration = hit.generation
        memo.credentialValidUntil = hit.validUntil
        return library
    }

    /// The answer for a URL whose asset is in the asset cache, named at its current version, with the
    /// rendition in the memory cache; nil otherwise.
    private func prepare(
        target: String, path: Substring, library: UserLibrary, generation: Int64, allocator: ByteBufferAllocator
    )
        -> PreparedAnswer?
    {
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
            assetID: id, version: asset.contentVersion, contentTag: rendition.contentTag, generation: generation,
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

    private func send(
        _ answer: PreparedAnswer, ifNoneMatch: String?, now: Date, memo: inout ConnectionMemo, allocator: ByteBufferAllocator
    )
        -> Answer
    {
        let notModified =
            ifNoneMatch.map { header in
                header == "*"
                    || header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "\"" + answer.contentTag + "\"" }
            } ?? false
        let second = Int(now.timeIntervalSince1970)
        if memo.dateSecond != second {
            memo.dateSecond = second
            memo.date = HTTPDate.format(second)
        }
        memo.requestCount &+= 1
        let fixed = notModified ? answer.notModifiedHead : answer.okHead
        var head = allocator.buffer(capacity: fixed.readableBytes + 96)
        head.writeImmutableBuffer(fixed)
        head.writeStaticString("Date: ")
        head.writeString(memo.date)
        head.writeStaticString("\r\nX-Request-ID: ")
        Self.writeHex(memo.requestIDHigh, to: &head)
        Self.writeHex(memo.requestCount, to: &head)
        head.writeStaticString("\r\n\r\n")
        memo.counters.count(notModified: notModified, bodyBytes: answer.body.readableBytes)
        return Answer(head: head, body: notModified ? nil : answer.body)
    }

    /// Writes `value` as 16 lowercase hexadecimal digits (request IDs have Hummingbird's form: 32 of them).
    private static func writeHex(_ value: UInt64, to buffer: inout ByteBuffer) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            buffer.writeInteger(digits.utf8Start[Int((value >> UInt64(shift)) & 15)])
        }
    }

    /// The `Date` header's value.
    enum HTTPDate {
        static func format(_ second: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: Date(timeIntervalSince1970: Double(second)))
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
