import Foundation
import Hummingbird
import SepiaLibrary

/// One search box: `/api/v1/search`. `GET /search?q=` answers a page of the photos and videos the words, kinds and
/// dates find (``SearchQuery``), newest first, with what the query was read as; `GET /search/suggestions?q=` the
/// places, keywords, albums and people the last word may mean, for the box while it is typed in.
///
/// A credential limited to albums searches its albums only, and people's names find nothing for it (it sees no
/// people); share links have no search.
struct SearchController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: search)
            .get("suggestions", use: suggestions)
        return routes
    }

    /// The longest search, in characters.
    static let maximumQueryLength = 200

    /// A term as the API names it, so that a client can show how the query was read.
    struct TermResponse: Encodable {
        var kind: String
        var value: String
    }

    struct SearchResponse: ResponseEncodable {
        var assets: [AssetResponse]
        var nextCursor: String?
        var total: Int
        var terms: [TermResponse]

        enum CodingKeys: String, CodingKey { case assets, nextCursor, total, terms }

        /// Every key, `nextCursor` as null on the last page, as the asset list writes it.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(assets, forKey: .assets)
            try c.encode(nextCursor, forKey: .nextCursor)
            try c.encode(total, forKey: .total)
            try c.encode(terms, forKey: .terms)
        }
    }

    /// `GET /search?q=…[&limit=&cursor=]`.
    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> SearchResponse {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let library = identity.photoLibrary
        let query = Query(request: request)
        let text = try query.string("q", maximumLength: Self.maximumQueryLength) ?? ""
        let parsed = SearchQuery(text)
        let limit = try query.int("limit", in: 1...500) ?? 100
        let cursor = try query.string("cursor", maximumLength: 4096).map { try AssetCursor(token: $0) }
        let terms = parsed.terms.map(Self.describe)
        guard let found = try library.predicate(for: parsed, matchingPeople: identity.seesPeople) else {
            return SearchResponse(assets: [], nextCursor: nil, total: 0, terms: terms)
        }
        var options = FetchOptions()
        options.predicate = identity.albumLimit.map { .inAlbums($0) && found } ?? found
        options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)]
        let page = try library.fetchAssetPage(options: options, after: cursor, limit: limit)
        return SearchResponse(
            assets: page.assets.map { AssetResponse($0, in: library) }, nextCursor: page.nextCursor?.token, total: page.total, terms: terms)
    }

    struct SuggestionsResponse: ResponseEncodable {
        var word: String
        var places: [PlaceSuggestion]
        var keywords: [String]
        var albums: [SearchSuggestions.AlbumSuggestion]
        var people: [SearchSuggestions.PersonSuggestion]
    }

    /// `GET /search/suggestions?q=…[&limit=]`.
    @Sendable func suggestions(_ request: Request, context: AppRequestContext) async throws -> SuggestionsResponse {
        let identity = try context.requireIdentity()
        let slot = try services.admitQuery(for: identity)
        defer { slot.close() }
        let query = Query(request: request)
        let text = try query.string("q", maximumLength: Self.maximumQueryLength) ?? ""
        let limit = try query.int("limit", in: 1...20) ?? 5
        var suggestions = try identity.photoLibrary.searchSuggestions(
            for: text, limit: limit, matchingPeople: identity.seesPeople, albums: identity.albumLimit)
        // A token limited to albums is offered no places or keywords of photos it cannot see.
        if identity.albumLimit != nil {
            suggestions.places = []
            suggestions.keywords = []
        }
        return SuggestionsResponse(
            word: suggestions.word, places: suggestions.places, keywords: suggestions.keywords, albums: suggestions.albums,
            people: suggestions.people)
    }

    static func describe(_ term: SearchQuery.Term) -> TermResponse {
        switch term {
        case .word(let word): TermResponse(kind: "word", value: word)
        case .kind(let kind): TermResponse(kind: "kind", value: kind.rawValue)
        case .year(let year): TermResponse(kind: "date", value: String(year))
        case .month(let month, let year):
            TermResponse(kind: "date", value: year.map { String(format: "%04d-%02d", $0, month) } ?? String(format: "--%02d", month))
        case .day(let year, let month, let day): TermResponse(kind: "date", value: String(format: "%04d-%02d-%02d", year, month, day))
        case .season(let season, let year): TermResponse(kind: "season", value: season.rawValue + (year.map { " \($0)" } ?? ""))
        }
    }
}
