import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// RAW and TIFF photos through the API: a DNG uploads as a photo whose renditions come from its development or
/// its preview; its JPEG of the same shot joins it as a RAW+JPEG pair, which `PATCH useRAW` switches; a header
/// shell or a cut RAW file is refused with nothing stored. The files are made by scripts/testdata-raw.
@Suite("RAW and TIFF through the API")
struct RAWUploadTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func fixture(_ name: String) throws -> Data {
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = repository.appendingPathComponent(".build/testdata/raw-tiff/" + name)
        guard FileManager.default.fileExists(atPath: url.path) else { fatalError("\(url.path) is missing: run scripts/testdata-raw") }
        return try Data(contentsOf: url)
    }

    @Test("a DNG and its JPEG: one RAW+JPEG photo whose original PATCH useRAW switches; renditions of each")
    func pair() async throws {
        let raw = try Self.fixture("pair/IMG_0001.DNG")
        let jpeg = try Self.fixture("pair/IMG_0001.JPG")
        try await TestServer().withOwner { owner in
            let first = try await owner.upload(raw, filename: "IMG_0001.DNG")
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let id = try #require(try Self.object(first)["id"] as? String)
            let asset = try #require(try Self.object(first)["asset"] as? [String: Any])
            #expect(asset["originalFormat"] as? String == "raw")
            #expect(asset["width"] as? Int == 1200 && asset["height"] as? Int == 800)
            let thumbnail = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=256x256")
            #expect(thumbnail.status == .ok && Array(Data(buffer: thumbnail.body).prefix(2)) == [0xFF, 0xD8])

            let second = try await owner.upload(jpeg, filename: "IMG_0001.JPG")
            #expect(second.status == .created, "\(String(buffer: second.body))")
            #expect(try Self.object(second)["id"] as? String == id, "the JPEG joins the RAW's photo")
            let paired = try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)"))
            #expect((paired["mediaSubtypes"] as? [String])?.contains("photoRAWPair") == true)
            #expect(paired["originalFormat"] as? String == "jpeg")

            let useRAW = try await owner.request(.patch, "/api/v1/assets/\(id)", json: #"{"useRAW": true}"#)
            #expect(useRAW.status == .ok, "\(String(buffer: useRAW.body))")
            #expect(try Self.object(useRAW)["originalFormat"] as? String == "raw")
            let original = try await owner.request(.get, "/api/v1/assets/\(id)/original")
            #expect(Data(buffer: original.body) == raw)
            let alternate = try await owner.request(.get, "/api/v1/assets/\(id)/resources/alternatePhoto")
            #expect(Data(buffer: alternate.body) == jpeg)
            let developed = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=1024x1024")
            #expect(developed.status == .ok && Array(Data(buffer: developed.body).prefix(2)) == [0xFF, 0xD8])

            let single = try await owner.uploadNew(7)
            let refused = try await owner.request(.patch, "/api/v1/assets/\(single)", json: #"{"useRAW": true}"#)
            #expect(refused.status == .badRequest, "\(String(buffer: refused.body))")
            let none = try await owner.request(.patch, "/api/v1/assets/\(single)", json: "{}")
            #expect(none.status == .unprocessableContent)
        }
    }

    @Test("a RAW photo's edit develops it: GET edit gives the as-shot white and CIRAWFilter's parameters, previews and saves honour the step")
    func rawDevelopmentInTheEditor() async throws {
        let raw = try Self.fixture("raw/rggb_12bit.dng")
        try await TestServer().withOwner { owner in
            let created = try await owner.upload(raw, filename: "DSC_0001.DNG")
            let id = try #require(try Self.object(created)["id"] as? String)
            let history = try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)/edit"))
            let info = try #require(history["raw"] as? [String: Any])
            let temperature = try #require(info["asShotNeutralTemperature"] as? Double)
            #expect((2000...50000).contains(temperature))
            let filter = try #require(info["filter"] as? [String: Any])
            #expect(filter["coreImageName"] as? String == "CIRAWFilter")
            #expect((filter["parameters"] as? [[String: Any]])?.compactMap { $0["coreImageKey"] as? String }.contains("inputNeutralTint") == true)

            func preview(_ parameters: String) async throws -> [UInt8] {
                let body =
                    #"{"size":"256x256","recipe":{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","#
                    + #""steps":[{"filter":"CIRAWFilter","parameters":"# + parameters + "}]}}"
                let response = try await owner.request(.post, "/api/v1/assets/\(id)/preview", json: body)
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                return Array(Data(buffer: response.body))
            }
            // The strip of filters on the RAW photo (its development at the default).
            let strip = try await owner.request(.get, "/api/v1/assets/\(id)/strip?size=64")
            #expect(strip.status == .ok, "\(String(buffer: strip.body))")
            let plain = try await preview("{}")
            let warm = try await preview(#"{"inputNeutralTemperature": 9000}"#)
            let brighter = try await preview(#"{"inputEV": 1}"#)
            #expect(plain != warm && plain != brighter)

            let save = try await owner.request(
                .put, "/api/v1/assets/\(id)/edit",
                json: #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","#
                    + #""steps":[{"filter":"CIRAWFilter","parameters":{"inputEV":0.5}},{"filter":"CIPhotoEffectMono"}]}"#)
            #expect(save.status == .ok, "\(String(buffer: save.body))")
            let saved = try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)/edit"))
            let current = try #require((saved["current"] as? [String: Any])?["recipe"] as? [String: Any])
            #expect((current["steps"] as? [[String: Any]])?.first?["filter"] as? String == "CIRAWFilter")

            let bad = try await owner.request(
                .put, "/api/v1/assets/\(id)/edit",
                json: #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CIRAWFilter","parameters":{"inputEV":7}}]}"#)
            #expect(bad.status == .unprocessableContent, "\(String(buffer: bad.body))")

            // A JPEG has no RAW development: the step is refused with the reason, and GET edit has no raw block.
            let jpeg = try await owner.uploadNew(3)
            #expect(try Self.object(try await owner.request(.get, "/api/v1/assets/\(jpeg)/edit"))["raw"] is NSNull)
            let refused = try await owner.request(
                .put, "/api/v1/assets/\(jpeg)/edit",
                json: #"{"formatIdentifier":"org.sepia.recipe","formatVersion":"1","steps":[{"filter":"CIRAWFilter","parameters":{"inputEV":0.5}}]}"#)
            #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
            #expect(String(buffer: refused.body).contains("CIRAWFilter"))
        }
    }

    @Test("a 16-bit TIFF uploads as a photo")
    func tiff() async throws {
        let tiff = try Self.fixture("tiff/rgb16_lzw_pred2.tif")
        try await TestServer().withOwner { owner in
            let response = try await owner.upload(tiff, filename: "scan.tif")
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let asset = try #require(try Self.object(response)["asset"] as? [String: Any])
            #expect(asset["originalFormat"] as? String == "tiff")
        }
    }

    @Test(
        "hostile RAW and TIFF uploads are refused with nothing stored",
        arguments: ["hostile/dng_header_shell.dng", "hostile/dng_truncated_60.dng", "hostile/pixel_bomb.tif", "hostile/truncated_strips.tif"])
    func hostile(_ name: String) async throws {
        let bytes = try Self.fixture(name)
        let server = TestServer()
        try await server.withOwner { owner in
            let response = try await owner.upload(bytes, filename: (name as NSString).lastPathComponent)
            #expect(response.status == .unprocessableContent, "\(name): \(response.status) \(String(buffer: response.body))")
            let detail = try Self.object(response)["detail"] as? String ?? ""
            #expect(detail.hasPrefix((name as NSString).lastPathComponent + ": ") && !detail.contains("/"), "\(detail)")
            #expect(server.storedFiles().isEmpty)
        }
    }
}
