import Foundation
import Hummingbird

/// The web app's files: `index.html` for the app's pages (`/`, `/setup`, `/login`, `/s/{token}`) and the
/// modules, styles and icons it loads. Served from the bundled `Web` folder, or from `--web-root` while
/// working on the front end. Every file is revalidated (`no-cache` with an ETag), so a new version of the
/// server is picked up at once.
struct WebAppController {
    let root: String

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get("/", use: page)
            .get("setup", use: page)
            .get("login", use: page)
            .get("s/:token", use: page)
            .get("app/**", use: file)
            .get("styles/**", use: file)
            .get("icons/**", use: file)
            .get("favicon.svg", use: file)
            .get("manifest.webmanifest", use: file)
        return routes
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await serve("index.html", request: request, context: context)
    }

    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let path = String(request.uri.path.dropFirst())
        guard path.count < 256, !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }),
            path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) })
        else { throw APIError.notFound("there is no such file") }
        return try await serve(path, request: request, context: context)
    }

    private func serve(_ relative: String, request: Request, context: AppRequestContext) async throws -> Response {
        let path = root + "/" + relative
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int
        else { throw APIError.notFound("there is no such file") }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let etag = "\"\(Int64(modified * 1000))-\(size)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = Self.mediaType(of: relative)
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await FileIO().loadFile(path: path, context: context))
    }

    static func mediaType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webmanifest": "application/manifest+json"
        case "json": "application/json"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}
