import Foundation
import Hummingbird

/// What the Map view loads besides the app: Leaflet and its marker-cluster plug-in from where Debian installed
/// them (`/vendor/leaflet/…`), and the base map's country shapes (`/map/countries.geojson`). Public files, served
/// to anyone as the app's own are, from two fixed folders: a name with anything but letters, digits and `-_./`, or
/// a `.`/`..` component, is not looked up.
struct MapAssetsController {
    let configuration: ServerConfiguration

    /// The base map's file in ``ServerConfiguration/resolvedMapDataPath``.
    static let countriesFile = "countries.geojson"

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get("vendor/leaflet/**", use: leaflet)
            .get("map/countries.geojson", use: countries)
        return routes
    }

    @Sendable func leaflet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let relative = String(request.uri.path.dropFirst("/vendor/leaflet/".count))
        guard WebAppController.isServable(relative) else { throw APIError.notFound("there is no such file") }
        return try await serve(
            configuration.leafletPath + "/" + relative, request: request, context: context,
            missing: "the map's library is not installed: install Debian's libjs-leaflet and libjs-leaflet.markercluster (scripts/setup does)")
    }

    @Sendable func countries(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await serve(
            configuration.resolvedMapDataPath + "/" + Self.countriesFile, request: request, context: context,
            missing: "the base map is not installed: run scripts/map-data (scripts/setup does), or set SEPIA_MAP_DATA")
    }

    private func serve(_ path: String, request: Request, context: AppRequestContext, missing: String) async throws -> Response {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int
        else { throw APIError.notFound(missing) }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let etag = "\"\(Int64(modified * 1000))-\(size)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=86400"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = path.hasSuffix(".geojson") ? "application/geo+json" : WebAppController.mediaType(of: path)
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await FileIO().loadFile(path: path, context: context))
    }
}
