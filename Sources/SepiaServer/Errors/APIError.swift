import Foundation
public import HTTPTypes
public import Hummingbird

/// An error answered as JSON: `{"error": "<code>", "message": "<a sentence>"}` with an HTTP status, and
/// `"detail"` when there are technical words behind the message. The message says what failed and, when it
/// can, what to do, in words a person can act on; the detail (a decoder's own words, say) is for a disclosure
/// or a log.
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code: `not_found`, `forbidden`, ….
    public var code: String
    /// A sentence for people.
    public var message: String
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    public var headers: HTTPFields
    /// The technical words behind the message, when there are any.
    public var detail: String?

    /// An error with a status, a code and a message.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:], detail: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.detail = detail
    }

    /// `<status> <code>: <message> (<detail>)`.
    public var description: String { "\(status.code) \(code): \(message)" + (detail.map { " (\($0))" } ?? "") }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        let body = ErrorBody(error: code, message: message, detail: detail)
        let data = (try? JSONEncoder().encode(body)) ?? Data(#"{"error":"internal","message":"error"}"#.utf8)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct ErrorBody: Encodable {
        var error: String
        var message: String
        var detail: String?
    }

    // MARK: - Common errors

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, "unauthorized", message, headers: [.wwwAuthenticate: #"Bearer realm="sepia""#])
    }
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, "forbidden", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
    static func conflict(_ message: String) -> APIError { APIError(.conflict, "conflict", message) }
    static func gone(_ message: String) -> APIError { APIError(.gone, "gone", message) }
    static func payloadTooLarge(_ message: String) -> APIError { APIError(.contentTooLarge, "payload_too_large", message) }
    static func unsupportedMediaType(_ message: String) -> APIError { APIError(.unsupportedMediaType, "unsupported_media_type", message) }
    static func unprocessable(_ message: String) -> APIError { APIError(.unprocessableContent, "unprocessable", message) }
    static func internalError(_ message: String) -> APIError { APIError(.internalServerError, "internal", message) }
    static func unavailable(_ message: String) -> APIError { APIError(.serviceUnavailable, "unavailable", message) }
    static func tooManyRequests(_ message: String, retryAfter seconds: Int) -> APIError {
        APIError(.tooManyRequests, "too_many_requests", message, headers: [.retryAfter: String(max(1, seconds))])
    }
}
