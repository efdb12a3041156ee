public import Foundation
public import Hummingbird
import NIOCore

/// The request context of Sepia's routes: Hummingbird's core context, the client's address (as the trusted
/// proxies report it), and the caller's identity once ``AuthenticationMiddleware`` has checked the
/// credential.
public struct AppRequestContext: RequestContext {
    /// Hummingbird's storage.
    public var coreContext: CoreRequestContextStorage
    /// The address of the peer that opened the connection.
    let peerAddress: String?
    /// The connection the request arrived on.
    let channel: any Channel
    /// The server's own address and port that the connection reached.
    let localAddress: SocketAddress?
    /// The client's address: the peer's, or the one a trusted proxy forwarded.
    var clientAddress: String?
    /// Whether the client reached the server over HTTPS (directly or through a trusted proxy).
    var isSecure = false
    /// The caller, when a valid credential came with the request.
    var identity: Identity?
    /// Why a credential that came with the request was refused (expired session, revoked token).
    var credentialProblem: String?

    /// A context for a request arriving on `source`'s connection.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        channel = source.channel
        localAddress = source.channel.localAddress
        clientAddress = peerAddress
    }

    /// JSON bodies are decoded only up to 1 MiB.
    public var maxUploadSize: Int { 1 << 20 }

    /// Responses are JSON with sorted keys and ISO 8601 dates.
    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The identity, or a 401 that says why there is none.
    func requireIdentity() throws -> Identity {
        guard let identity else {
            throw APIError.unauthorized(credentialProblem ?? "sign in, or send an API token as 'Authorization: Bearer sepia_…'")
        }
        return identity
    }
}
