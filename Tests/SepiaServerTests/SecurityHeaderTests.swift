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

    @Test("the page names its modules and style sheets under the version of their bytes, cached for good there")
    func versionedWebApp() async throws {
        // A copy of the web app's folder, whose files the test changes
        let source = try #require(TestServer().configuration.webRoot)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-web-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: root + "/web")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = TestServer { $0.webRoot = root + "/web" }
        try await server.withOwner { owner in
            let anonymous = owner.anonymous
            func version() async throws -> String {
                let page = String(buffer: try await anonymous.request(.get, "/").body)
                let match = try #require(page.firstMatch(of: /"\/v\/([0-9a-f]{32})\/app\/main\.js"/))
                #expect(page.contains("\"/v/\(match.1)/styles/base.css\""))
                #expect(!page.contains("\"/app/") && !page.contains("\"/styles/"))
                return String(match.1)
            }
            // Given the page's version, its modules are cached for good under it, and their relative imports too
            let first = try await version()
            let module = try await anonymous.request(.get, "/v/\(first)/app/main.js")
            #expect(module.status == .ok && module.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(module.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let imported = try await anonymous.request(.get, "/v/\(first)/app/components/sidebar.js")
            #expect(imported.status == .ok && imported.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(try await version() == first, "the same files, the same version")
            // When a file changes, the page names a new version; the old one still gets the files, revalidated
            let file = root + "/web/styles/base.css"
            try (try String(contentsOfFile: file, encoding: .utf8) + "\n/* changed */\n").write(toFile: file, atomically: true, encoding: .utf8)
            try await Task.sleep(for: .milliseconds(1100))
            let second = try await version()
            #expect(second != first)
            let old = try await anonymous.request(.get, "/v/\(first)/styles/base.css")
            #expect(old.status == .ok && old.headers[.cacheControl] == "no-cache")
            #expect(String(buffer: old.body).hasSuffix("/* changed */\n"))
            #expect(try await anonymous.request(.get, "/v/\(second)/styles/base.css").headers[.cacheControl] == "public, max-age=31536000, immutable")
            let refused = ["app/../../Package.swift", "app/%2e%2e/main.js", "styles/.hidden", "app/nope.js"]
            for path in refused.map({ "/v/\(second)/" + $0 }) {
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
