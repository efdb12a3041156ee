import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SepiaLibrary
import SepiaTestSupport
import Synchronization
import Testing

@testable import SepiaServer

#if canImport(Glibc)
import Glibc
#endif

/// ZIP downloads of an album, a selection and a share link, on a live server on loopback: what the archives
/// hold (read back by Python's `zipfile` and `unzip -t`), who may download what, the limits, and a client that
/// hangs up half-way.
@Suite("ZIP downloads")
struct DownloadTests {
    struct Created: Decodable {
        var id: String
        var url: String
        var version: String
        var count: Int
        var expiresAt: Date
    }

    struct Share: Decodable {
        var url: String
        var allowDownload: Bool
        var token: String { String(url.split(separator: "/").last ?? "") }
    }

    /// A photo dated `date` (a file without a capture date takes the date the upload gives).
    static func upload(_ owner: Client, _ data: Data, _ name: String, date: String = "2021-07-04T15:30:10Z") async throws -> String {
        let response = try await owner.upload(data, filename: name, query: "&modified=\(date)")
        #expect(response.status == .created, "upload \(name): \(String(buffer: response.body))")
        return try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body)).id
    }

    static func album(_ owner: Client, _ title: String, _ ids: [String]) async throws -> String {
        let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "\#(title)"}"#, expect: .created)
        guard !ids.isEmpty else { return album.id }
        let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
        _ = try await owner.json(AlbumBody.self, .post, "/api/v1/albums/\(album.id)/assets", json: #"{"ids": [\#(list)]}"#)
        return album.id
    }

    static func bytes(_ client: Client, _ path: String) async throws -> Data {
        let response = try await client.request(.get, path)
        #expect(response.status == .ok, "GET \(path)")
        return Data(buffer: response.body)
    }

    /// A file's tags as exiftool reads them (`-j -G1`): an independent reader of the sidecars.
    static func exiftool(_ path: String) throws -> [String: Any]? {
        let data = try ExternalProgram.run("/usr/bin/exiftool", ["-j", "-G1", path]).stdout
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first
    }

    /// Reads a ZIP answer, checking the headers every one has.
    static func archive(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ZipReader.Archive {
        #expect(response.status == .ok, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/zip", sourceLocation: sourceLocation)
        #expect(response.headers[.contentLength] == String(response.body.readableBytes), "the length is exact", sourceLocation: sourceLocation)
        #expect(response.headers[.transferEncoding] == nil, sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        let body = Data(buffer: response.body)
        let archive = try await blocking { try ZipReader.read(body) }
        #expect(archive.firstBadEntry == nil, "every CRC matches", sourceLocation: sourceLocation)
        // (unzip calls an empty archive a warning.)
        #expect(archive.unzipPassed != false || archive.entries.isEmpty, "unzip -t passes it", sourceLocation: sourceLocation)
        return archive
    }

    @Test("a name with a right-to-left override (rtl\u{202E}gpj.exe.jpg) is kept and offered without it: no header can show it as rtlgpj.exe")
    func directionOverrideInName() async throws {
        try await TestServer().withOwner { owner in
            // Given a photo uploaded under a name that shows as "rtlgpj.exe.jpg" reversed into "rtlgpj.exe"…
            let response = try await owner.upload(TestImages.jpeg(5), filename: "rtl%E2%80%AEgpj.exe.jpg")
            let created = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: response.body))
            // …the library keeps the name without the override,
            #expect(created.asset?.originalFilename == "rtlgpj.exe.jpg")
            // and its download offers it without the override, in both forms of the header.
            for path in ["/api/v1/assets/\(created.id)/original", "/api/v1/assets/\(created.id)/current"] {
                let download = try await owner.request(.get, path)
                let disposition = try #require(download.headers[.contentDisposition])
                #expect(!disposition.contains("%E2%80%AE") && !disposition.unicodeScalars.contains("\u{202E}"), "\(path): \(disposition)")
                #expect(disposition.contains("rtlgpj.exe"), "\(path): \(disposition)")
            }
        }
    }

    @Test(
        "every Content-Disposition is made of a safe name: no direction or control character, no path",
        arguments: [
            ("rtl\u{202E}gpj.exe.jpg", "rtlgpj.exe.jpg"), ("a\u{2066}b\u{2069}\u{200F}.jpg", "ab.jpg"), ("line\r\nbreak\u{85}.jpg", "linebreak.jpg"),
            ("../../etc/passwd", "etcpasswd"), ("Été.jpg", "Été.jpg"), ("\u{202E}", "download"),
        ])
    func contentDisposition(name: String, shown: String) {
        let header = ContentDisposition.attachment(filename: name)
        let encoded = shown.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
        #expect(header.hasSuffix("filename*=UTF-8''" + encoded), "\(header)")
        #expect(!header.contains("%E2%80") && !header.contains("%0D") && !header.contains("%0A") && !header.contains("%2F"), "\(header)")
    }

    @Test("an album's ZIP: each item's original files byte for byte (a Live Photo's still and movie), unique names, the items' dates")
    func album() async throws {
        let folder = TestVideos.folder()
        let movie = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestVideos.clip(
                    "IMG_0200.MOV", in: folder, keys: ["com.apple.quicktime.content.identifier": VideoUploadTests.identifier], pattern: 5)))
        let still = TestVideos.liveStill(identifier: VideoUploadTests.identifier, jpeg: TestImages.jpeg(41, width: 64, height: 48))
        let (app, token) = try await TestServer().build()
        try await app.test(.live) { client in
            // Given an album with three photos whose names clash (one only by case), and a Live Photo
            let owner = try await Client.createOwner(client, setupToken: token!)
            let first = try await Self.upload(owner, TestImages.jpeg(1), "IMG_0001.JPG")
            let second = try await Self.upload(owner, TestImages.jpeg(2), "IMG_0001.JPG")
            let third = try await Self.upload(owner, TestImages.jpeg(3), "img_0001.jpg")
            let live = try await Self.upload(owner, movie, "IMG_0200.MOV")
            #expect(try await Self.upload(owner, still, "IMG_0200.JPG") == live)
            let album = try await Self.album(owner, "Été à Paris", [first, second, third, live])

            // When it is downloaded as originals
            let response = try await owner.request(.get, "/api/v1/albums/\(album)/download")
            let archive = try await Self.archive(response)

            // Then it is named after the album, and holds every original, in the album's order
            let disposition = try #require(response.headers[.contentDisposition])
            #expect(disposition.hasPrefix("attachment; filename=\""))
            #expect(disposition.hasSuffix("filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris.zip"))
            #expect(archive.entries.map(\.name) == ["IMG_0001.JPG", "IMG_0001 (2).JPG", "img_0001 (3).jpg", "IMG_0200.JPG", "IMG_0200.MOV"])
            let expected = [
                try await Self.bytes(owner, "/api/v1/assets/\(first)/original"),
                try await Self.bytes(owner, "/api/v1/assets/\(second)/original"),
                try await Self.bytes(owner, "/api/v1/assets/\(third)/original"),
                still, movie,
            ]
            #expect(archive.entries.map(\.bytes) == expected)
            #expect(archive.entries[0].date == [2021, 7, 4, 15, 30, 10], "the item's date")

            // When the album is downloaded as it shows, with the first photo edited
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(first)/edit", json: RenditionTests.noir)
            let current = try await Self.archive(try await owner.request(.get, "/api/v1/albums/\(album)/download?version=current"))
            // Then the edit is its render's JPEG (whose name now takes the first place), the rest as before
            // and its XMP sidecar follows it, with the recipe marked as applied (the JPEG is its render)
            #expect(
                current.entries.map(\.name) == [
                    "IMG_0001.jpg", "IMG_0001.jpg.xmp", "IMG_0001 (2).JPG", "img_0001 (3).jpg", "IMG_0200.JPG", "IMG_0200.MOV",
                ])
            #expect(current.entries[0].bytes == (try await Self.bytes(owner, "/api/v1/assets/\(first)/current")))
            let sidecar = String(decoding: current.entries[1].bytes ?? Data(), as: UTF8.self)
            #expect(sidecar.contains("CIPhotoEffectNoir") && sidecar.contains("EditRecipeApplied"), "\(sidecar)")
            #expect(Array(current.entries.dropFirst(2).map(\.bytes)) == Array(expected.dropFirst()))

            // When a photo is rated and titled, its original gets a sidecar too, which exiftool reads
            let patched = try await owner.request(
                .patch, "/api/v1/assets/\(second)", json: #"{"rating": 4, "title": "Harbour", "keywords": ["Places|Brittany"]}"#)
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
            let rated = try await Self.archive(try await owner.request(.get, "/api/v1/albums/\(album)/download"))
            #expect(
                rated.entries.map(\.name) == [
                    "IMG_0001.JPG", "IMG_0001.JPG.xmp", "IMG_0001 (2).JPG", "IMG_0001 (2).JPG.xmp", "img_0001 (3).jpg", "IMG_0200.JPG",
                    "IMG_0200.MOV",
                ])
            let original = String(decoding: rated.entries[1].bytes ?? Data(), as: UTF8.self)
            #expect(original.contains("CIPhotoEffectNoir") && !original.contains("EditRecipeApplied"), "beside the original, the recipe is to apply")
            let xmp = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-zip-\(UUID().uuidString).xmp")
            try (rated.entries[3].bytes ?? Data()).write(to: xmp)
            defer { try? FileManager.default.removeItem(at: xmp) }
            let tags = try #require(try Self.exiftool(xmp.path))
            #expect(tags["XMP-xmp:Rating"] as? Int == 4 && tags["XMP-dc:Title"] as? String == "Harbour")
            #expect(tags["XMP-lr:HierarchicalSubject"] as? String == "Places|Brittany")
            #expect(tags["XMP-digiKam:TagsList"] as? String == "Places/Brittany")

            #expect(try await owner.request(.get, "/api/v1/albums/\(album)/download?version=best").status == .badRequest)
            let empty = try await Self.album(owner, "Empty", [])
            #expect(try await Self.archive(try await owner.request(.get, "/api/v1/albums/\(empty)/download")).entries.isEmpty)
        }
    }

    @Test("a selection: a link that only the account's credentials open, while they still see every item; 404, 410, 422, 413")
    func selection() async throws {
        let server = TestServer { $0.maximumDownloadItems = 3 }
        let (app, token, services) = try server.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let inside = try await Self.upload(owner, TestImages.jpeg(11), "inside.jpg")
            let outside = try await Self.upload(owner, TestImages.jpeg(12), "outside.jpg")
            let albumA = try await Self.album(owner, "A", [inside])
            let reader = try await owner.token("read")
            let limited = try await owner.token("read", albums: [albumA])
            let guest = try await Client.signUp(
                client,
                setupToken: try JSONDecoder.api.decode(
                    Invitation.self, from: Data(buffer: try await owner.request(.post, "/api/v1/users/invitations", json: "{}").body)
                ).token, username: "guest")

            // Given a selection made with a read token (an item twice: it is downloaded once)
            let response = try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(outside)", "\#(inside)", "\#(outside)"]}"#)
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let created = try JSONDecoder.api.decode(Created.self, from: Data(buffer: response.body))
            #expect(created.count == 2 && created.version == "original" && created.url == "/api/v1/downloads/" + created.id)
            #expect(response.headers[.location] == created.url)

            // Then the account's credentials download it, in the order asked; nobody else does
            let archive = try await Self.archive(try await reader.request(.get, created.url))
            #expect(archive.entries.map(\.name) == ["outside.jpg", "inside.jpg"])
            #expect(archive.entries[1].bytes == (try await Self.bytes(owner, "/api/v1/assets/\(inside)/original")))
            #expect(try await owner.request(.get, created.url).status == .ok)
            #expect(try await guest.request(.get, created.url).status == .notFound)
            #expect(try await owner.anonymous.request(.get, created.url).status == .unauthorized)
            #expect(try await limited.request(.get, created.url).status == .notFound, "the limited token does not see 'outside'")
            #expect(try await reader.request(.get, "/api/v1/downloads/" + String(repeating: "x", count: 43)).status == .notFound)

            // A limited token: only its albums' items, and only while they are
            #expect(try await limited.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(inside)", "\#(outside)"]}"#).status == .notFound)
            let mine = try JSONDecoder.api.decode(
                Created.self, from: Data(buffer: try await limited.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(inside)"]}"#).body))
            #expect(try await limited.request(.get, mine.url).status == .ok)
            _ = try await owner.request(.post, "/api/v1/albums/\(albumA)/assets/remove", json: #"{"ids": ["\#(inside)"]}"#)
            #expect(try await limited.request(.get, mine.url).status == .notFound)

            // Current versions when asked
            let current = try JSONDecoder.api.decode(
                Created.self,
                from: Data(buffer: try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(inside)"], "version": "current"}"#).body)
            )
            #expect(current.version == "current")

            // An expired link
            _ = try services.accounts.database.write { db in
                try db.execute("UPDATE download SET expiresAt = ? WHERE id = ?", [db.dialect.date(Date().addingTimeInterval(-1)), created.id])
            }
            #expect(try await reader.request(.get, created.url).status == .gone)

            // Bad requests
            let ids = (0..<4).map { _ in "\"\(UUID().uuidString.lowercased())\"" }.joined(separator: ",")
            let tooMany = try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": [\#(ids)]}"#)
            #expect(tooMany.status == .unprocessableContent)
            #expect(String(buffer: tooMany.body).contains("at most 3 photos and videos"))
            #expect(try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": []}"#).status == .unprocessableContent)
            #expect(
                try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(inside)"], "version": "raw"}"#).status == .badRequest)
            let unknown = UUID().uuidString.lowercased()
            #expect(try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(unknown)"]}"#).status == .notFound)
            let padding = String(repeating: " ", count: 1 << 20)
            #expect(
                try await reader.request(.post, "/api/v1/downloads", json: #"{"ids": ["\#(inside)"]\#(padding)}"#).status == .contentTooLarge)
        }
    }

    struct Invitation: Decodable {
        var url: String
        var token: String { String(url.split(separator: "token=").last ?? "") }
    }

    @Test("a share link's ZIP: only when its owner allows it, only what it shows, as it shows unless originals are asked for")
    func shareLink() async throws {
        try await TestServer().withOwner { owner in
            let edited = try await Self.upload(owner, TestImages.jpeg(21), "edited.jpg")
            let plain = try await Self.upload(owner, TestImages.jpeg(22), "plain.jpg")
            let outside = try await Self.upload(owner, TestImages.jpeg(23), "outside.jpg")
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(edited)/edit", json: RenditionTests.noir)
            let album = try await Self.album(owner, "Holiday", [edited, plain])
            let visitor = owner.anonymous

            // A link without downloads
            let closed = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album)"}"#, expect: .created)
            #expect(!closed.allowDownload)
            #expect(String(buffer: try await visitor.request(.get, "/api/v1/shared/\(closed.token)").body).contains(#""allowDownload":false"#))
            let refused = try await visitor.request(.get, "/api/v1/shared/\(closed.token)/download")
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains("does not allow downloads"))

            // A link with downloads: the album's items as they show
            let open = try await owner.json(
                Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album)", "allowDownload": true}"#, expect: .created)
            #expect(open.allowDownload)
            #expect(String(buffer: try await visitor.request(.get, "/api/v1/shared/\(open.token)").body).contains(#""allowDownload":true"#))
            let response = try await visitor.request(.get, "/api/v1/shared/\(open.token)/download")
            #expect(response.headers[.contentDisposition]?.contains("filename=\"Holiday.zip\"") == true)
            let shown = try await Self.archive(response)
            #expect(shown.entries.map(\.name) == ["edited.jpg", "plain.jpg"])
            #expect(shown.entries[0].bytes == (try await Self.bytes(owner, "/api/v1/assets/\(edited)/current")))
            let originals = try await Self.archive(try await visitor.request(.get, "/api/v1/shared/\(open.token)/download?version=original"))
            #expect(originals.entries[0].bytes == (try await Self.bytes(owner, "/api/v1/assets/\(edited)/original")))
            #expect(!originals.entries.map(\.name).contains("outside.jpg"))

            // The edited photo's sidecar goes only with a link that shows metadata
            let detailed = try await owner.json(
                Share.self, .post, "/api/v1/shares", json: #"{"albumID": "\#(album)", "allowDownload": true, "includeMetadata": true}"#,
                expect: .created)
            let withMetadata = try await Self.archive(try await visitor.request(.get, "/api/v1/shared/\(detailed.token)/download"))
            #expect(withMetadata.entries.map(\.name) == ["edited.jpg", "edited.jpg.xmp", "plain.jpg"])

            // A photo's link: that photo alone
            let single = try await owner.json(
                Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(plain)", "allowDownload": true}"#, expect: .created)
            let one = try await Self.archive(try await visitor.request(.get, "/api/v1/shared/\(single.token)/download"))
            #expect(one.entries.map(\.name) == ["plain.jpg"])
            #expect(try await visitor.request(.get, "/api/v1/shared/\(single.token)x/download").status == .notFound)
            _ = outside
        }
    }

    /// Opens a download on a raw connection and reads its first `bytes`, then stops reading: the server is left
    /// waiting for the client, the download open.
    static func startDownload(port: Int, path: String, bearer: String, reading bytes: Int) async throws -> Int32 {
        let (fd, received) = try await blocking { try Self.begin(port: port, path: path, bearer: bearer, reading: bytes) }
        #expect(received >= bytes, "the download began")
        return fd
    }

    private static func begin(port: Int, path: String, bearer: String, reading bytes: Int) throws -> (Int32, Int) {
        let fd = try RawHTTP(port: port).connect()
        let head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(bearer)\r\n\r\n"
        _ = head.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var received = 0
        while received < bytes {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            received += n
        }
        return (fd, received)
    }

    /// Waits until `condition` holds, for at most ten seconds.
    static func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }

    /// The files this process has open inside `folder`.
    static func openFiles(under folder: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(folder) }
    }

    /// An album of one large photo (24 MB: more than the connection's buffers hold), and a read token.
    static func largeAlbum(_ owner: Client) async throws -> (album: String, reader: Client, userID: String) {
        let photo = try await Self.upload(owner, TestImages.padded(31, bytes: 24 << 20), "large.jpg")
        let album = try await Self.album(owner, "Large", [photo])
        let userID = try await owner.json(SessionBody.self, .get, "/api/v1/session").user.id
        return (album, try await owner.token("read"), userID)
    }

    @Test("an account streams a limited number of ZIPs at once: 429 past it, with a message; a finished one gives its place back")
    func concurrencyLimit() async throws {
        let server = TestServer { $0.maximumDownloadsPerUser = 1 }
        let (app, token, services) = try server.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let (album, reader, userID) = try await Self.largeAlbum(owner)
            let port = try #require(client.port)
            let path = "/api/v1/albums/\(album)/download"
            // Given one download under way (its client reading slowly)
            let fd = try await Self.startDownload(port: port, path: path, bearer: reader.bearer!, reading: 65_536)
            #expect(try await Self.eventually { services.downloads.count(key: userID) == 1 })
            // Then a second one is refused, whatever the credential of the account
            let refused = try await reader.request(.get, path)
            #expect(refused.status == .tooManyRequests)
            #expect(String(buffer: refused.body).contains("this account has 1 ZIP download streaming, the most it may at once"))
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await owner.request(.get, path).status == .tooManyRequests)
            // When the first one ends, the next is served
            close(fd)
            #expect(try await Self.eventually { services.downloads.count(key: userID) == 0 })
            let archive = try await Self.archive(try await reader.request(.get, path))
            #expect((archive.entries.first?.size ?? 0) >= 24 << 20)
        }
    }

    @Test("a client that hangs up half-way releases the download: its slot, its open files, its task")
    func disconnect() async throws {
        let server = TestServer()
        let (app, token, services) = try server.buildWithServices()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let (album, reader, userID) = try await Self.largeAlbum(owner)
            let port = try #require(client.port)
            let originals = server.libraryPath + "/originals"
            // Given a download whose client reads its first 100 KB and hangs up
            for _ in 0..<3 {
                let fd = try await Self.startDownload(port: port, path: "/api/v1/albums/\(album)/download", bearer: reader.bearer!, reading: 100_000)
                #expect(try await Self.eventually { services.downloads.count(key: userID) == 1 && !Self.openFiles(under: originals).isEmpty })
                close(fd)
                // Then nothing of it is left on the server
                #expect(try await Self.eventually { services.downloads.count(key: userID) == 0 }, "the slot is given back")
                #expect(try await Self.eventually { Self.openFiles(under: originals).isEmpty }, "the file is closed")
            }
        }
    }
}

extension TestImages {
    /// A JPEG of about `bytes` bytes: a small photo carrying APP15 segments of noise, which decoders skip.
    static func padded(_ seed: Int, bytes: Int) -> Data {
        let jpeg = [UInt8](jpeg(seed))
        var out = Array(jpeg.prefix(2))
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var filled = jpeg.count
        while filled < bytes {
            let length = min(65_533, max(16, bytes - filled))
            out += [0xFF, 0xEF, UInt8((length + 2) >> 8), UInt8((length + 2) & 0xFF)]
            for _ in 0..<length {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                out.append(UInt8(truncatingIfNeeded: state))
            }
            filled += length + 4
        }
        return Data(out + jpeg.dropFirst(2))
    }
}
