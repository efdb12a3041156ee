import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: turns every error into the API's JSON error answer, adds the security headers
/// and the request id to every response, records the request in the metrics, and logs failures.
struct ResponseMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServerMetrics
    /// The pages' policy when the map shows a tile server's images (``MapTiles``); nil: the usual one.
    let pagePolicy: String?

    init(metrics: ServerMetrics, mapTiles: MapTiles? = nil) {
        self.metrics = metrics
        pagePolicy = mapTiles.map { Self.contentSecurityPolicy(images: $0.origin) }
    }

    /// The content security policy of every response: no inline script or style, nothing from elsewhere (but the
    /// images of a tile server the deployment names), no framing (share pages included: they are opened, not
    /// embedded).
    static func contentSecurityPolicy(images: String? = nil) -> String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:\(images.map { " " + $0 } ?? ""); "
            + "media-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'"
    }

    static let contentSecurityPolicy = contentSecurityPolicy()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError: APIError
            if let known = APIError.from(error) {
                apiError = known
            } else {
                context.logger.error(
                    "request failed", metadata: ["sepia.error": "\(error)", "sepia.path": "\(request.uri.path)"])
                apiError = .internalError("the server failed to answer this request (request id \(context.id)); the server's log has the details")
            }
            if apiError.status.code >= 500, APIError.from(error) != nil {
                context.logger.error("request failed", metadata: ["sepia.error": "\(apiError.message)", "sepia.path": "\(request.uri.path)"])
            }
            response = try apiError.response(from: request, context: context)
        }
        Self.addHeaders(&response.headers, requestID: context.id)
        if let pagePolicy, response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = pagePolicy
        }
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: Int(response.status.code),
            duration: ContinuousClock.now - start)
        return response
    }

    /// The headers every response carries, made (and validated) once.
    static let securityHeaders: [HTTPField] = [
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: .referrerPolicy, value: "no-referrer"),
        HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
    ]

    /// The headers pages also carry: they matter where a document is rendered, not for images or JSON.
    static let pageHeaders: [HTTPField] = [
        HTTPField(name: .xFrameOptions, value: "DENY"),
        HTTPField(name: .crossOriginOpenerPolicy, value: "same-origin"),
        HTTPField(name: .permissionsPolicy, value: "camera=(self), microphone=(), geolocation=()"),
    ]

    static func addHeaders(_ headers: inout HTTPFields, requestID: String) {
        for field in securityHeaders where headers[field.name] == nil { headers.append(field) }
        if headers[.contentType]?.hasPrefix("text/html") == true {
            for field in pageHeaders where headers[field.name] == nil { headers.append(field) }
        }
        headers[.xRequestID] = requestID
    }
}
