import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Headers, the web app's files, health and metrics")
struct SecurityHeaderTests {
    static func expectSecurityHeaders(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.headers[.xContentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        #expect(response.headers[.init("Referrer-Policy")!] == "no-referrer", sourceLocation: sourceLocation)
        let csp = response.headers[.contentSecurityPolicy] ?? ""
        #expect(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), sourceLocation: sourceLocation)
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), sourceLocation: sourceLocation)
        #expect(response.headers[.init("X-Request-ID")!] != nil, sourceLocation: sourceLocation)
    }

    @Test("every response carries the security headers: answers, errors, unknown paths, files")
    func securityHeaders() async throws {
        try await TestServer().withOwner { owner in
            let anonymous = owner.anonymous
            for response in [
                try await anonymous.request(.get, "/health"),
                try await anonymous.request(.get, "/api/v1/assets"),
                try await anonymous.request(.get, "/no/such/page"),
                try await anonymous.request(.get, "/"),
                try await owner.request(.get, "/api/v1/assets/00000000-0000-0000-0000-000000000000"),
            ] {
                Self.expectSecurityHeaders(response)
            }
            let missing = try await anonymous.request(.get, "/no/such/page")
            #expect(missing.status == .notFound)
            #expect(try JSONDecoder.api.decode(ErrorBody.self, from: Data(buffer: missing.body)).error == "not_found")
        }
    }

    @Test("the web app's pages and modules are served with their types, and nothing outside the folder is")
    func webApp() async throws {
        try await TestServer().withOwner { owner in
            let anonymous = owner.anonymous
            for path in ["/", "/setup", "/login", "/s/abc"] {
                let page = try await anonymous.request(.get, path)
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
            }
            let module = try await anonymous.request(.get, "/app/main.js")
            #expect(module.status == .ok && module.headers[.contentType] == "text/javascript; charset=utf-8")
            let etag = try #require(module.headers[.eTag])
            #expect(try await anonymous.request(.get, "/app/main.js", headers: [.ifNoneMatch: etag]).status == .notModified)
            for path in ["/app/../Package.swift", "/app/%2e%2e/README.md", "/styles/.hidden", "/app/nope.js"] {
                #expect(try await anonymous.request(.get, path).status == .notFound, "\(path)")
            }
        }
    }

    @Test("health answers everyone; metrics answer the owner and loopback clients in Prometheus' format")
    func healthAndMetrics() async throws {
        try await TestServer().withOwner { owner in
            #expect(String(buffer: try await owner.anonymous.request(.get, "/health").body).contains(#""status":"ok""#))
            _ = try await owner.uploadNew(1)
            // In process there is no client address: only the owner's credential opens the metrics.
            #expect(try await owner.anonymous.request(.get, "/metrics").status == .unauthorized)
            let reader = try await owner.token("read")
            let metrics = try await reader.request(.get, "/metrics")
            #expect(metrics.status == .ok)
            let text = String(buffer: metrics.body)
            #expect(text.contains("sepia_http_requests_total{") && text.contains(#"route="/api/v1/assets""#))
            #expect(text.contains(#"sepia_uploads_total{outcome="created"} 1"#))
            #expect(text.contains("sepia_http_request_duration_seconds_bucket"))
        }
    }
}
