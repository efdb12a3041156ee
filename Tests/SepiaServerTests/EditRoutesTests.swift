import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaServer

@Suite("Editing: saving, reverting, history, previews and the strip")
struct EditRoutesTests {
    static func recipe(_ steps: String) -> String {
        #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [\#(steps)]}"#
    }

    @Test("an edit is saved non-destructively, kept in the history, and reverted")
    func saveHistoryRevert() async throws {
        try await TestServer().withOwner { owner in
            let bytes = TestImages.jpeg(4, width: 64, height: 40)
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(bytes).body)).id
            let sepia = try await owner.json(
                AssetBody.self, .put, "/api/v1/assets/\(id)/edit",
                json: Self.recipe(#"{"filter": "CISepiaTone", "parameters": {"inputIntensity": 0.8}}"#))
            #expect(sepia.hasAdjustments && sepia.version != "original")
            // Version 2: a look at 40 %.
            let noir = try await owner.json(
                AssetBody.self, .put, "/api/v1/assets/\(id)/edit",
                json: Self.recipe(#"{"filter": "CIPhotoEffectNoir", "intensity": 0.4}"#).replacingOccurrences(of: #""1""#, with: #""2""#))
            #expect(noir.hasAdjustments && noir.version != sepia.version)
            let rotated = try await owner.json(
                AssetBody.self, .put, "/api/v1/assets/\(id)/edit",
                json: Self.recipe(#"{"filter": "CIAffineTransform", "parameters": {"inputTransform": [0, 1, -1, 0, 40, 0]}}"#))
            #expect(rotated.width == 40 && rotated.height == 64)
            struct Edit: Decodable {
                var id: String
                var isCurrent: Bool
            }
            struct History: Decodable {
                var current: Edit?
                var history: [Edit]
            }
            let history = try await owner.json(History.self, .get, "/api/v1/assets/\(id)/edit")
            #expect(history.history.count == 3 && history.current?.id == rotated.version)
            let reverted = try await owner.json(AssetBody.self, .delete, "/api/v1/assets/\(id)/edit")
            #expect(!reverted.hasAdjustments && reverted.version == "original" && reverted.width == 64)
            #expect(Data(buffer: try await owner.request(.get, "/api/v1/assets/\(id)/original").body) == bytes)
            #expect(try await owner.json(History.self, .get, "/api/v1/assets/\(id)/edit").history.count == 3)
        }
    }

    @Test(
        "invalid recipes are refused with what is wrong, and nothing is saved",
        arguments: [
            (#"{"formatIdentifier": "com.example", "formatVersion": "1", "steps": []}"#, 422, "com.example"),
            (recipe(#"{"filter": "CINoSuchFilter"}"#), 422, "unknown filter"),
            (recipe(#"{"filter": "CISepiaTone", "parameters": {"inputIntensity": 7}}"#), 422, "between 0 and 1"),
            (recipe(#"{"filter": "CISepiaTone", "parameters": {"inputColour": 1}}"#), 422, "no parameter"),
            (#"{"steps": 3}"#, 400, "formatIdentifier"),
            (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), 400, "nested deeper"),
            (recipe(Array(repeating: #"{"filter": "CIColorInvert"}"#, count: 65).joined(separator: ",")), 422, "at most 64"),
            (recipe(#"{"filter": "CILanczosScaleTransform", "parameters": {"inputScale": 1000}}"#), 422, "more than the limit"),
            (recipe(#"{"filter": "CIAffineTransform", "parameters": {"inputTransform": [1000, 0, 0, 1000, 0, 0]}}"#), 422, "megapixels"),
            (recipe(#"{"filter": "CICrop", "parameters": {"inputRectangle": [1000, 1000, 10, 10]}}"#), 422, "outside the photo"),
            (recipe(#"{"filter": "CIGaussianBlur", "parameters": {"inputRadius": 1000000}}"#), 422, "at most"),
            (recipe(#"{"filter": "CIPhotoEffectNoir", "intensity": 0.4}"#), 422, "version-1"),
            (recipe(#"{"filter": "CIPhotoEffectNoir", "intensity": 0.4}"#).replacingOccurrences(of: #""1""#, with: #""3""#), 422, "version"),
            (
                recipe(#"{"filter": "CICrop", "parameters": {"inputRectangle": [0, 0, 8, 8]}, "intensity": 0.4}"#)
                    .replacingOccurrences(of: #""1""#, with: #""2""#), 422, "geometry"
            ),
        ])
    func invalidRecipes(body: String, status: Int, message: String) async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(5)
            let response = try await owner.request(.put, "/api/v1/assets/\(id)/edit", json: body)
            #expect(Int(response.status.code) == status, "\(String(buffer: response.body))")
            #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
            #expect(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(id)").hasAdjustments == false)
        }
    }

    @Test("a preview renders a recipe at the requested size without saving it, and reuses the decoded photo")
    func preview() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let id = try await owner.uploadNew(6)
            let body = #"{"recipe": \#(Self.recipe(#"{"filter": "CIGaussianBlur", "parameters": {"inputRadius": 4}}"#)), "size": "32x32"}"#
            let response = try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: body)
            #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.cacheControl] == "no-store")
            let image = try ImageDecoding.open(data: Data(buffer: response.body))
            #expect(image.pixelSize == IntSize(width: 32, height: 21))
            let cropped =
                #"{"recipe": \#(Self.recipe(#"{"filter": "CICrop", "parameters": {"inputRectangle": [0, 0, 24, 24]}}"#)), "format": "webp"}"#
            let square = try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: cropped)
            let decoded = try ImageDecoding.open(data: Data(buffer: square.body))
            #expect(decoded.format == .webp && decoded.pixelSize == IntSize(width: 24, height: 24))
            #expect(try await owner.json(AssetBody.self, .get, "/api/v1/assets/\(id)").hasAdjustments == false)
            let library = try services.libraries.openOwnerLibrary()
            #expect(library.previews.decodeCount == 1)
            let empty = #"{"recipe": \#(Self.recipe(#"{"filter": "CICrop", "parameters": {"inputRectangle": [500, 500, 10, 10]}}"#))}"#
            #expect(try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: empty).status == .unprocessableContent)
            // An upscaling step is refused before any work, not rendered at its full size.
            let huge = #"{"recipe": \#(Self.recipe(#"{"filter": "CILanczosScaleTransform", "parameters": {"inputScale": 100000}}"#))}"#
            #expect(try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: huge).status == .unprocessableContent)
        }
    }

    @Test("a preview that starts from the steps the previous one shared looks like one rendered from the start")
    func previewFromRenderedPrefix() async throws {
        try await TestServer().withOwnerAndServices { owner, services in
            let bytes = TestImages.jpeg(11, width: 640, height: 400)
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(bytes).body)).id
            func preview(shadows: Double, look: String = #"{"filter": "CIPhotoEffectChrome", "intensity": 0.5}"#) async throws -> Bitmap {
                let steps = """
                    {"filter": "CICrop", "parameters": {"inputRectangle": [40, 20, 500, 360]}},
                    {"filter": "CIExposureAdjust", "parameters": {"inputEV": 0.4}},
                    {"filter": "CIHighlightShadowAdjust", "parameters": {"inputShadowAmount": \(shadows)}},
                    \(look)
                    """
                let body = #"{"recipe": \#(Self.recipe(steps).replacingOccurrences(of: #""1""#, with: #""2""#)), "size": "300x300"}"#
                let response = try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: body)
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                return try await RenderContext().renderBitmap(ImageDecoding.open(data: Data(buffer: response.body)).image, layout: .rgb)
            }
            // A slider moving: the crop and the exposure stay, so the second and third previews start from them.
            _ = try await preview(shadows: 0.2)
            _ = try await preview(shadows: 0.4)
            let warm = try await preview(shadows: 0.6)
            let library = try services.libraries.openOwnerLibrary()
            #expect(library.previews.previewsFromRenderedSteps == 1)
            // Another recipe from the first step on, then the same one again: rendered from the source.
            _ = try await preview(shadows: 0.6, look: #"{"filter": "CISepiaTone"}"#)
            library.previews.forget(assetID: id)
            let cold = try await preview(shadows: 0.6)
            #expect(warm.size == IntSize(width: 300, height: 216) && warm.size == cold.size)
            let differences = zip(warm.bytes, cold.bytes).map { abs(Int($0) - Int($1)) }
            #expect(differences.max()! <= 2 && Double(differences.reduce(0, +)) / Double(differences.count) < 0.1)
        }
    }

    @Test("the strip is one image with a square tile per catalog entry")
    func strip() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(8)
            let response = try await owner.request(.get, "/api/v1/assets/\(id)/strip?size=40")
            #expect(response.status == .ok)
            let count = try #require(Int(response.headers[.init("X-Sepia-Strip-Count")!] ?? ""))
            #expect(count == 17)
            let image = try ImageDecoding.open(data: Data(buffer: response.body))
            #expect(image.pixelSize == IntSize(width: 40 * count, height: 40))
            struct Catalog: Decodable {
                struct Item: Decodable {
                    var name: String
                    var group: String
                    var intensity: Double
                }
                var items: [Item]
            }
            let catalog = try await owner.json(Catalog.self, .get, "/api/v1/filters/catalog")
            #expect(catalog.items.count == count)
            #expect(catalog.items.prefix(3).map(\.name) == ["None", "Mono", "Sepia"])
            #expect(catalog.items.last?.group == "Instafilter" && catalog.items.last?.intensity == 0.5)
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)/strip?size=5000").status == .badRequest)
        }
    }
}
