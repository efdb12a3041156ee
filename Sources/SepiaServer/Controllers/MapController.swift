import Foundation
import Hummingbird
import SepiaLibrary

/// The map: `/api/v1/map`. What the Map view draws (`GET /map`: whether the base map's country shapes are
/// installed, and a tile server's URL when the deployment names one) and the markers of a region
/// (`GET /map/markers`): its located photos one by one when there are few, else counted in cells on the server,
/// so that the world's markers of a million located photos are a few hundred cells.
///
/// A credential limited to albums sees its albums' photos only; share links have no map.
struct MapController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: settings)
            .get("markers", use: markers)
        return routes
    }

    struct SettingsResponse: ResponseEncodable {
        /// Whether `/map/countries.geojson` is there to draw.
        var baseMap: Bool
        /// The tile server's URL template, when the deployment names one.
        var tiles: String?
    }

    /// `GET /map`.
    @Sendable func settings(_ request: Request, context: AppRequestContext) async throws -> SettingsResponse {
        _ = try context.requireIdentity()
        let shapes = services.configuration.resolvedMapDataPath + "/" + MapAssetsController.countriesFile
        return SettingsResponse(baseMap: FileManager.default.isReadableFile(atPath: shapes), tiles: services.configuration.mapTiles?.template)
    }

    struct MarkersResponse: ResponseEncodable {
        var items: [MapMarkers.Item]
        var clusters: [MapMarkers.Cluster]
        var total: Int
    }

    /// `GET /map/markers?south=&west=&north=&east=&zoom=[&limit=]`: the whole world when the edges are left out.
    @Sendable func markers(_ request: Request, context: AppRequestContext) async throws -> MarkersResponse {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let query = Query(request: request)
        func degrees(_ name: String, _ range: ClosedRange<Double>, _ otherwise: Double) throws -> Double {
            guard let text = try query.string(name, maximumLength: 32) else { return otherwise }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw APIError.badRequest("'\(name)' must be a number of degrees from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }
        // Longitudes beyond ±180 come from a map panned past the antimeridian; a region is at most the world.
        let region = MapRegion(
            south: try degrees("south", -90...90, -90), west: try degrees("west", -540...540, -180),
            north: try degrees("north", -90...90, 90), east: try degrees("east", -540...540, 180))
        let zoom = try query.int("zoom", in: 0...22) ?? 0
        let limit = try query.int("limit", in: 0...2_000) ?? 500
        let markers = try identity.photoLibrary.mapMarkers(
            in: region, zoom: zoom, matching: identity.albumLimit.map { .inAlbums($0) }, itemLimit: limit)
        return MarkersResponse(items: markers.items, clusters: markers.clusters, total: markers.total)
    }
}
