import Crypto
import Foundation
import Hummingbird

/// The web app's files: `index.html` for the app's pages (`/`, `/setup`, `/login`, `/s/{token}`) and the
/// modules, styles and icons it loads. Served from the bundled `Web` folder, or from `--web-root` while
/// working on the front end.
///
/// The page is revalidated on every load (`no-cache` with an ETag) and names the modules and style sheets under
/// `/v/{version}/` (``WebAppVersion``), where they are cached for good: a new version of the server, or an edited
/// file, is a new page naming new URLs. A versioned URL of another version (a page from before an upgrade) gets the
/// file as it is now, revalidated. The same files keep their plain URLs (`/app/…`, `/styles/…`), revalidated.
struct WebAppController {
    let root: String
    let version: WebAppVersion

    init(root: String) {
        self.root = root
        self.version = WebAppVersion(root: root)
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get("/", use: page)
            .get("setup", use: page)
            .get("login", use: page)
            .get("s/:token", use: page)
            .get("app/**", use: file)
            .get("styles/**", use: file)
            .get("v/:version/app/**", use: versionedFile)
            .get("v/:version/styles/**", use: versionedFile)
            .get("icons/**", use: file)
            .get("favicon.svg", use: file)
            .get("manifest.webmanifest", use: file)
        return routes
    }

    /// `index.html`, its modules and style sheets named under `/v/{version}/`.
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let html = try? String(contentsOfFile: root + "/index.html", encoding: .utf8) else {
            throw APIError.notFound("there is no such file")
        }
        let bytes = Array(Self.versioned(html, version: version.current()).utf8)
        let etag = "\"" + SHA256.hash(data: bytes).hexPrefix() + "\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = Self.mediaType(of: "index.html")
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `html` with the URLs of the modules and style sheets it names (`"/app/…"`, `"/styles/…"`) under
    /// `/v/{version}/`. Their own imports are relative, so they stay under it.
    static func versioned(_ html: String, version: String) -> String {
        WebAppVersion.folders.reduce(html) { html, folder in
            html.replacingOccurrences(of: "\"/\(folder)/", with: "\"/v/\(version)/\(folder)/")
        }
    }

    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let path = String(request.uri.path.dropFirst())
        guard Self.isServable(path) else { throw APIError.notFound("there is no such file") }
        return try await serve(path, request: request, context: context)
    }

    /// A module or style sheet under `/v/{version}/`: cached for a year (`immutable`) when the version is the
    /// current one, else the file as it is now, revalidated.
    @Sendable func versionedFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let parts = request.uri.path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let asked = context.parameters.get("version"), parts[1] == "v",
            parts[2].hasPrefix(asked + "/")
        else { throw APIError.notFound("there is no such file") }
        let path = String(parts[2].dropFirst(asked.count + 1))
        guard Self.isServable(path) else { throw APIError.notFound("there is no such file") }
        let current = asked == version.current()
        return try await serve(
            path, request: request, context: context, cacheControl: current ? "public, max-age=31536000, immutable" : "no-cache")
    }

    /// Whether `path` may name a file of the folder: short, ASCII letters, digits and `-_./`, no `.` or `..`
    /// component and no hidden file.
    static func isServable(_ path: String) -> Bool {
        path.count < 256 && !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") })
            && path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) })
    }

    private func serve(
        _ relative: String, request: Request, context: AppRequestContext, cacheControl: String = "no-cache"
    ) async throws -> Response {
        let path = root + "/" + relative
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int
        else { throw APIError.notFound("there is no such file") }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let etag = "\"\(Int64(modified * 1000))-\(size)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: cacheControl]
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
