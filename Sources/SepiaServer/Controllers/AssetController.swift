import Foundation
import Hummingbird
import SepiaCodecs
import SepiaLibrary

/// Photos: listing with PhotoKit's fetch options and cursors (keyword and text search, a person's photos), uploads, details,
/// favourite and hidden flags, title, caption, keywords, rating, date and place, deletion (to Recently Deleted, or
/// for good) and recovery, XMP sidecars uploaded with photos: `/api/v1/assets`.
struct AssetController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: list)
            .get(":id", use: get)
        routes.group().add(middleware: PermissionMiddleware(permission: .upload))
            .post(use: UploadHandler(services: services).upload)
        routes.group().add(middleware: PermissionMiddleware(permission: .write))
            .patch(":id", use: update)
            .delete(":id", use: delete)
            .patch(use: updateMany)
            .post("delete", use: deleteMany)
            .post(":id/recover", use: recover)
            .post("recover", use: recoverMany)
            .put(":id/sidecar", use: sidecar)
        return routes
    }

    struct UpdateRequest: Decodable {
        var isFavorite: Bool?
        var isHidden: Bool?
        /// For a RAW+JPEG pair: show the RAW file as the original (true) or the JPEG (false).
        var useRAW: Bool?
        /// Title, caption, keywords, rating, date and place (AssetController+Metadata.swift).
        var metadata: MetadataPatch

        enum CodingKeys: String, CodingKey { case isFavorite, isHidden, useRAW }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            isFavorite = try c.decodeIfPresent(Bool.self, forKey: .isFavorite)
            isHidden = try c.decodeIfPresent(Bool.self, forKey: .isHidden)
            useRAW = try c.decodeIfPresent(Bool.self, forKey: .useRAW)
            metadata = try MetadataPatch(from: decoder)
        }
    }

    struct UpdateManyRequest: Decodable {
        var ids: [String]
        var isFavorite: Bool?
        var isHidden: Bool?
        var metadata: MetadataPatch

        enum CodingKeys: String, CodingKey { case ids, isFavorite, isHidden }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            ids = try c.decode([String].self, forKey: .ids)
            isFavorite = try c.decodeIfPresent(Bool.self, forKey: .isFavorite)
            isHidden = try c.decodeIfPresent(Bool.self, forKey: .isHidden)
            metadata = try MetadataPatch(from: decoder)
        }
    }

    struct DeleteManyRequest: Decodable {
        var ids: [String]
        /// Delete for good rather than move to Recently Deleted.
        var permanently: Bool?
    }

    struct RecoverManyRequest: Decodable {
        var ids: [String]
    }

    struct Recovered: ResponseEncodable {
        var recovered: Int
        var assets: [AssetResponse]
    }

    struct AssetList: ResponseEncodable {
        var assets: [AssetResponse]
    }

    struct Deleted: ResponseEncodable {
        var deleted: Int
    }

    /// `GET /assets`: a page of the photos the query selects.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> AssetPageResponse {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        let query = Query(request: request)
        var options = FetchOptions()
        var predicates: [AssetPredicate] = []
        var album: Album?
        if let albumID = try query.string("album", maximumLength: 64) {
            if SmartAlbum(id: albumID) == .recentlyDeleted {
                // Recently Deleted is listed by GET /recently-deleted, for the credentials that may see it.
                throw Identity.noAlbum(albumID)
            } else if let smart = SmartAlbum(id: albumID) {
                guard identity.albumLimit == nil else { throw Identity.noAlbum(albumID) }
                album = try library.smartAlbums().first { $0.id == smart.id }
            } else {
                album = try identity.visibleAlbum(albumID)
            }
        } else if let limit = identity.albumLimit {
            predicates.append(.inAlbums(limit))
        }
        if let personID = try query.string("person", maximumLength: 64) {
            // A person's photos: for credentials that see people (404 for one limited to albums, as if there were none).
            predicates.append(.person(try identity.visiblePerson(personID).id))
        }
        if let place = try query.int("place", in: 1...Int(Int32.max)) { predicates.append(.place(place)) }
        if let country = try query.string("country", maximumLength: 2) {
            guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw APIError.badRequest("'country' is a two-letter ISO 3166 code such as PT")
            }
            predicates.append(.country(country))
        }
        if try query.bool("favorites") == true { predicates.append(.isFavorite) }
        if try query.bool("edited") == true { predicates.append(.hasAdjustments) }
        if try query.bool("hidden") == true {
            predicates.append(.isHidden)
            options.includeHiddenAssets = true
        }
        if try query.bool("includeHidden") == true { options.includeHiddenAssets = true }
        if let mediaType = try query.oneOf("mediaType", ["image", "video"]) { predicates.append(.mediaType(mediaType == "image" ? .image : .video)) }
        if try query.bool("live") == true { predicates.append(.mediaSubtypes(.photoLive)) }
        if let keyword = try query.string("keyword", maximumLength: UserMetadata.maximumKeywordLength) { predicates.append(.keyword(keyword)) }
        if let text = try query.string("search", maximumLength: 200) { predicates.append(.metadataContains(text)) }
        if let stars = try query.int("minRating", in: 1...5) { predicates.append(.rating(.greaterThanOrEqual, stars)) }
        let year = try query.int("year", in: 1...9999)
        let month = try query.int("month", in: 1...12)
        switch (year, month) {
        case (let y?, let m?): predicates.append(.creationMonth(year: y, month: m))
        case (let y?, nil): predicates.append(.creationYear(y))
        case (nil, .some): throw APIError.badRequest("'month' needs a 'year'")
        case (nil, nil): break
        }
        let sortKeys = AssetSortDescriptor.Key.allCases.map(\.rawValue)
        let sort = try query.oneOf("sort", sortKeys)
        let order = try query.oneOf("order", ["asc", "desc"])
        if let sort, let key = AssetSortDescriptor.Key(rawValue: sort) {
            options.sortDescriptors = [AssetSortDescriptor(key, ascending: order == "asc")]
        } else if album?.isEditable != true {
            options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: order == "asc")]
        }
        options.predicate = predicates.reduce(nil) { combined, next in combined.map { $0 && next } ?? next }
        let limit = try query.int("limit", in: 1...500) ?? 100
        let cursor = try query.string("cursor", maximumLength: 4096).map { try AssetCursor(token: $0) }
        let page = try library.fetchAssetPage(album, options: options, after: cursor, limit: limit)
        return AssetPageResponse(
            assets: page.assets.map { AssetResponse($0, in: library) }, nextCursor: page.nextCursor?.token, total: page.total)
    }

    /// `GET /assets/{id}`: one photo, with the metadata of its original; one in Recently Deleted with its date
    /// and days left, for a credential that sees Recently Deleted.
    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> AssetResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let library = identity.photoLibrary
        return AssetResponse(asset, metadata: await AssetResponse.metadata(of: asset, in: library) ?? .init(), in: library)
    }

    /// `PATCH /assets/{id}`: favourite and hidden flags, which file of a RAW+JPEG pair is the original, and the
    /// title, caption, keywords, rating, date with its time zone and location (``MetadataPatch``).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> AssetResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let body = try await services.json.decode(UpdateRequest.self, from: request)
        guard body.isFavorite != nil || body.isHidden != nil || body.useRAW != nil || !body.metadata.isEmpty else {
            throw APIError.unprocessable(
                "give isFavorite, isHidden, useRAW, a metadata field (title, caption, keywords, rating, creationDate, location, revert) or several")
        }
        if let useRAW = body.useRAW {
            try await identity.photoLibrary.performChanges { $0.useRAW(useRAW, for: asset.id) }
            identity.library.previews.forget(assetID: asset.id)
            // The other file of the pair is shown now: its faces are found in it.
            services.requestFaceIndexing(for: identity, changed: [asset.id], logger: context.logger)
            if body.isFavorite == nil && body.isHidden == nil && body.metadata.isEmpty {
                return AssetResponse(try identity.photoLibrary.asset(asset.id), in: identity.photoLibrary)
            }
        }
        try await apply(
            favorite: body.isFavorite, hidden: body.isHidden, metadata: body.metadata, to: [asset], batch: false, in: identity.photoLibrary)
        return AssetResponse(try identity.photoLibrary.asset(asset.id), in: identity.photoLibrary)
    }

    /// `PATCH /assets`: the same flags and metadata on many photos, or a shift of their dates, all or none.
    @Sendable func updateMany(_ request: Request, context: AppRequestContext) async throws -> AssetList {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(UpdateManyRequest.self, from: request)
        let assets = try identity.visibleAssets(body.ids)
        try await apply(favorite: body.isFavorite, hidden: body.isHidden, metadata: body.metadata, to: assets, batch: true, in: identity.photoLibrary)
        let library = identity.photoLibrary
        return AssetList(assets: try library.assets(assets.map(\.id)).map { AssetResponse($0, in: library) })
    }

    /// `DELETE /assets/{id}`: moves the photo to Recently Deleted (one there already keeps its date); with
    /// `?permanently=true`, deletes it for good, from Recently Deleted or not.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let permanently = try Query(request: request).bool("permanently") ?? false
        try await Self.delete([asset.id], permanently: permanently, identity: identity)
        return .noContent
    }

    /// `POST /assets/delete`: many photos, all or none, to Recently Deleted or (`"permanently": true`) for good.
    @Sendable func deleteMany(_ request: Request, context: AppRequestContext) async throws -> Deleted {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(DeleteManyRequest.self, from: request)
        let permanently = body.permanently ?? false
        let ids = Array(Set(try identity.visibleAssets(body.ids, includingRecentlyDeleted: true).map(\.id)))
        try await Self.delete(ids, permanently: permanently, identity: identity)
        return Deleted(deleted: ids.count)
    }

    static func delete(_ ids: [String], permanently: Bool, identity: Identity) async throws {
        try await identity.photoLibrary.performChanges { changes in
            if permanently { changes.deleteAssetsPermanently(ids) } else { changes.deleteAssets(ids) }
        }
        // The editor's decoded sources go; a photo in Recently Deleted keeps its renditions for that album.
        for id in ids { identity.library.previews.forget(assetID: id) }
    }

    /// `POST /assets/{id}/recover`: brings a photo back from Recently Deleted, into its albums.
    @Sendable func recover(_ request: Request, context: AppRequestContext) async throws -> AssetResponse {
        let identity = try context.requireIdentity()
        let asset = try identity.visibleAsset(try context.parameters.require("id"))
        let library = identity.photoLibrary
        try await library.performChanges { $0.recoverAssets([asset.id]) }
        services.requestFaceIndexing(for: identity, logger: context.logger)
        return AssetResponse(try library.asset(asset.id), in: library)
    }

    /// `POST /assets/recover`: many photos back from Recently Deleted, all or none; `recovered` counts those
    /// that were there.
    @Sendable func recoverMany(_ request: Request, context: AppRequestContext) async throws -> Recovered {
        let identity = try context.requireIdentity()
        let body = try await services.json.decode(RecoverManyRequest.self, from: request)
        var seen = Set<String>()
        let assets = try identity.visibleAssets(body.ids, includingRecentlyDeleted: true).filter { seen.insert($0.id).inserted }
        let library = identity.photoLibrary
        try await library.performChanges { $0.recoverAssets(assets.map(\.id)) }
        services.requestFaceIndexing(for: identity, logger: context.logger)
        return Recovered(
            recovered: assets.filter(\.isRecentlyDeleted).count,
            assets: try library.assets(assets.map(\.id)).map { AssetResponse($0, in: library) })
    }

    private func apply(
        favorite: Bool?, hidden: Bool?, metadata: MetadataPatch, to assets: [Asset], batch: Bool, in library: PhotoLibrary
    ) async throws {
        guard favorite != nil || hidden != nil || !metadata.isEmpty else {
            throw APIError.unprocessable(
                "give isFavorite, isHidden, a metadata field (title, caption, keywords, rating, creationDate, location, revert, shiftCreationDate) or several"
            )
        }
        let edit = try metadata.requests(for: assets, batch: batch)
        try await library.performChanges { changes in
            for asset in assets {
                if let favorite { changes.setFavorite(favorite, for: asset.id) }
                if let hidden { changes.setHidden(hidden, for: asset.id) }
            }
            edit(changes)
        }
    }
}
