import Foundation
import Hummingbird
import Logging
import SepiaImage
import Testing

@testable import SepiaServer

/// docs/openapi.yaml describes exactly the routes the server registers.
@Suite("The OpenAPI description")
struct OpenAPITests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.yaml")

    /// `METHOD /path` for every operation in the document: path keys at two spaces under `paths:`, methods at
    /// four spaces under them. Static-file routes are written `{file}` where the server registers `**`.
    static func documentedRoutes() throws -> Set<String> {
        let text = try String(contentsOf: document, encoding: .utf8)
        var routes = Set<String>()
        var inPaths = false
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if !line.hasPrefix(" ") && !line.isEmpty && !line.hasPrefix("#") { break }
            if line.hasPrefix("  /") && !line.hasPrefix("   ") {
                current = String(line.dropFirst(2).dropLast(line.hasSuffix(":") ? 1 : 0)).replacingOccurrences(of: "'", with: "")
                    .replacingOccurrences(of: "\"", with: "")
            } else if let path = current, line.hasPrefix("    ") && !line.hasPrefix("     ") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch", "head", "options"].contains(String(key)) {
                    routes.insert("\(key.uppercased()) \(path)")
                }
            }
        }
        return routes
    }

    static func registeredRoutes() throws -> Set<String> {
        let services = try makeServices(TestServer().configuration)
        return Set(
            buildRouter(services: services, logger: Logger(label: "test")).routes.map { route in
                var path = route.path.description
                if !path.hasPrefix("/") { path = "/" + path }
                return "\(route.method) " + path.replacingOccurrences(of: "/**", with: "/{file}")
            })
    }

    @Test("every registered route is documented, and every documented route is registered")
    func routesMatch() throws {
        let documented = try Self.documentedRoutes()
        let registered = try Self.registeredRoutes()
        #expect(!documented.isEmpty)
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from docs/openapi.yaml")
        #expect(documented.subtracting(registered).sorted() == [], "documented routes the server does not have")
    }

    @Test("the document says it is OpenAPI 3.1 and names both credentials")
    func header() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(text.hasPrefix("openapi: 3.1") || text.contains("\nopenapi: 3.1"))
        #expect(text.contains("bearerAuth") && text.contains("sepia_session"))
    }

    @Test("the document's version is the server's")
    func version() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix("  version: ") }
        #expect(line.map { String($0.dropFirst("  version: ".count)) } == SepiaVersion.current)
    }
}
