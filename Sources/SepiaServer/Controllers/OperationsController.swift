import Foundation
import Hummingbird
import NIOCore
import SepiaImage
import SepiaLibrary

/// Health and metrics: `GET /health`, `GET /metrics`.
struct OperationsController {
    let services: ServerServices
    static let version = SepiaVersion.current

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get("health", use: health)
            .get("metrics", use: metrics)
        return routes
    }

    struct Health: ResponseEncodable {
        var status: String
        var version: String
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Health {
        Health(status: "ok", version: Self.version)
    }

    /// Prometheus text, for loopback clients (a scraper on the same machine, or behind the proxy) and the
    /// owner.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = context.identity.map { $0.user.isOwner && $0.accessLevel != .addOnly } ?? false
        guard TrustedProxies.isLoopback(context.clientAddress) || owner else {
            if context.identity == nil && context.credentialProblem == nil {
                throw APIError.unauthorized("metrics are answered to loopback clients and to the owner's credentials")
            }
            throw APIError.forbidden("metrics are answered to loopback clients and to the owner's credentials")
        }
        if let owner = try? services.libraries.openOwnerLibrary() {
            services.metrics.recordCacheSizes(
                memoryBytes: owner.library.imageStore.memoryCost, diskBytes: owner.library.imageStore.diskCost)
            services.metrics.recordFaceIndexStatus(
                try? owner.library.faceIndexStatus(algorithm: FaceIndexing.algorithm), modelsMissing: services.faceModelsMissing)
        }
        if let counts = try? services.jobs.counts() {
            services.metrics.recordJobQueue(waiting: counts.waiting, failed: counts.failed)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: services.metrics.exposition())))
    }
}
