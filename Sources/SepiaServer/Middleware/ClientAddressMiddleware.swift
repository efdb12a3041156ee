import Foundation
import Hummingbird

/// Works out who the client is: the connection's peer, unless the peer is a trusted proxy, in which case the
/// last address in `X-Forwarded-For` that is not itself a trusted proxy, and `X-Forwarded-Proto` for HTTPS.
/// Untrusted peers' forwarding headers are ignored.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let proxies: TrustedProxies
    let publicURLIsSecure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.isSecure = publicURLIsSecure && proxies.isEmpty
        if let peer = context.peerAddress, !proxies.isEmpty, proxies.contains(peer) {
            let forwarded = request.headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if let client = forwarded.last(where: { !proxies.contains($0) }) ?? forwarded.first {
                context.clientAddress = client
            }
            if let proto = request.headers[.xForwardedProto]?.split(separator: ",").first {
                context.isSecure = proto.trimmingCharacters(in: .whitespaces).lowercased() == "https"
            }
        }
        return try await next(request, context)
    }
}
