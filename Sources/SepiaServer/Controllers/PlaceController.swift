import Foundation
import Hummingbird
import SepiaLibrary
import SepiaPlaces

/// Places, the cities and countries photos were taken in: `/api/v1/places`. The Places album (countries, most
/// photos first, each with its cities) and how far placing has come. A city's photos are
/// `GET /api/v1/assets?place={id}`, a country's `GET /api/v1/assets?country={code}`.
///
/// A credential limited to albums sees the places of its albums' photos only, and no status (which counts the
/// whole library); share links have none.
struct PlaceController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
            .get("status", use: status)
        return routes
    }

    struct CityResponse: Encodable {
        var id: Int
        var city: String
        var region: String?
        var latitude: Double
        var longitude: Double
        var assetCount: Int
        var keyAssetID: String

        enum CodingKeys: String, CodingKey { case id, city, region, latitude, longitude, assetCount, keyAssetID }

        /// Every key, `region` as null when GeoNames names none.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(city, forKey: .city)
            try c.encode(region, forKey: .region)
            try c.encode(latitude, forKey: .latitude)
            try c.encode(longitude, forKey: .longitude)
            try c.encode(assetCount, forKey: .assetCount)
            try c.encode(keyAssetID, forKey: .keyAssetID)
        }
    }

    struct CountryResponse: Encodable {
        var countryCode: String
        var country: String
        var assetCount: Int
        var keyAssetID: String
        var cities: [CityResponse]
    }

    struct PlacesList: ResponseEncodable {
        var countries: [CountryResponse]
    }

    struct StatusResponse: ResponseEncodable {
        var locatedAssets: Int
        var placedAssets: Int
        var waitingAssets: Int
        var cityCount: Int
        /// Why places cannot be found, when they cannot (the GeoNames tables are missing or damaged).
        var problem: String?
    }

    /// `GET /places`: the Places album.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> PlacesList {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let countries = try identity.photoLibrary.placeSummaries(matching: identity.albumLimit.map { .inAlbums($0) })
        return PlacesList(
            countries: countries.map { country in
                CountryResponse(
                    countryCode: country.countryCode, country: country.country, assetCount: country.assetCount,
                    keyAssetID: country.keyAssetID,
                    cities: country.cities.map { city in
                        CityResponse(
                            id: city.place.id, city: city.place.city, region: city.place.region, latitude: city.place.latitude,
                            longitude: city.place.longitude, assetCount: city.assetCount, keyAssetID: city.keyAssetID)
                    })
            })
    }

    /// `GET /places/status`: located, placed and waiting assets, for a credential that reads the whole library.
    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> StatusResponse {
        let identity = try context.requireIdentity()
        guard identity.albumLimit == nil else {
            throw APIError.notFound("places have no status for this API token: it is limited to albums")
        }
        let status = try identity.photoLibrary.placesStatus()
        return StatusResponse(
            locatedAssets: status.locatedAssets, placedAssets: status.placedAssets, waitingAssets: status.waitingAssets,
            cityCount: status.cityCount, problem: status.problem)
    }
}
