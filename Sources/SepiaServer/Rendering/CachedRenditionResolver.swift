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
/// limited to albums), for an asset in that user's asset cache and not in Recently Deleted (which read-only
/// credentials may not see), when the exact rendition is in the memory cache. Anything else is the
/// application's.
///
/// Answers are kept by the rendition they show — library, asset, version, snapped size, mode and format —
/// never by the URL as sent: parameters the application ignores (`&j=1`, `&j=2`, …) and sizes that snap to the
/// same bucket name one answer, whose body is shared by every request for it. What they hold is bounded in
/// bytes (``ServerConfiguration/earlyAnswerBytes``).
struct CachedRenditionResolver: Sendable {
    let services: ServerServices
    /// Answers made before, by the rendition they show.
    let prepared: PreparedAnswers

    init(services: ServerServices) {
        self.services = services
        let prepared = PreparedAnswers(budget: services.configuration.earlyAnswerBytes)
        self.prepared = prepared
        services.metrics.measureEarlyAnswerMemory { prepared.bytes }
    }
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

        /// The bytes it holds.
        var cost: Int { body.readableBytes + okHead.readableBytes + notModifiedHead.readableBytes + 256 }

        /// The same answer, known to hold at `generation`.
        func restamped(_ generation: Int64) -> PreparedAnswer {
            PreparedAnswer(
                assetID: assetID, version: version, contentTag: contentTag, generation: generation, okHead: okHead,
                notModifiedHead: notModifiedHead, body: body)
        }
    }

    /// The prepared answers, in shards so that event-loop threads seldom wait for each other. Each shard holds
    /// at most its part of the budget in bytes; past it, the answers prepared first go first.
    final class PreparedAnswers: Sendable {
        struct Key: Hashable {
            var library: ObjectIdentifier
            var rendition: RenditionKey
        }

        private struct Contents {
            var answers: [Key: PreparedAnswer] = [:]
            /// The keys in the order their answers were first stored; `start` is the oldest still kept.
            var order: [Key] = []
            var start = 0
            var bytes = 0
        }

        private final class Shard: Sendable {
            let contents = Mutex(Contents())
        }

        private static let shardCount = 16
        private let shards = (0..<PreparedAnswers.shardCount).map { _ in Shard() }
        private let shardBudget: Int

        /// Answers holding at most `budget` bytes in all.
        init(budget: Int) {
            shardBudget = max(0, budget / Self.shardCount)
        }

        subscript(key: Key) -> PreparedAnswer? {
            shards[Self.shard(key)].contents.withLock { $0.answers[key] }
        }

        func store(_ answer: PreparedAnswer, for key: Key) {
            let budget = shardBudget
            shards[Self.shard(key)].contents.withLock { contents in
                if let old = contents.answers.updateValue(answer, forKey: key) {
                    contents.bytes -= old.cost
                } else {
                    contents.order.append(key)
                }
                contents.bytes += answer.cost
                while contents.bytes > budget, contents.start < contents.order.count {
                    let oldest = contents.order[contents.start]
                    contents.start += 1
                    if let removed = contents.answers.removeValue(forKey: oldest) { contents.bytes -= removed.cost }
                }
                if contents.start > 64, contents.start * 2 > contents.order.count {
                    contents.order.removeFirst(contents.start)
                    contents.start = 0
                }
            }
        }

        /// The bytes the answers hold.
        var bytes: Int {
            shards.reduce(0) { total, shard in total + shard.contents.withLock { $0.bytes } }
        }

        private static func shard(_ key: Key) -> Int {
            Int(UInt(bitPattern: key.rendition.hashValue) % UInt(shardCount))
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

        guard let named = Self.rendition(named: target, path: path) else { return nil }
        let key = PreparedAnswers.Key(library: ObjectIdentifier(library), rendition: named)
        let generation = library.library.knownGeneration
        if let answer = prepared[key] {
            if answer.generation == generation { return send(answer, ifNoneMatch: head.ifNoneMatch, now: now, memo: &memo, allocator: allocator) }
            if let asset = library.assets.cached(answer.assetID), asset.contentVersion == answer.version, !asset.isRecentlyDeleted {
                let current = answer.restamped(generation)
                prepared.store(current, for: key)
                return send(current, ifNoneMatch: head.ifNoneMatch, now: now, memo: &memo, allocator: allocator)
            }
        }
        guard let answer = prepare(named, library: library, generation: generation, allocator: allocator) else { return nil }
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

    /// The rendition a URL names, snapped as the application snaps it (not yet bounded by the photo's size,
    /// which the version fixes): nil when the URL is not one the early answers take on — no `v=`, a value
    /// written with `%` or `+`, a parameter given twice, a value the application refuses. Parameters other
    /// than `v`, `size`, `mode` and `format` are ignored, as the application ignores them.
    static func rendition(named target: String, path: Substring) -> RenditionKey? {
        let id = String(path.dropFirst(prefix.utf8.count).prefix(36))
        guard Identifier.isValid(id), let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        // v, size, mode, format
        var values: [Substring?] = [nil, nil, nil, nil]
        for pair in target[target.utf8.index(after: question)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let slot: Int
            switch kv[0] {
            case "v": slot = 0
            case "size": slot = 1
            case "mode": slot = 2
            case "format": slot = 3
            default: continue
            }
            guard kv.count == 2, values[slot] == nil, !kv[1].utf8.contains(UInt8(ascii: "%")), !kv[1].utf8.contains(UInt8(ascii: "+")) else {
                return nil
            }
            values[slot] = kv[1]
        }
        let (version, size, mode, format) = (values[0], values[1], values[2], values[3])
        guard let version, !version.isEmpty,
            let wanted = try? RenditionRequest(size: size.map(String.init), mode: mode.map(String.init), format: format.map(String.init))
        else { return nil }
        return RenditionKey(assetID: id, version: String(version), size: wanted.size, mode: wanted.mode, format: wanted.format)
    }

    /// The answer for a rendition of an asset in the asset cache, named at its current version, when the
    /// rendition is in the memory cache; nil otherwise.
    private func prepare(_ named: RenditionKey, library: UserLibrary, generation: Int64, allocator: ByteBufferAllocator) -> PreparedAnswer? {
        let id = named.assetID
        guard let asset = library.assets.cached(id), asset.contentVersion == named.version, !asset.isRecentlyDeleted else { return nil }
        let wanted = RenditionRequest(size: named.size, mode: named.mode, format: named.format)
            .bounded(by: IntSize(width: asset.pixelWidth, height: asset.pixelHeight))
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
