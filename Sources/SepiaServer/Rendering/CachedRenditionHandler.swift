import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import Synchronization

/// Answers requests for renditions that are in memory on the connection's event loop, before Hummingbird's
/// routing: a photo grid asks for hundreds of thumbnails a second, each already rendered, and the async
/// request path (a task per request, the router, the middleware chain) costs several times the work of
/// finding the bytes. Everything else — and any rendition request this handler is not sure about — passes
/// on to the application unchanged.
///
/// It answers only what the application would answer the same way, with the same headers: a `GET` of
/// `/api/v1/assets/{id}/image` whose URL names the asset's current version (`v=`), from a credential found in
/// the credential cache that may read the whole library (not add-only, not limited to albums), for an asset
/// in that user's asset cache, when the exact rendition is in the memory cache. Requests that pipeline
/// behind a request the application is still answering pass on, so answers keep their order.
final class CachedRenditionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case idle
        case forwarding
        case answering(HTTPResponse, ByteBuffer?)
    }

    private let resolver: CachedRenditionResolver
    private var state = State.idle
    /// Requests passed to the application whose response has not ended yet.
    private var pending = 0

    init(resolver: CachedRenditionResolver) {
        self.resolver = resolver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if case .idle = state, pending == 0, let (response, body) = resolver.answer(head) {
                state = .answering(response, body)
                return
            }
            state = .forwarding
            pending += 1
            context.fireChannelRead(data)
        case .body:
            if case .answering = state { return }
            context.fireChannelRead(data)
        case .end:
            if case .answering(let response, let body) = state {
                state = .idle
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            state = .idle
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { pending = max(0, pending - 1) }
        context.write(data, promise: promise)
    }
}

/// Works out whether a request can be answered from memory, and the answer.
struct CachedRenditionResolver: Sendable {
    let services: ServerServices
    /// Answers made before, by user and URL: headers and a body buffer that is written again without a copy.
    let prepared = PreparedAnswers()
    static let route = "/api/v1/assets/{id}/image"
    private static let prefix = "/api/v1/assets/"
    private static let suffix = "/image"

    /// An answer ready to send again: valid while its asset's current version is the one it shows.
    struct PreparedAnswer: Sendable {
        var assetID: String
        var version: String
        var contentTag: String
        var fields: HTTPFields
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

    func answer(_ head: HTTPRequest) -> (HTTPResponse, ByteBuffer?)? {
        guard head.method == .get, let target = head.path else { return nil }
        // A connection the client asks to close or upgrade is the application's to handle.
        if let connection = head.headerFields[.connection], connection.lowercased() != "keep-alive" { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard path.utf8.count == Self.prefix.utf8.count + 36 + Self.suffix.utf8.count, path.hasPrefix(Self.prefix), path.hasSuffix(Self.suffix)
        else { return nil }

        // The credential, from the cache only: it must be able to read the whole library.
        var bearer: String?
        if let authorization = head.headerFields[.authorization] {
            guard authorization.hasPrefix("Bearer ") else { return nil }
            bearer = String(authorization.dropFirst(7))
        }
        let cookie = bearer == nil ? Self.sessionCookie(head.headerFields) : nil
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
            return send(answer, to: head)
        }
        guard let answer = prepare(target: target, path: path, library: library) else { return nil }
        prepared.store(answer, for: key)
        return send(answer, to: head)
    }

    /// The answer for a URL whose asset is in the asset cache, named at its current version, with the
    /// rendition in the memory cache; nil otherwise.
    private func prepare(target: String, path: Substring, library: UserLibrary) -> PreparedAnswer? {
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
        return PreparedAnswer(
            assetID: id, version: asset.contentVersion, contentTag: rendition.contentTag, fields: fields, body: ByteBuffer(bytes: rendition.data))
    }

    private func send(_ answer: PreparedAnswer, to head: HTTPRequest) -> (HTTPResponse, ByteBuffer?) {
        var fields = answer.fields
        let notModified =
            head.headerFields[.ifNoneMatch].map { header in
                header == "*"
                    || header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "\"" + answer.contentTag + "\"" }
            } ?? false
        if notModified {
            fields[.contentType] = nil
            fields[.contentLength] = nil
        }
        fields[.xRequestID] = RequestID().description
        fields[.date] = HTTPDate.now()
        let status: HTTPResponse.Status = notModified ? .notModified : .ok
        services.metrics.recordRendition(origin: "memory", bytes: answer.body.readableBytes)
        services.metrics.recordEarlyAnswer()
        services.metrics.countRequest(route: Self.route, method: "GET", status: Int(status.code))
        return (HTTPResponse(status: status, headerFields: fields), notModified ? nil : answer.body)
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

    private static func sessionCookie(_ fields: HTTPFields) -> String? {
        for header in fields[values: .cookie] {
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
