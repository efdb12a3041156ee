import Foundation
import Hummingbird
import Logging

/// The outermost middleware: turns every error into the API's JSON error answer, adds the security headers
/// and the request id to every response, records the request in the metrics, and logs failures.
struct ResponseMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServerMetrics

    /// The content security policy of every response: no inline script or style, nothing from elsewhere, no
    /// framing (share pages included: they are opened, not embedded).
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

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
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: Int(response.status.code),
            duration: ContinuousClock.now - start)
        return response
    }

    static func addHeaders(_ headers: inout HTTPFields, requestID: String) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xFrameOptions] = "DENY"
        headers[.crossOriginOpenerPolicy] = "same-origin"
        headers[.permissionsPolicy] = "camera=(self), microphone=(), geolocation=()"
        headers[.xRequestID] = requestID
    }
}
