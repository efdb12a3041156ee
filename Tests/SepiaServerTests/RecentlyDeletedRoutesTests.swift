import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// Recently Deleted through the API: `DELETE /assets/{id}` moves a photo there, `GET /recently-deleted` lists it
/// with its date and days left, `POST …/recover` brings it back into its album, `?permanently=true` deletes for
/// good; read-only tokens and share links never see it; the job queue purges it when its days are up, at start
/// and periodically.
@Suite("Recently Deleted routes")
struct RecentlyDeletedRoutesTests {
    struct DeletedAsset: Decodable {
        var id: String
        var trashedDate: Date?
        var daysLeft: Int?
        var isFavorite: Bool
    }

    struct DeletedPage: Decodable {
        var assets: [DeletedAsset]
        var nextCursor: String?
        var total: Int
        var retentionDays: Int
    }

    struct AlbumList: Decodable {
        var albums: [AlbumBody]
        var smartAlbums: [AlbumBody]
    }

    static func ids(_ page: PageBody) -> [String] { page.assets.map(\.id) }

    @Test("DELETE moves a photo to Recently Deleted, listed with its date and days left; Recover puts it back; permanently deletes for good")
    func deleteRecoverAndDeleteNow() async throws {
        let server = TestServer()
        try await server.withOwner { owner in
            let ids = [try await owner.uploadNew(1), try await owner.uploadNew(2), try await owner.uploadNew(3)]
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Trip"}"#, expect: .created)
            let members = ids.map { "\"\($0)\"" }.joined(separator: ",")
            #expect(try await owner.request(.post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": [\#(members)]}"#).status == .ok)
            _ = try await owner.request(.patch, "/api/v1/assets/\(ids[1])", json: #"{"isFavorite": true}"#)
            let files = server.storedFiles().count

            // Deleted: out of the library's pages, the album and its count; in Recently Deleted with 30 days left
            #expect(try await owner.request(.delete, "/api/v1/assets/\(ids[1])").status == .noContent)
            let library = try await owner.json(PageBody.self, .get, "/api/v1/assets")
            #expect(library.total == 2 && !Self.ids(library).contains(ids[1]))
            let inAlbum = try await owner.json(PageBody.self, .get, "/api/v1/assets?album=\(album.id)")
            #expect(Self.ids(inAlbum) == [ids[0], ids[2]])
            #expect(try await owner.json(AlbumBody.self, .get, "/api/v1/albums/\(album.id)").assetCount == 2)
            let deleted = try await owner.json(DeletedPage.self, .get, "/api/v1/recently-deleted")
            #expect(deleted.retentionDays == 30 && deleted.total == 1)
            #expect(deleted.assets.map(\.id) == [ids[1]])
            #expect(deleted.assets.first?.daysLeft == 30 && deleted.assets.first?.trashedDate != nil)
            let one = try await owner.json(DeletedAsset.self, .get, "/api/v1/assets/\(ids[1])")
            #expect(one.daysLeft == 30 && one.trashedDate != nil && one.isFavorite)
            let smart = try await owner.json(AlbumList.self, .get, "/api/v1/albums").smartAlbums
            #expect(smart.first { $0.id == "smart/recentlyDeleted" }?.assetCount == 1)
            #expect(smart.first { $0.id == "smart/favorites" }?.assetCount == 0)
            #expect(server.storedFiles().count == files, "its files stay")
            #expect(try await owner.request(.get, "/api/v1/assets/\(ids[1])/image?size=64").status == .ok)
            #expect(try await owner.request(.get, "/api/v1/assets?album=smart/recentlyDeleted").status == .notFound)

            // It cannot be changed, shared or downloaded while there
            let patch = try await owner.request(.patch, "/api/v1/assets/\(ids[1])", json: #"{"isHidden": true}"#)
            #expect(patch.status == .conflict)
            #expect(String(buffer: patch.body).contains("recover"), "\(String(buffer: patch.body))")
            #expect(try await owner.request(.post, "/api/v1/shares", json: #"{"assetID": "\#(ids[1])"}"#).status == .unprocessableContent)
            #expect(try await owner.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(ids[1])"]}"#).status == .notFound)

            // Recovered: back in its album at its place, still a favourite
            let recovered = try await owner.json(DeletedAsset.self, .post, "/api/v1/assets/\(ids[1])/recover")
            #expect(recovered.trashedDate == nil && recovered.daysLeft == nil && recovered.isFavorite)
            #expect(Self.ids(try await owner.json(PageBody.self, .get, "/api/v1/assets?album=\(album.id)")) == ids)
            #expect(try await owner.json(DeletedPage.self, .get, "/api/v1/recently-deleted").total == 0)

            // A selection, to Recently Deleted and back
            struct Count: Decodable {
                var deleted: Int?
                var recovered: Int?
            }
            let both = #"{"ids": ["\#(ids[0])", "\#(ids[2])"]}"#
            #expect(try await owner.json(Count.self, .post, "/api/v1/assets/delete", json: both).deleted == 2)
            #expect(try await owner.json(DeletedPage.self, .get, "/api/v1/recently-deleted").total == 2)
            #expect(try await owner.json(Count.self, .post, "/api/v1/assets/recover", json: both).recovered == 2)
            #expect(try await owner.json(PageBody.self, .get, "/api/v1/assets").total == 3)

            // Deleted now: for good, with its file; straight from the library, or from Recently Deleted
            #expect(try await owner.request(.delete, "/api/v1/assets/\(ids[0])?permanently=true").status == .noContent)
            #expect(try await owner.request(.get, "/api/v1/assets/\(ids[0])").status == .notFound)
            #expect(server.storedFiles().count == files - 1)
            #expect(try await owner.request(.delete, "/api/v1/assets/\(ids[2])").status == .noContent)
            let now = #"{"ids": ["\#(ids[2])"], "permanently": true}"#
            #expect(try await owner.json(Count.self, .post, "/api/v1/assets/delete", json: now).deleted == 1)
            #expect(try await owner.request(.get, "/api/v1/assets/\(ids[2])").status == .notFound)
            #expect(try await owner.json(DeletedPage.self, .get, "/api/v1/recently-deleted").total == 0)
            #expect(server.storedFiles().count == files - 2)
        }
    }

    @Test("uploading a photo that is in Recently Deleted recovers it: answered as recovered, or as a duplicate to a credential that cannot see it")
    func uploadRecovers() async throws {
        try await TestServer().withOwner { owner in
            let bytes = TestImages.jpeg(31)
            let id = try await owner.uploadNew(31)
            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)").status == .noContent)
            let again = try await owner.upload(bytes, filename: "again.jpg")
            #expect(again.status == .ok)
            let answer = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: again.body))
            #expect(answer.status == "recovered" && answer.id == id)
            #expect(try await owner.json(DeletedAsset.self, .get, "/api/v1/assets/\(id)").trashedDate == nil)

            // An add-only token learns nothing, but the photo comes back all the same
            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)").status == .noContent)
            let adder = try await owner.token("add-only")
            let added = try await adder.upload(bytes, filename: "phone.jpg")
            #expect(added.status == .ok)
            #expect(String(buffer: added.body) == #"{"status":"duplicate"}"#)
            #expect(try await owner.json(DeletedAsset.self, .get, "/api/v1/assets/\(id)").trashedDate == nil)
        }
    }

    @Test("read-only tokens and share links never see a photo in Recently Deleted, nor its album's count of it")
    func hiddenFromReadersAndLinks() async throws {
        try await TestServer().withOwner { owner in
            let kept = try await owner.uploadNew(41)
            let gone = try await owner.uploadNew(42)
            let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Shared"}"#, expect: .created)
            _ = try await owner.request(.post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": ["\#(kept)", "\#(gone)"]}"#)
            struct Share: Decodable { var url: String }
            let albumLink = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album.id)"}"#, expect: .created)
            let photoLink = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(gone)"}"#, expect: .created)
            let albumToken = String(albumLink.url.split(separator: "/").last ?? "")
            let photoToken = String(photoLink.url.split(separator: "/").last ?? "")
            let reader = try await owner.token("read")
            #expect(try await owner.request(.delete, "/api/v1/assets/\(gone)").status == .noContent)

            // The read-only token: not listed, not found, not counted, no Recently Deleted, no recovery
            #expect(Self.ids(try await reader.json(PageBody.self, .get, "/api/v1/assets")) == [kept])
            #expect(try await reader.request(.get, "/api/v1/assets/\(gone)").status == .notFound)
            #expect(try await reader.request(.get, "/api/v1/assets/\(gone)/image?size=64").status == .notFound)
            #expect(try await reader.request(.get, "/api/v1/assets/\(gone)/original").status == .notFound)
            let albums = try await reader.json(AlbumList.self, .get, "/api/v1/albums")
            #expect(albums.albums.first?.assetCount == 1)
            #expect(!albums.smartAlbums.contains { $0.id == "smart/recentlyDeleted" })
            #expect(try await reader.request(.get, "/api/v1/recently-deleted").status == .forbidden)
            #expect(try await reader.request(.post, "/api/v1/assets/\(gone)/recover").status == .forbidden)

            // The links: the album shows what is left; the photo's link shows nothing until it is recovered
            struct Shared: Decodable {
                struct Item: Decodable { var id: String }
                var assets: [Item]
            }
            let shown = try await owner.anonymous.json(Shared.self, .get, "/api/v1/shared/\(albumToken)")
            #expect(shown.assets.map(\.id) == [kept])
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/\(albumToken)/assets/\(gone)/image?size=64").status == .notFound)
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/\(photoToken)").status == .notFound)
            #expect(try await owner.request(.post, "/api/v1/assets/\(gone)/recover").status == .ok)
            #expect(try await owner.anonymous.request(.get, "/api/v1/shared/\(photoToken)").status == .ok)
            #expect(try await owner.anonymous.json(Shared.self, .get, "/api/v1/shared/\(albumToken)").assets.count == 2)
        }
    }

    @Test("the job queue purges a photo whose days are up, its files too: periodically, 31 days on")
    func periodicPurge() async throws {
        let clock = ManualClock()
        let server = TestServer { configuration in
            configuration.clock = { clock.now }
            configuration.purgeInterval = .milliseconds(200)
            configuration.jobPollInterval = .milliseconds(50)
        }
        try await server.withOwnerAndServices { owner, services in
            let id = try await owner.uploadNew(51)
            let kept = try await owner.uploadNew(52)
            #expect(try await owner.request(.delete, "/api/v1/assets/\(id)").status == .noContent)
            let files = server.storedFiles().count
            // 29 days on, it stays (the purges that ran found nothing due)
            clock.advance(days: 29)
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await owner.json(DeletedAsset.self, .get, "/api/v1/assets/\(id)").daysLeft == 1)
            // 31 days on, the next purge deletes it for good
            clock.advance(days: 2)
            let deadline = Date() + 120
            while try await owner.request(.get, "/api/v1/assets/\(id)").status != .notFound, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)").status == .notFound)
            #expect(try await owner.request(.get, "/api/v1/assets/\(kept)").status == .ok)
            #expect(server.storedFiles().count < files)
            #expect(try services.jobs.failed().isEmpty)
        }
    }

    @Test("a server purges at start what has been in Recently Deleted past the retention, as configured")
    func purgeAtStart() async throws {
        var server = TestServer { configuration in
            configuration.recentlyDeletedRetention = .seconds(7 * 86_400)
            configuration.jobPollInterval = .milliseconds(50)
        }
        // Photos deleted 8 and 6 days ago, by a `sepia` command on the same library.
        let clock = ManualClock(Date().addingTimeInterval(-8 * 86_400))
        var libraryConfiguration = server.ownerLibraryConfiguration
        libraryConfiguration.clock = { clock.now }
        let library = try PhotoLibrary.open(at: server.libraryPath, configuration: libraryConfiguration)
        var created: [String] = []
        for seed in [61, 62] {
            let prepared = try await library.prepareAsset(data: TestImages.jpeg(seed), filename: "old-\(seed).jpg")
            created += try await library.performChanges { $0.createAsset(from: prepared) }.createdAssetIDs
        }
        let ids = created
        try await library.performChanges { $0.deleteAssets([ids[0]]) }
        clock.advance(days: 2)
        try await library.performChanges { $0.deleteAssets([ids[1]]) }
        library.close()
        server.configuration.purgeInterval = .seconds(3600)

        try await server.withOwnerAndServices { owner, services in
            let deadline = Date() + 120
            while try await owner.request(.get, "/api/v1/assets/\(ids[0])").status != .notFound, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await owner.request(.get, "/api/v1/assets/\(ids[0])").status == .notFound)
            let left = try await owner.json(DeletedPage.self, .get, "/api/v1/recently-deleted")
            #expect(left.retentionDays == 7)
            #expect(left.assets.map(\.id) == [ids[1]] && left.assets.first?.daysLeft == 1)
        }
    }
}
