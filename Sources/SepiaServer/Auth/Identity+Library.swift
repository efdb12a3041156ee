import SepiaLibrary

extension Identity {
    /// The library the credential opens.
    var photoLibrary: PhotoLibrary { library.library }

    /// The asset with this identifier, if the credential can see it; 404 otherwise, as if it did not exist.
    func visibleAsset(_ id: String) throws -> Asset {
        guard Identifier.isValid(id) else { throw Self.noAsset(id) }
        let asset: Asset
        do {
            asset = try library.assets.asset(id)
        } catch  where error.code == .notFound {
            throw Self.noAsset(id)
        }
        if let limit = albumLimit {
            let options = FetchOptions(predicate: .identifier(id) && .inAlbums(limit), includeHiddenAssets: true)
            guard try photoLibrary.fetchAssetPage(options: options, limit: 1).total > 0 else { throw Self.noAsset(id) }
        }
        return asset
    }

    /// The assets with these identifiers, all of which the credential must see; at most `limit` of them.
    func visibleAssets(_ ids: [String], limit: Int = 10_000) throws -> [Asset] {
        guard !ids.isEmpty else { throw APIError.unprocessable("'ids' lists no photos") }
        guard ids.count <= limit else { throw APIError.unprocessable("'ids' may list at most \(Self.grouped(limit)) photos") }
        for id in ids where !Identifier.isValid(id) { throw Self.noAsset(id) }
        let unique = Array(Set(ids))
        var options = FetchOptions(predicate: .identifiers(unique), includeHiddenAssets: true)
        if let limit = albumLimit { options.predicate = .identifiers(unique) && .inAlbums(limit) }
        let page = try photoLibrary.fetchAssetPage(options: options, limit: unique.count)
        let found = Dictionary(page.assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in unique where found[id] == nil { throw Self.noAsset(id) }
        return ids.compactMap { found[$0] }
    }

    /// The user album with this identifier, if the credential can see it.
    func visibleAlbum(_ id: String) throws -> Album {
        guard Identifier.isValid(id), albumLimit?.contains(id) ?? true else { throw Self.noAlbum(id) }
        do {
            let album = try photoLibrary.album(id)
            guard album.isEditable, album.id == id else { throw Self.noAlbum(id) }
            return album
        } catch let error as LibraryError where error.code == .notFound {
            throw Self.noAlbum(id)
        }
    }

    /// A count with its thousands apart, as the API's messages write them: `10 000`.
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(digit)
        }
        return (count < 0 ? "-" : "") + out
    }

    static func noAsset(_ id: String) -> APIError {
        .notFound("there is no photo '\(id.prefix(64))' in this library")
    }

    static func noAlbum(_ id: String) -> APIError {
        .notFound("there is no album '\(id.prefix(64))' in this library")
    }
}
