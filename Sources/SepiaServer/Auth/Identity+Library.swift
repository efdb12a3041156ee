import SepiaLibrary

extension Identity {
    /// The library the credential opens.
    var photoLibrary: PhotoLibrary { library.library }

    /// Whether the credential may see Recently Deleted — list it, see and recover what is there, delete it for
    /// good: a credential that may change the library (sessions and read-write tokens; one limited to albums,
    /// what is in them). Read-only tokens and share links never see a deleted asset: it is gone for them.
    var seesRecentlyDeleted: Bool { allows(.write) }

    /// The asset with this identifier, if the credential can see it; 404 otherwise, as if it did not exist. An
    /// asset in Recently Deleted is seen only by credentials that see Recently Deleted.
    func visibleAsset(_ id: String) throws -> Asset {
        guard Identifier.isValid(id), let asset = try knownAsset(id), try isVisible(asset) else { throw Self.noAsset(id) }
        return asset
    }

    /// The asset with this identifier, from the library's asset cache; nil when there is none.
    private func knownAsset(_ id: String) throws(LibraryError) -> Asset? {
        do {
            return try library.assets.asset(id)
        } catch  where error.code == .notFound {
            return nil
        }
    }

    /// Whether the credential sees `asset`.
    private func isVisible(_ asset: Asset) throws -> Bool {
        if asset.isRecentlyDeleted && !seesRecentlyDeleted { return false }
        if let limit = albumLimit { return try isInAlbums(asset, limit) }
        return true
    }

    /// Whether `asset` is in one of `albums` (one in Recently Deleted counts its memberships, which it keeps).
    private func isInAlbums(_ asset: Asset, _ albums: [String]) throws -> Bool {
        let options = FetchOptions(predicate: .identifier(asset.id) && .inAlbums(albums), includeHiddenAssets: true)
        if asset.isRecentlyDeleted {
            return try photoLibrary.fetchAssetPage(in: .recentlyDeleted, options: options, limit: 1).total > 0
        }
        return try photoLibrary.fetchAssetPage(options: options, limit: 1).total > 0
    }

    /// The assets with these identifiers, all of which the credential must see; at most `limit` of them. Assets
    /// in Recently Deleted count only `includingRecentlyDeleted`, and only for a credential that sees it.
    func visibleAssets(_ ids: [String], limit: Int = 10_000, includingRecentlyDeleted: Bool = false) throws -> [Asset] {
        guard !ids.isEmpty else { throw APIError.unprocessable("'ids' lists no photos") }
        guard ids.count <= limit else { throw APIError.unprocessable("'ids' may list at most \(Self.grouped(limit)) photos") }
        for id in ids where !Identifier.isValid(id) { throw Self.noAsset(id) }
        let unique = Array(Set(ids))
        var options = FetchOptions(predicate: .identifiers(unique), includeHiddenAssets: true)
        if let limit = albumLimit { options.predicate = .identifiers(unique) && .inAlbums(limit) }
        var assets = try photoLibrary.fetchAssetPage(options: options, limit: unique.count).assets
        if includingRecentlyDeleted && seesRecentlyDeleted && assets.count < unique.count {
            assets += try photoLibrary.fetchAssetPage(in: .recentlyDeleted, options: options, limit: unique.count).assets
        }
        let found = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
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
