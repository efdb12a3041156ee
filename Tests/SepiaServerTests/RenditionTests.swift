import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaServer

@Suite("Renditions, originals and the current version")
struct RenditionTests {
    @Test(
        "requested sizes snap to buckets that keep the box's ratio",
        arguments: [
            ("100x80", ContentMode.aspectFit, IntSize(width: 128, height: 128)),
            ("256x256", .aspectFit, IntSize(width: 256, height: 256)),
            ("300x200", .aspectFill, IntSize(width: 512, height: 352)),
            ("200x300", .scaleToFill, IntSize(width: 352, height: 512)),
            ("5000x5000", .aspectFit, IntSize(width: 4096, height: 4096)),
            ("1x1000", .aspectFill, IntSize(width: 64, height: 1024)),
        ])
    func buckets(size: String, mode: ContentMode, expected: IntSize) throws {
        let parsed = try #require(try RenditionRequest.parseSize(size))
        #expect(RenditionRequest.snap(parsed, mode: mode) == expected)
    }

    @Test("an item's files are listed and download byte for byte, with ranges; an edit adds its render")
    func resources() async throws {
        try await TestServer().withOwner { owner in
            let photo = TestImages.jpeg(61, width: 64, height: 48)
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(photo, filename: "r.jpg").body)).id
            struct Listing: Decodable {
                struct Resource: Decodable {
                    var type: String
                    var originalFilename: String
                    var mimeType: String
                    var byteCount: Int
                    var url: String
                }
                var resources: [Resource]
            }
            var listing = try await owner.json(Listing.self, .get, "/api/v1/assets/\(id)/resources")
            #expect(listing.resources.map(\.type) == ["photo"])
            #expect(listing.resources[0].originalFilename == "r.jpg" && listing.resources[0].mimeType == "image/jpeg")
            #expect(listing.resources[0].byteCount == photo.count)
            let file = try await owner.request(.get, listing.resources[0].url)
            #expect(file.status == .ok && Data(buffer: file.body) == photo)
            let part = try await owner.request(.get, listing.resources[0].url, headers: [.range: "bytes=2-9"])
            #expect(part.status == .partialContent && Data(buffer: part.body) == photo[2...9])
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(id)/edit", json: Self.noir)
            listing = try await owner.json(Listing.self, .get, "/api/v1/assets/\(id)/resources")
            #expect(listing.resources.map(\.type) == ["photo", "fullSizePhoto"])
            let render = try await owner.request(.get, "/api/v1/assets/\(id)/resources/fullSizePhoto")
            #expect(render.status == .ok && render.headers[.contentType] == "image/jpeg")
            let missing = try await owner.request(.get, "/api/v1/assets/\(id)/resources/pairedVideo")
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("/resources lists its files"))
        }
    }

    @Test("renditions carry strong ETags, answer 304, and are cacheable for a year only under their version")
    func etagsAndCaching() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(1)
            let asset = try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(id)")
            let plain = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=64")
            #expect(plain.status == .ok)
            #expect(plain.headers[.contentType] == "image/jpeg")
            #expect(plain.headers[.cacheControl] == "private, no-cache")
            let etag = try #require(plain.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let image = try ImageDecoding.open(data: Data(buffer: plain.body))
            #expect(image.format == .jpeg && max(image.pixelSize.width, image.pixelSize.height) == 48)  // never upscaled
            let again = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=64", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let versioned = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=64&v=\(asset.version)")
            #expect(versioned.headers[.cacheControl] == "private, max-age=31536000, immutable")
            // WebP on request.
            let webp = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=64&format=webp")
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(try ImageDecoding.open(data: Data(buffer: webp.body)).format == .webp)
            // An edit changes the pixels, so the ETag changes and the old one no longer matches.
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(id)/edit", json: Self.noir)
            let edited = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=64", headers: [.ifNoneMatch: etag])
            #expect(edited.status == .ok)
            #expect(edited.headers[.eTag] != etag)
            // Bad parameters are 400s that say which.
            let bad = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=0x10")
            #expect(bad.status == .badRequest && String(buffer: bad.body).contains("size"))
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)/image?mode=zoom").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)/image?format=gif").status == .badRequest)
            // A stretched rendition is never larger than the photo (48×32 here): the box's ratio, within it.
            let stretched = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=4096&mode=stretch")
            let size = try ImageDecoding.open(data: Data(buffer: stretched.body)).pixelSize
            #expect(size == IntSize(width: 32, height: 32))
        }
    }

    @Test("the original downloads byte for byte under its name, with ranges")
    func originalWithRanges() async throws {
        try await TestServer().withOwner { owner in
            let bytes = TestImages.jpeg(9)
            let id = try JSONDecoder.api.decode(
                UploadBody.self, from: Data(buffer: try await owner.upload(bytes, filename: "Été à Paris.jpg").body)
            ).id
            let whole = try await owner.request(.get, "/api/v1/assets/\(id)/original")
            #expect(whole.status == .ok)
            #expect(Data(buffer: whole.body) == bytes)
            #expect(whole.headers[.acceptRanges] == "bytes")
            let disposition = try #require(whole.headers[.contentDisposition])
            #expect(disposition.hasPrefix("attachment;") && disposition.contains("filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris.jpg"))
            let part = try await owner.request(.get, "/api/v1/assets/\(id)/original", headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent)
            #expect(Data(buffer: part.body) == bytes[10...19])
            #expect(part.headers[.contentRange] == "bytes 10-19/\(bytes.count)")
            let tail = try await owner.request(.get, "/api/v1/assets/\(id)/original", headers: [.range: "bytes=-5"])
            #expect(Data(buffer: tail.body) == bytes.suffix(5))
            // A range in another unit is ignored: the whole file.
            let items = try await owner.request(.get, "/api/v1/assets/\(id)/original", headers: [.range: "items=0-1"])
            #expect(items.status == .ok && Data(buffer: items.body) == bytes)
            let outside = try await owner.request(.get, "/api/v1/assets/\(id)/original", headers: [.range: "bytes=\(bytes.count + 5)-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */\(bytes.count)")
            // The current version is the original until an edit, then the edit's JPEG.
            #expect(Data(buffer: try await owner.request(.get, "/api/v1/assets/\(id)/current").body) == bytes)
            _ = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(id)/edit", json: Self.noir)
            let current = try await owner.request(.get, "/api/v1/assets/\(id)/current")
            #expect(Data(buffer: current.body) != bytes)
            #expect(current.headers[.contentDisposition]?.contains("filename=\"_t_ _ Paris.jpg\"") == true)
        }
    }

    @Test("a HEIC original is served as JPEG or WebP")
    func heicAsJPEG() async throws {
        let heic = TestServerFixtures.corpus.appendingPathComponent("heic-avif").path
        let name = "scene-451x461.heic"
        try await TestServer().withOwner { owner in
            let upload = try await owner.upload(try Data(contentsOf: URL(fileURLWithPath: heic + "/" + name)), filename: name)
            #expect(upload.status == .created, "\(String(buffer: upload.body))")
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: upload.body)).id
            let jpeg = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=128")
            #expect(try ImageDecoding.open(data: Data(buffer: jpeg.body)).format == .jpeg)
            let original = try await owner.request(.get, "/api/v1/assets/\(id)/original")
            #expect(original.headers[.contentType] == "image/heic")
        }
    }

    static let noir = #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CIPhotoEffectNoir"}]}"#
}
