import Foundation
import Hummingbird
import SepiaLibrary

/// The timeline: years and months with their counts, newest first: `/api/v1/collections`.
struct CollectionController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get("years", use: years)
            .get("months", use: months)
        return routes
    }

    struct CollectionResponse: Encodable {
        var id: String
        var kind: String
        var year: Int
        var month: Int?
        var title: String
        var assetCount: Int
        var videoCount: Int
        var startDate: Date
        var endDate: Date

        init(_ list: CollectionList) {
            id = list.id
            kind = list.kind.rawValue
            year = list.year
            month = list.month
            title = list.title
            assetCount = list.assetCount
            videoCount = list.videoCount
            startDate = list.startDate
            endDate = list.endDate
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(kind, forKey: .kind)
            try c.encode(year, forKey: .year)
            try c.encode(month, forKey: .month)
            try c.encode(title, forKey: .title)
            try c.encode(assetCount, forKey: .assetCount)
            try c.encode(videoCount, forKey: .videoCount)
            try c.encode(startDate, forKey: .startDate)
            try c.encode(endDate, forKey: .endDate)
        }

        enum CodingKeys: String, CodingKey { case id, kind, year, month, title, assetCount, videoCount, startDate, endDate }
    }

    struct CollectionListResponse: ResponseEncodable {
        var collections: [CollectionResponse]
    }

    @Sendable func years(_ request: Request, context: AppRequestContext) async throws -> CollectionListResponse {
        let identity = try timelineIdentity(context)
        return CollectionListResponse(collections: try identity.photoLibrary.years().reversed().map(CollectionResponse.init))
    }

    @Sendable func months(_ request: Request, context: AppRequestContext) async throws -> CollectionListResponse {
        let identity = try timelineIdentity(context)
        let library = identity.photoLibrary
        let months: [CollectionList]
        if let year = try Query(request: request).int("year", in: 1...9999) {
            months = try library.months(in: year)
        } else {
            months = try library.years().flatMap { try library.months(in: $0.year) }
        }
        return CollectionListResponse(collections: months.reversed().map(CollectionResponse.init))
    }

    private func timelineIdentity(_ context: AppRequestContext) throws -> Identity {
        let identity = try context.requireIdentity()
        if identity.albumLimit != nil {
            throw APIError.forbidden("this API token is limited to albums; the library's timeline is not visible to it")
        }
        return identity
    }
}
